// One validation of one response in progress: the response, the operation it answers, and what the header, content
// and body checks have found so far. Messages start with `METHOD /path status:`; they are built only when something
// is wrong, so a valid response costs no string.
import type { ContractResult, ContractViolation, ContractWarning, OperationRef, ResponseToValidate } from "./types.js";

export class ResponseCheck {
  readonly violations: ContractViolation[] = [];
  readonly warnings: ContractWarning[] = [];

  constructor(
    readonly input: ResponseToValidate,
    readonly operation: OperationRef,
  ) {}

  /** A violation of this response: its message is `METHOD /path status: <tail>`. */
  add(kind: ContractViolation["kind"], location: ContractViolation["location"], pointer: string, tail: string): void {
    const { method, path } = this.operation;
    this.violations.push({ kind, location, pointer, message: `${method} ${path} ${this.input.status}: ${tail}` });
  }

  /** A violation of the status itself: its message is `METHOD /path: <tail>`. */
  addStatus(kind: "unexpected-status" | "undocumented-status", tail: string): void {
    const { method, path } = this.operation;
    this.violations.push({ kind, location: "status", pointer: "", message: `${method} ${path}: ${tail}` });
  }

  result(responseKey: string | undefined): ContractResult {
    const { operation, violations, warnings } = this;
    return { ok: violations.length === 0, operation, responseKey, violations, warnings };
  }
}
