// pins: addresses.values
// How a deposit address is made: to match its network's addressRegex (Get Withdrawal Currency Networks), following
// its literals, classes and counted repeats, an open repeat (+, *, {n,}) giving 32 characters; a network without
// an addressRegex, or with one of other forms (an alternation), gets 0x and 40 hex digits. Values are drawn from
// the state's id generator: a sandbox restored from a snapshot makes the same next address.
import { describe, expect, it } from "vitest";
import { successExample } from "../support/spec.js";
import { api, newSandbox } from "./support/sandbox.js";

/** A sandbox whose USDT withdrawal network TRX has `addressRegex` (the example's, when undefined). */
function withTrxRegex(addressRegex?: string) {
  const networks = structuredClone(successExample("getWithdrawalCurrencyNetworks").data as any[]);
  if (addressRegex !== undefined) networks.find((network) => network.code === "TRX").addressRegex = addressRegex;
  return newSandbox({ catalogue: { withdrawalNetworks: { USDT: networks } } });
}

/** A new address of USDT on `network` for `customer`. */
async function addressOn(sandbox: ReturnType<typeof newSandbox>, network: string, customer = "c-1") {
  const answer = await api(sandbox, "POST", "/addresses/broker", {
    currency: "USDT",
    network,
    uniqueUserIdentifier: customer,
  });
  expect([answer.status, answer.violations]).toEqual([200, []]);
  return answer.body.data.value as string;
}

describe("deposit address values", () => {
  it("follow the example's TRX addressRegex: T and 33 base58 characters", async () => {
    const networks = successExample("getWithdrawalCurrencyNetworks").data as Array<{
      code: string;
      addressRegex: string;
    }>;
    expect(networks.find((network) => network.code === "TRX")?.addressRegex).toBe("^T[1-9A-HJ-NP-Za-km-z]{33}$");
    const sandbox = withTrxRegex();
    for (const customer of ["c-1", "c-2", "c-3"])
      expect(await addressOn(sandbox, "TRX", customer)).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  });

  it("give an open repeat (+, *, {n,}) 32 characters, a counted one its count", async () => {
    const made = [];
    for (const regex of ["^T[0-9]+$", "^T[0-9]*$", "^T[0-9]{5,}$", "^X\\d{3}-[a-c]{2,4}$"])
      made.push([regex, await addressOn(withTrxRegex(regex), "TRX")]);
    expect(made).toEqual([
      ["^T[0-9]+$", expect.stringMatching(/^T[0-9]{32}$/)],
      ["^T[0-9]*$", expect.stringMatching(/^T[0-9]{32}$/)],
      ["^T[0-9]{5,}$", expect.stringMatching(/^T[0-9]{32}$/)],
      ["^X\\d{3}-[a-c]{2,4}$", expect.stringMatching(/^X[0-9]{3}-[a-c]{4}$/)],
    ]);
  });

  it("are 0x and 40 hex digits without an addressRegex (ETH), or with one of other forms", async () => {
    expect(await addressOn(newSandbox(), "ETH")).toMatch(/^0x[0-9a-f]{40}$/);
    expect(await addressOn(withTrxRegex("^(T|X)[0-9]{3}$"), "TRX")).toMatch(/^0x[0-9a-f]{40}$/);
  });

  it("come from the state's generator: a restored sandbox makes the same next address", async () => {
    const sandbox = newSandbox();
    const restored = newSandbox();
    restored.restore(JSON.parse(JSON.stringify(sandbox.snapshot())));
    const [original, again] = [await addressOn(sandbox, "TRX"), await addressOn(restored, "TRX")];
    expect(again).toBe(original);
    expect(await addressOn(newSandbox(), "TRX")).not.toBe(original);
  });
});
