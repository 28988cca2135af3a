// Which address and wallet a simulated deposit goes to: the very address it names among several; for a currency
// and network, the account's address of that pair even when one of another network or currency is newer; with no active
// network of the currency (a restored catalogue may list none), no minimum and no fee. The wallet it credits is
// the one checked against the largest balance the sandbox keeps, with the amount less the fee.
import { describe, expect, it } from "vitest";
import { successExample } from "../support/spec.js";
import { api, newSandbox, thrownBy } from "./support/sandbox.js";

const address = async (sandbox: ReturnType<typeof newSandbox>, body: Record<string, string>) =>
  (await api(sandbox, "POST", "/addresses/broker", body)).body.data.value as string;

describe("deposit destinations", () => {
  it("go to the address named, and to the address of the pair named, not to a newer one", async () => {
    const networks = structuredClone(successExample("getActiveNetworks").data as any);
    networks.NGNX = { currencyName: "NGNX", networks: [{ ...networks.USDT.networks[0], networkCode: "TRX" }] };
    const sandbox = newSandbox({ catalogue: { networks } });
    const first = await address(sandbox, { currency: "USDT", network: "TRX", uniqueUserIdentifier: "c-1" });
    const eth = await address(sandbox, { currency: "USDT", network: "ETH", uniqueUserIdentifier: "c-2" });
    await address(sandbox, { currency: "NGNX", network: "TRX", uniqueUserIdentifier: "c-3" }); // the newest
    const byAddress = sandbox.deposit({ apiKey: "key-a", address: eth, amount: 20 }) as any;
    const byPair = sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 20 }) as any;
    expect([byAddress.deposit.destinationAddress, byAddress.deposit.network]).toEqual([eth, "ETH"]);
    expect([byPair.deposit.destinationAddress, byPair.deposit.network]).toEqual([first, "TRX"]);
  });

  it("take no minimum and no fee where the catalogue lists no active network of the currency", async () => {
    const original = newSandbox({ accounts: { "key-a": { balances: { USDT: 0 } } } });
    const value = await address(original, { currency: "USDT", network: "TRX" });
    const saved = structuredClone(original.snapshot()) as any;
    delete saved.catalogue.networks.USDT;
    const sandbox = newSandbox();
    sandbox.restore(saved);
    // 0.5 is below TRX's minimumDeposit of 1, which no longer applies.
    const made = sandbox.deposit({ apiKey: "key-a", address: value, amount: 0.5 }) as any;
    expect([made.amount, made.deposit.fee]).toEqual([0.5, 0]);
  });

  it("check the credited wallet, with the amount less the fee, against 999 999 999.999999 USDT", () => {
    const networks = structuredClone(successExample("getActiveNetworks").data as any);
    networks.USDT.networks.find((n: any) => n.networkCode === "TRX").depositFee = 1.5;
    // NGNX first, so the USDT wallet is not the store's first.
    const currencies = [...(successExample("getCurrencies").data as any[])].reverse();
    expect(currencies.map((currency) => currency.code)).toEqual(["NGNX", "USDT"]);
    const sandbox = newSandbox({
      catalogue: { networks, currencies },
      accounts: { "key-a": { balances: { USDT: 999_999_900, NGNX: 0 } } },
    });
    const deposit = (amount: number) => () =>
      sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount });
    // 999 999 900 + 100 − 1.5 = 999 999 998.5: within.
    expect(thrownBy(deposit(100))).toBeUndefined();
    expect(sandbox.getAccount("key-a")?.balances.USDT).toBe(999_999_998.5);
    // + 3 − 1.5 = 1 000 000 000: beyond.
    expect(thrownBy(deposit(3))?.message).toBe(
      "the USDT wallet would hold more than 999999999.999999 USDT, the most the sandbox keeps exact " +
        "(counting what its pending withdrawals would return)",
    );
  });
});
