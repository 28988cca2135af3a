// How the rate limits are read from a contract's x-rate-limits (limits.ts): the general limit is info's first
// entry that is an object; a contract without one, or whose entry lacks its number of requests, is refused by
// name; and a refusal says a window that is no whole minute, hour or day in seconds.
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/contract/bundled.js";
import type { OpenApiDocument } from "../../src/openapi/document.js";
import type { Engine } from "../../src/sandbox/engine.js";
import { createLimits, KEYLESS } from "../../src/sandbox/limits.js";
import { START, thrownBy } from "./support/sandbox.js";

/** An engine of just what the limits read: a contract with info's x-rate-limits `entries`, a fixed clock. */
function engineWith(entries: unknown[] | undefined): Engine {
  const spec = structuredClone(openApiDocument) as OpenApiDocument & { info: Record<string, unknown> };
  if (entries === undefined) delete spec.info["x-rate-limits"];
  else spec.info["x-rate-limits"] = entries;
  const state = { accounts: {}, keylessWindows: {} };
  return { spec, state, clock: { now: () => START } } as unknown as Engine;
}

const MISSING = "sandbox: the contract's x-rate-limits entry for minute has no requests and window";

describe("the contract's general rate limit", () => {
  it("is refused when info has no x-rate-limits, or its entry no number of requests", () => {
    expect([
      thrownBy(() => createLimits(engineWith(undefined), {}))?.message,
      thrownBy(() => createLimits(engineWith([{ window: "PT1M" }]), {}))?.message,
      thrownBy(() => createLimits(engineWith([{ requests: 200 }]), {}))?.message,
    ]).toEqual([MISSING, MISSING, MISSING]);
  });

  it("is info's first entry that is an object, and its refusal says a window of seconds", () => {
    const limits = createLimits(engineWith(["a note", { requests: 1, window: "PT30S" }]), {});
    expect(limits.admit(KEYLESS, undefined).refusal).toBe(undefined);
    expect(limits.admit(KEYLESS, undefined).refusal).toEqual({
      status: 429,
      why: "rate limit spent: 1 requests per 30 s for this API key; the window resets at 2026-11-26T10:00:30.000Z",
    });
  });
});
