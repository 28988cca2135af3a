// Public surface of the `./contract` subpath: the contract validator and its openapi-fetch middleware.
export { createContractValidator, type ContractValidator, type RequestTarget } from "./validator.js";
export { contractMiddleware, ContractViolationError, type ContractMiddlewareOptions } from "./middleware.js";
export { createBundledContractValidator, openApiDocument } from "./bundled.js";
export type {
  ContractResult,
  ContractValidatorOptions,
  ContractViolation,
  ContractWarning,
  HeadersLike,
  OpenApiDocument,
  OperationRef,
  ResponseToValidate,
  ViolationKind,
} from "./types.js";
