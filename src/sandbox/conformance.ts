// The last check of every answer the sandbox sends (the pipeline's `checkAnswer`): the package's contract
// validator, compiled once. An answer that fails it is a sandbox bug: the pipeline answers 500 with the
// violation in the published error body, and the bug is logged (choices.ts, "answers.checked").
import { BASE_PATH } from "../../generated/client-meta.js";
import type { ContractViolation } from "../contract/types.js";
import { type ContractValidator, createContractValidator } from "../contract/validator.js";
import type { AnsweredRequest, PipelineAnswer } from "../pipeline/pipeline.js";
import { listOperations, type OpenApiDocument, type Operation, responseKeyFor } from "../openapi/document.js";

/** Validators by contract: compiling is the expensive part, and every sandbox of one contract shares it. */
const validators = new WeakMap<OpenApiDocument, ContractValidator>();

/** The validator of `spec` under the base path, shared by every sandbox of it (requests and answers). */
export function sharedValidator(spec: OpenApiDocument): ContractValidator {
  let validator = validators.get(spec);
  if (!validator) {
    validator = createContractValidator(spec, { basePaths: [BASE_PATH] });
    validators.set(spec, validator);
  }
  return validator;
}

export function createAnswerCheck(spec: OpenApiDocument, log: ((line: string) => void) | undefined) {
  const validator = sharedValidator(spec);
  const operations = listOperations(spec);
  /** An answer to no operation is the error answer the operations share: the first one documenting its status. */
  const sharedBy = (status: number) => operations.find((operation) => responseKeyFor(operation.responses, status));
  // Check once, send many: the last body text of each operation that passed, with its status and content type
  // (all its check depends on besides its text). The same text again (Get Fiat Rates between rate changes) has
  // only its headers checked: with no body given, and the findings about the missing body set aside.
  const passedBodies = new Map<object, { status: number; contentType: unknown; text: string }>();
  // A JSON answer's value is checked as it is, not its text parsed again. The check of the value is as strict as
  // that of its text or stricter: the validator takes no NaN or Infinity for a number (JSON.stringify writes
  // null), and a key whose value is undefined, which the text drops, still counts against additionalProperties.
  const bodyOf = (answer: PipelineAnswer) =>
    answer.value === undefined ? { bodyText: answer.body } : { body: answer.value };
  const validate = (operation: Operation, path: string, answer: PipelineAnswer): ContractViolation[] => {
    const { status, headers, body } = answer;
    const passed = passedBodies.get(operation);
    const contentType = headers["content-type"];
    const known = passed?.text === body && passed.status === status && passed.contentType === contentType;
    const request = { method: operation.method, path, status, headers, ...(known ? { bodyText: "" } : bodyOf(answer)) };
    const result = validator.validateResponse(request);
    if (known) return result.violations.filter((violation) => violation.location !== "body");
    if (result.ok && body.length) passedBodies.set(operation, { status, contentType, text: body });
    return result.violations;
  };
  return (answer: PipelineAnswer, request: AnsweredRequest): string | undefined => {
    const operation = request.operation ?? sharedBy(answer.status);
    if (!operation) return undefined;
    const found = validate(operation, request.operation ? request.path : operation.path, answer);
    if (!found.length) return undefined;
    const { status } = answer;
    const violations = found.map((violation) => `${violation.pointer} ${violation.message}`.trim());
    const why = `the sandbox's answer (${status}) breaks the contract: ${violations.join("; ")}`;
    log?.(`sandbox bug: ${request.method} ${request.path}: ${why}`);
    return why;
  };
}
