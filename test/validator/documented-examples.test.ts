// The spec's own success examples pass the validator as a server would send them (status, example headers, the
// body as text), in strict mode without a warning: one test per operation, naming each example that fails.
import { expect, it } from "vitest";
import { listSpecOperations, sharedValidator } from "../support/spec.js";
import { Failures } from "../spec/failures.js";
import { successOf } from "./support/examples.js";

const validator = sharedValidator();
const operations = listSpecOperations();

it.for(operations.map((op) => [op.operationId, op] as const))(
  "%s: every documented success example passes, in strict mode without warnings",
  ([, op]) => {
    const success = successOf(op);
    expect(success.examples.length, op.operationId).toBeGreaterThan(0);
    const failures = new Failures();
    for (const example of success.examples) {
      failures.check(example.name, () => {
        const result = validator.validateResponse(
          {
            method: op.method,
            path: op.path,
            status: success.status,
            headers: success.headers,
            bodyText: JSON.stringify(example.value),
          },
          { strict: true },
        );
        expect(result, `${op.operationId} ${example.name}`).toMatchObject({
          ok: true,
          violations: [],
          warnings: [],
          responseKey: String(success.status),
        });
      });
    }
    failures.expectNone(`the success examples of ${op.operationId}`);
  },
);

it("checks at least one example per operation", () => {
  const checked = operations.reduce((sum, op) => sum + successOf(op).examples.length, 0);
  expect(checked).toBeGreaterThanOrEqual(operations.length);
});
