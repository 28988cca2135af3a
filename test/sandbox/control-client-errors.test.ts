// The typed control client's errors: each method's refusal names its own control operation (the operationId of
// the control document), and the error's detail is the control API's message, else the answer's status text,
// else "no message", so what a refused set-up step says is never blank or a value that is not text.
import { describe, expect, it } from "vitest";
import { createSandboxControl } from "../../src/sandbox/index.js";
import { newSandbox, rejectionOf } from "./support/sandbox.js";

/** A client whose every request is answered with `answer()` (as a proxy in front of a sandbox might answer). */
const answeredWith = (answer: () => Response) =>
  createSandboxControl({ baseUrl: "http://sandbox.local", fetch: async () => answer() });

describe("the typed control client's errors", () => {
  it("name the operation each method called, with the control API's 401 without the token", async () => {
    const sandbox = newSandbox({ controlToken: "t0ken" });
    const control = createSandboxControl({ baseUrl: "http://sandbox.local", fetch: sandbox.fetch });
    // A state to restore, read where no token is asked for.
    const saved = await createSandboxControl({ baseUrl: "http://sandbox.local", fetch: newSandbox().fetch }).state();
    const calls: [() => Promise<unknown>, string][] = [
      [() => control.putAccount("key-a"), "putSandboxAccount"],
      [() => control.getAccount("key-a"), "getSandboxAccount"],
      [() => control.deleteAccount("key-a"), "deleteSandboxAccount"],
      [
        () => control.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 1 }),
        "simulateSandboxDeposit",
      ],
      [() => control.settleWithdrawal("t-1", { status: "SUCCESSFUL" }), "settleSandboxWithdrawal"],
      [() => control.clock(), "getSandboxClock"],
      [() => control.advanceClock(1), "advanceSandboxClock"],
      [() => control.rates(), "getSandboxRates"],
      [() => control.setRates({ dollar: { NGNX: 0.001 } }), "putSandboxRates"],
      [() => control.settings(), "getSandboxSettings"],
      [() => control.putSettings({ requireKnownKeys: true }), "putSandboxSettings"],
      [() => control.webhooks("key-a"), "listSandboxWebhooks"],
      [() => control.state(), "getSandboxState"],
      [() => control.restore(saved), "putSandboxState"],
      [() => control.choices(), "getSandboxChoices"],
    ];
    for (const [call, operation] of calls) {
      const error = await rejectionOf(call());
      expect([error.name, error.message]).toEqual([
        "SandboxControlError",
        `${operation}: the sandbox answered 401: The control API requires Authorization: Bearer <token>`,
      ]);
    }
  });

  it("say the status text when the body has no message, and 'no message' when there is neither", async () => {
    const table: [() => Response, string][] = [
      [() => Response.json({ message: "gone away" }, { status: 503, statusText: "Service Unavailable" }), "gone away"],
      [() => Response.json({ message: 42 }, { status: 503, statusText: "Service Unavailable" }), "Service Unavailable"],
      [() => new Response("<html>", { status: 502, statusText: "Bad Gateway" }), "Bad Gateway"],
      [() => new Response("", { status: 500, headers: { "content-length": "0" } }), "no message"],
      [() => new Response("", { status: 500, statusText: "Internal", headers: { "content-length": "0" } }), "Internal"],
    ];
    for (const [answer, detail] of table) expect((await rejectionOf(answeredWith(answer).clock())).detail).toBe(detail);
  });
});
