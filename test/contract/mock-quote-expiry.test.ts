// The mock's quotes are valid when they are answered: Create Quote answers its documented example with an
// expiryDate MOCK_QUOTE_VALIDITY_MS after the answer (the documented one is in the past), so the README's
// first example (create a quote, accept it unless expired) accepts against the mock. On a real socket.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MOCK_QUOTE_VALIDITY_MS, type StartedMock, startMock } from "../../src/mock/index.js";
import { createQuote, freshQuoteTests, quoteProperty } from "../support/quote.js";
import type { JsonObject } from "../support/spec.js";

describe("the mock's Create Quote answer", () => {
  let mock: StartedMock;

  beforeAll(async () => {
    mock = await startMock();
  });

  afterAll(async () => {
    await mock?.stop();
  });

  it("keeps MOCK_QUOTE_VALIDITY_MS a time-limited window: a minute", () => {
    expect(MOCK_QUOTE_VALIDITY_MS).toBe(60_000);
    expect(
      mock.fixes.some((fix) => fix.includes("expiryDate") && fix.includes(`${MOCK_QUOTE_VALIDITY_MS / 1000} s`)),
    ).toBe(true);
  });

  freshQuoteTests(() => mock.baseUrl);

  it("computes the expiry at each answer, not once", async () => {
    // Only Date is faked (the mock runs in this process): timers and sockets stay real.
    const at = Date.parse("2026-11-24T10:00:00.000Z");
    const expiryOf = (body: JsonObject) => Date.parse((body[quoteProperty] as JsonObject).expiryDate as string);
    try {
      vi.useFakeTimers({ toFake: ["Date"], now: at });
      const first = await createQuote(mock.baseUrl);
      vi.setSystemTime(at + 1234);
      const second = await createQuote(mock.baseUrl);
      const expected = [at, at + 1234].map((answeredAt) => answeredAt + MOCK_QUOTE_VALIDITY_MS);
      expect([expiryOf(first.body), expiryOf(second.body)]).toEqual(expected);
    } finally {
      vi.useRealTimers();
    }
  });
});
