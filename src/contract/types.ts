// The public types of the `./contract` subpath: what a response to check looks like, what a check reports
// (violations and strict-mode warnings, each with a JSON pointer), and the validator's options.
import type { OpenApiDocument } from "../openapi/document.js";

export type { OpenApiDocument };

/** A response to check against the contract. */
export interface ResponseToValidate {
  /** HTTP method, any case. */
  method: string;
  /**
   * Path of the request: templated (`/trades/quote/{quoteId}`) or concrete (`/trades/quote/q_123`),
   * with or without the server base path (`/v1`), or a full URL (its query string is ignored).
   */
  path: string;
  status: number;
  /** A fetch `Headers`, or a plain map (names in any case; node's `IncomingHttpHeaders` works). */
  headers?: HeadersLike;
  /** The parsed body. Give either `body` or `bodyText`. */
  body?: unknown;
  /** The raw body text; parsed as JSON when the documented media type is JSON. */
  bodyText?: string;
  /** When true, a status outside 2xx is a violation (`unexpected-status`), documented or not. */
  expectSuccess?: boolean;
}

export type HeadersLike =
  | { get(name: string): string | null; forEach(cb: (value: string, name: string) => void): void }
  | Record<string, string | string[] | number | undefined>;

export type ViolationKind =
  | "unknown-operation"
  | "undocumented-status"
  | "unexpected-status"
  | "undocumented-content-type"
  | "missing-header"
  | "invalid-header"
  | "invalid-json"
  | "body-schema"
  | "missing-parameter"
  | "invalid-parameter";

export interface ContractViolation {
  kind: ViolationKind;
  /** Which part of the response (or, for a request's parameters, of the request) the pointer points into. */
  location: "operation" | "status" | "headers" | "body" | "query" | "path";
  /**
   * JSON pointer (RFC 6901): into the body for `location: "body"` (`""` is the whole body,
   * `/data/0/amount` a field); `/<header-name>` (lower case) for headers; `/<name>` for a query or path
   * parameter; `""` otherwise.
   */
  pointer: string;
  message: string;
}

export interface ContractWarning {
  kind: "undocumented-field";
  location: "body";
  pointer: string;
  message: string;
}

export interface OperationRef {
  operationId: string | undefined;
  method: string;
  /** The templated path as written in the spec, without the server base path. */
  path: string;
}

export interface ContractResult {
  ok: boolean;
  operation: OperationRef | undefined;
  /** The response key that documents this status (`"200"`, `"4XX"`, `"default"`), if any. */
  responseKey: string | undefined;
  violations: ContractViolation[];
  /** Strict mode only: fields the spec does not document. Never make `ok` false. */
  warnings: ContractWarning[];
}

export interface ContractValidatorOptions {
  /** Report undocumented body fields as warnings (drift of a live server). Default false. */
  strict?: boolean;
  /**
   * Base paths to strip from concrete paths, e.g. `["/v1"]`. Default: the path part of every
   * `servers[].url` of the document (server variables replaced by their defaults).
   */
  basePaths?: string[];
}
