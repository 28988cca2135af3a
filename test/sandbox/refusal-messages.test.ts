// The message of each refusal names its cause in words a caller can act on: a page out of bounds, a key the
// sandbox does not know when it requires known keys, and rates it cannot take (setRates throws the same words the
// control API answers).
import { describe, expect, it } from "vitest";
import { api, newSandbox } from "./support/sandbox.js";

describe("refusal messages", () => {
  it("names the page bounds, for page and pageSize alike, and the unknown key", async () => {
    const sandbox = newSandbox({ requireKnownKeys: true, accounts: { known: {} } });
    const cases: Array<[string, string]> = [
      ["known", "/transactions/me?page=0&pageSize=3"],
      ["known", "/transactions/me?page=2&pageSize=0"],
      ["stranger", "/transactions/me"],
    ];
    const seen = [];
    for (const [key, path] of cases) {
      const answer = await api(sandbox, "GET", path, undefined, { key });
      seen.push([path, answer.status, answer.body.message]);
    }
    expect(seen).toEqual([
      ["/transactions/me?page=0&pageSize=3", 422, "page and pageSize must be 1 or more"],
      ["/transactions/me?page=2&pageSize=0", 422, "page and pageSize must be 1 or more"],
      ["/transactions/me", 401, "this API key has no account in the sandbox (it requires known keys)"],
    ]);
  });

  it("names the rates setRates cannot take", () => {
    const sandbox = newSandbox();
    expect(() => sandbox.setRates({ fiat: [{ currency: "NGNX", buyRate: -1, sellRate: 1 }] })).toThrow(
      "sandbox rates: buyRate and sellRate must be above 0",
    );
  });
});
