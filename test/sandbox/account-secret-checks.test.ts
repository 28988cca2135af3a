// putAccount takes an API secret only as a non-empty string: from JavaScript (no schema in front of the in-process
// method) a number or an object is refused with the message an empty secret gets, and no account is made.
import { describe, expect, it } from "vitest";
import { newSandbox, thrownBy } from "./support/sandbox.js";

const REFUSAL =
  "sandbox account key-a: apiSecret must be a non-empty string (leave it out for an account whose requests are not " +
  "signed)";

describe("an account's API secret", () => {
  it("is refused when it is no string", () => {
    const sandbox = newSandbox();
    const put = (apiSecret: unknown) => thrownBy(() => sandbox.putAccount("key-a", { apiSecret } as any));
    const refusals = [put(12345), put({ secret: "s" })];
    expect(refusals.map((error) => [error instanceof RangeError, error?.message])).toEqual([
      [true, REFUSAL],
      [true, REFUSAL],
    ]);
    expect(sandbox.getAccount("key-a")).toBe(undefined);
  });
});
