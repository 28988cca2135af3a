// Both forms the register allows for when a quote expires (rules.ts, RULE_FORMS.quoteExpiry; choices.ts
// "quotes.expired"): "at-expiry" (the sandbox's) refuses an accept from expiryDate on, "after-expiry" takes one at
// expiryDate and refuses it a millisecond later. The second form is switched on here for this file only, so the
// code that reads it is held to it should the register ever choose it.
import { afterEach, describe, expect, it } from "vitest";
import { RULE_FORMS } from "../../src/sandbox/rules.js";
import { api, newSandbox, quoteId } from "./support/sandbox.js";

const CHOSEN = RULE_FORMS.quoteExpiry;
afterEach(() => {
  RULE_FORMS.quoteExpiry = CHOSEN;
});

/** Accepts two quotes made at START (expiryDate 10:00:30.000Z): one at expiryDate, one a millisecond after. */
async function acceptAtAndAfterExpiry() {
  const sandbox = newSandbox();
  const [atExpiry, after] = [await quoteId(sandbox), await quoteId(sandbox)];
  sandbox.clock.advance(30_000);
  const first = await api(sandbox, "POST", `/trades/quote/${atExpiry}`, {});
  sandbox.clock.advance(1);
  const second = await api(sandbox, "POST", `/trades/quote/${after}`, {});
  const row = (answer: typeof first) => [answer.status, answer.body.message];
  return { atExpiry, after, rows: [row(first), row(second)] };
}

describe("quote expiry", () => {
  it("at-expiry: refused at expiryDate already", async () => {
    RULE_FORMS.quoteExpiry = "at-expiry";
    const { atExpiry, after, rows } = await acceptAtAndAfterExpiry();
    expect(rows).toEqual([
      [400, `quote ${atExpiry} expired at 2026-11-26T10:00:30.000Z: request a new quote`],
      [400, `quote ${after} expired at 2026-11-26T10:00:30.000Z: request a new quote`],
    ]);
  });

  it("after-expiry: accepted at expiryDate, refused a millisecond after it", async () => {
    RULE_FORMS.quoteExpiry = "after-expiry";
    const { after, rows } = await acceptAtAndAfterExpiry();
    expect(rows).toEqual([
      [200, "Request successful"],
      [400, `quote ${after} expired at 2026-11-26T10:00:30.000Z: request a new quote`],
    ]);
  });
});
