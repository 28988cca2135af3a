// pins: addresses.identifiers, addresses.values, addresses.not-receivable, catalogue
// Deposit addresses: Create Deposit Address gives one address per account, currency, network and customer
// identifier (uniqueUserIdentifier, or its older name purpose), only for a receivable active network of the
// catalogue; the same identifier gives back the same address; values match the network's addressRegex; Get
// Deposit Addresses lists the caller's own, newest first; Get Active Networks and Get Withdrawal Currency Networks
// answer the catalogue the checks use. Every answer is checked against the contract.
import { describe, expect, it } from "vitest";
import { ADDRESS_FALLBACK, REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { successExample } from "../support/spec.js";
import { api, newSandbox } from "./support/sandbox.js";

const TRX_REGEX = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const EVM_REGEX = /^0x[a-fA-F0-9]{40}$/;

/** Create Deposit Address as `key`, its answer checked against the contract. */
async function create(sandbox: ReturnType<typeof newSandbox>, body: Record<string, unknown>, key = "key-a") {
  const answer = await api(sandbox, "POST", "/addresses/broker", body, { key });
  expect(answer.violations).toEqual([]);
  return answer;
}

describe("deposit addresses", () => {
  it("gives the same address back for the same identifier, under either name, and another for another", async () => {
    const sandbox = newSandbox();
    const first = await create(sandbox, { currency: "USDT", network: "TRX", uniqueUserIdentifier: "cust-1" });
    expect(first.status).toBe(200);
    const address = first.body.data;
    expect(address).toMatchObject({ network: "TRX", isMaster: false, memo: null, purpose: "cust-1 USDT.TRX" });
    expect(address.value).toMatch(TRX_REGEX);
    const again = await create(sandbox, { currency: "USDT", network: "TRX", uniqueUserIdentifier: "cust-1" });
    expect(again.body.data).toEqual(address);
    const older = await create(sandbox, { currency: "USDT", network: "TRX", purpose: "cust-1" });
    expect(older.body.data).toEqual(address);
    const other = await create(sandbox, { currency: "USDT", network: "TRX", uniqueUserIdentifier: "cust-2" });
    expect(other.body.data.value).not.toBe(address.value);
    const otherNetwork = await create(sandbox, { currency: "USDT", network: "ETH", uniqueUserIdentifier: "cust-1" });
    expect(otherNetwork.body.data.value).not.toBe(address.value);
  });

  it("gives the account's own address of a pair when no identifier is sent", async () => {
    const sandbox = newSandbox();
    const master = await create(sandbox, { currency: "USDT", network: "TRX" });
    expect(master.body.data.isMaster).toBe(true);
    expect((await create(sandbox, { currency: "USDT", network: "TRX" })).body.data).toEqual(master.body.data);
    const listed = (await api(sandbox, "GET", "/addresses/me/broker")).body.data;
    expect(listed[0].uniqueUserIdentifier).toBe(master.body.data.userId);
  });

  it("makes values that match the network's addressRegex, and 0x and hex where the catalogue gives none", async () => {
    const sandbox = newSandbox();
    const values = new Set<string>();
    for (let customer = 0; customer < 20; customer++) {
      const trx = await create(sandbox, { currency: "USDT", network: "TRX", uniqueUserIdentifier: `c-${customer}` });
      expect(trx.body.data.value).toMatch(TRX_REGEX);
      values.add(trx.body.data.value);
    }
    expect(values.size).toBe(20);
    // ETH has no withdrawal network (no addressRegex) in the contract's examples.
    const eth = await create(sandbox, { currency: "USDT", network: "ETH", uniqueUserIdentifier: "c-1" });
    expect(eth.body.data.value).toMatch(
      new RegExp(`^${ADDRESS_FALLBACK.prefix}[0-9a-f]{${ADDRESS_FALLBACK.hexDigits}}$`),
    );
  });

  it("refuses a pair that is not receivable or not an active network, and makes nothing", async () => {
    const sandbox = newSandbox();
    for (const body of [
      { currency: "USDT", network: "BSC", uniqueUserIdentifier: "c-1" }, // isReceivable false in the example
      { currency: "USDT", network: "SOL", uniqueUserIdentifier: "c-1" },
      { currency: "NGNX", network: "TRX", uniqueUserIdentifier: "c-1" },
    ]) {
      const answer = await create(sandbox, body);
      expect(answer.status).toBe(REFUSAL_STATUS.notReceivable);
      expect(answer.body.message).toMatch(/not receivable|not among/);
    }
    expect((await api(sandbox, "GET", "/addresses/me/broker")).body.data).toEqual([]);
  });

  it("refuses two different identifiers, and an identifier of other characters", async () => {
    const sandbox = newSandbox();
    const both = await create(sandbox, {
      currency: "USDT",
      network: "TRX",
      uniqueUserIdentifier: "cust-1",
      purpose: "cust-2",
    });
    expect(both.status).toBe(REFUSAL_STATUS.invalidAddressRequest);
    const spaced = await api(sandbox, "POST", "/addresses/broker", {
      currency: "USDT",
      network: "TRX",
      uniqueUserIdentifier: "cust 1",
    });
    expect(spaced.status).toBe(REFUSAL_STATUS.invalidAddressRequest);
    expect((await api(sandbox, "GET", "/addresses/me/broker")).body.data).toEqual([]);
  });

  it("lists the caller's own addresses, newest first, paged when asked", async () => {
    const sandbox = newSandbox();
    for (const id of ["a-1", "a-2", "a-3"]) {
      await create(sandbox, { currency: "USDT", network: "TRX", uniqueUserIdentifier: id });
      sandbox.clock.advance(1000);
    }
    await create(sandbox, { currency: "USDT", network: "TRX", uniqueUserIdentifier: "b-1" }, "key-b");
    const listed = await api(sandbox, "GET", "/addresses/me/broker");
    expect(listed.violations).toEqual([]);
    expect(listed.body.data.map((a: any) => a.uniqueUserIdentifier)).toEqual(["a-3", "a-2", "a-1"]);
    expect(listed.body.data.every((a: any) => a.deletedAt === null && a.network === "TRX")).toBe(true);
    const paged = await api(sandbox, "GET", "/addresses/me/broker?page=2&pageSize=2");
    expect(paged.body.data.map((a: any) => a.uniqueUserIdentifier)).toEqual(["a-1"]);
    const other = await api(sandbox, "GET", "/addresses/me/broker", undefined, { key: "key-b" });
    expect(other.body.data.map((a: any) => a.uniqueUserIdentifier)).toEqual(["b-1"]);
  });

  it("answers the catalogue's networks, and follows a configured one", async () => {
    const sandbox = newSandbox();
    const active = await api(sandbox, "GET", "/currencies/networks/active");
    expect(active.violations).toEqual([]);
    expect(active.body.data).toEqual(successExample("getActiveNetworks").data);
    const usdt = (successExample("getCurrencies").data as any[]).find((c) => c.code === "USDT");
    const networks = await api(sandbox, "GET", `/currencies/${usdt.id}/networks`);
    expect(networks.body.data).toEqual(successExample("getWithdrawalCurrencyNetworks").data);
    expect((await api(sandbox, "GET", "/currencies/no-such-id/networks")).status).toBe(REFUSAL_STATUS.notFound);

    const documented = successExample("getActiveNetworks").data as any;
    const receivable = structuredClone(documented);
    for (const network of receivable.USDT.networks) network.isReceivable = true;
    const configured = newSandbox({ catalogue: { networks: receivable } });
    const bsc = await create(configured, { currency: "USDT", network: "BSC", uniqueUserIdentifier: "c-1" });
    expect(bsc.status).toBe(200);
    expect(bsc.body.data.value).toMatch(EVM_REGEX);
  });

  it("refuses a catalogue whose networks name a currency it lacks, or break the contract", () => {
    const documented = successExample("getActiveNetworks").data as any;
    expect(() => newSandbox({ catalogue: { networks: { BTC: documented.USDT } } })).toThrow(RangeError);
    expect(() => newSandbox({ catalogue: { networks: { USDT: { networks: [] } } } })).toThrow(RangeError);
    expect(() => newSandbox({ catalogue: { withdrawalNetworks: { USDT: [{ code: "TRX" }] } } })).toThrow(RangeError);
  });

  it("keeps addresses through a snapshot and a restore", async () => {
    const sandbox = newSandbox();
    const made = await create(sandbox, { currency: "USDT", network: "TRX", uniqueUserIdentifier: "c-1" });
    const restored = newSandbox();
    restored.restore(JSON.parse(JSON.stringify(sandbox.snapshot())));
    const again = await create(restored, { currency: "USDT", network: "TRX", uniqueUserIdentifier: "c-1" });
    expect(again.body.data).toEqual(made.body.data);
    const broken = structuredClone(sandbox.snapshot()) as any;
    broken.accounts["key-a"].addresses[0].currency = "XYZ";
    expect(() => restored.restore(broken)).toThrow(RangeError);
  });
});
