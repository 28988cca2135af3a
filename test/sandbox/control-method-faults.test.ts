// What the control API answers when the sandbox method behind a route fails or misbehaves (a fault put in by
// replacing the method on the sandbox object the control API calls): a RangeError, which the in-process methods
// document they throw, answers 400 with its message; another error is a bug, not an answer, and rejects the
// fetch; an answer the control document does not allow is a sandbox bug, answered 500 saying every violation,
// and logged when the sandbox has a log.
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../src/sandbox/index.js";
import { control, newSandbox, START } from "./support/sandbox.js";

/** An account answer breaking the control document twice: two flags that must be booleans are strings. */
const BROKEN_ACCOUNT = {
  apiKey: "k1",
  balances: {},
  business: "no",
  hasApiSecret: "no",
  hasWebhookSecret: false,
  collectionCustomers: [],
};
const BROKEN_WHY =
  "the sandbox's control answer breaks its document: GET /_sandbox/accounts/{apiKey} 200: /business must be " +
  "boolean; GET /_sandbox/accounts/{apiKey} 200: /hasApiSecret must be boolean";

describe("control API over a failing sandbox method", () => {
  it("answers a plain RangeError 400 with its message", async () => {
    const sandbox = newSandbox();
    Object.assign(sandbox, {
      setRates: () => {
        throw new RangeError("rates beyond what the test allows");
      },
    });
    const refused = await control(sandbox, "PUT", "/_sandbox/rates", {});
    expect([refused.status, refused.body]).toEqual([400, { message: "rates beyond what the test allows" }]);
  });

  it("lets another error through: the fetch rejects with it", async () => {
    const sandbox = newSandbox();
    const bug = new TypeError("a bug in setRates");
    Object.assign(sandbox, {
      setRates: () => {
        throw bug;
      },
    });
    const request = new Request("http://sandbox.test/_sandbox/rates", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    await expect(sandbox.fetch(request)).rejects.toBe(bug);
  });

  it("answers 500 naming every violation of an answer the document does not allow, and logs it", async () => {
    const sandbox = newSandbox();
    Object.assign(sandbox, { getAccount: () => BROKEN_ACCOUNT });
    const answer = await control(sandbox, "GET", "/_sandbox/accounts/k1");
    expect([answer.status, answer.body]).toEqual([500, { message: BROKEN_WHY }]);
    expect(sandbox.bugs).toEqual([`sandbox bug: GET /_sandbox/accounts/k1: ${BROKEN_WHY}`]);
  });

  it("answers the same 500 in a sandbox without a log", async () => {
    const sandbox = createSandbox({ clock: { start: START } });
    Object.assign(sandbox, { getAccount: () => BROKEN_ACCOUNT });
    const answer = await control(sandbox, "GET", "/_sandbox/accounts/k1");
    expect([answer.status, answer.body]).toEqual([500, { message: BROKEN_WHY }]);
  });
});
