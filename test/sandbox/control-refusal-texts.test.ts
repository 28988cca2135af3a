// The texts of the control API's own refusals, before any route runs: a body that is not JSON says so (whatever
// the route), and a missing control token says which header the control API requires.
import { describe, expect, it } from "vitest";
import { control, newSandbox } from "./support/sandbox.js";

describe("control API refusal texts", () => {
  it("says a body is not JSON, with the parser's reason, on every route that takes a body", async () => {
    const sandbox = newSandbox();
    const routes = [
      ["PUT", "/_sandbox/accounts/k1"],
      ["PUT", "/_sandbox/rates"],
      ["POST", "/_sandbox/clock/advance"],
      ["PUT", "/_sandbox/state"],
    ] as const;
    for (const [method, path] of routes) {
      const answer = await control(sandbox, method, path, "{");
      expect([method, path, answer.status]).toEqual([method, path, 400]);
      // The reason in brackets is the JavaScript engine's own text; it says where parsing stopped.
      expect(answer.body.message).toMatch(/^the body is not valid JSON \(.*position 1.*\)$/);
    }
  });

  it("names the header it requires when a control token is set and the request lacks it", async () => {
    const sandbox = newSandbox({ controlToken: "t0ken" });
    const refused = await control(sandbox, "GET", "/_sandbox/clock");
    expect([refused.status, refused.body]).toEqual([
      401,
      { message: "The control API requires Authorization: Bearer <token>" },
    ]);
  });
});
