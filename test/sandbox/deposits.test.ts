// pins: lists.filters, webhooks.payloads
// Simulated deposits (POST /_sandbox/deposits, sandbox.deposit): to an address the account was given, or to its
// address of a receivable currency and network; the wallet credited, a CREDIT/DEPOSIT transaction with its
// CONFIRMED deposit in the history, in Get Transaction and in List Deposits (with its meta and filters), and one
// DEPOSIT webhook in the outbox. Every refusal leaves the state as it was.
import { describe, expect, it } from "vitest";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { successExample } from "../support/spec.js";
import { api, control, newSandbox, START, stateOf, thrownBy } from "./support/sandbox.js";

const usdt = (successExample("getCurrencies").data as any[]).find((currency) => currency.code === "USDT");
/** USDT's active TRX network in the contract's example: its minimumDeposit applies. */
const trx = (successExample("getActiveNetworks").data as any).USDT.networks.find((n: any) => n.networkCode === "TRX");
/** USDT's active ETH network: receivable, with a minimumDeposit above TRX's. */
const eth = (successExample("getActiveNetworks").data as any).USDT.networks.find((n: any) => n.networkCode === "ETH");

/** A sandbox where key-a holds 100 USDT and has an address for customer cust-1 on TRX. */
async function withAddress() {
  const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 100 } } } });
  const body = { currency: "USDT", network: "TRX", uniqueUserIdentifier: "cust-1" };
  const address = (await api(sandbox, "POST", "/addresses/broker", body)).body.data.value as string;
  return { sandbox, address };
}

const balanceOf = async (sandbox: ReturnType<typeof newSandbox>, code: string, key = "key-a") =>
  (await api(sandbox, "GET", `/wallets/${code}`, undefined, { key })).body.data.availableBalance;

/** The bodies of the webhooks of `key` in the outbox, parsed. */
const webhooksOf = async (sandbox: ReturnType<typeof newSandbox>, key = "key-a") =>
  (await sandbox.webhooks.list(key)).map((webhook) => JSON.parse(webhook.body));

describe("deposits", () => {
  it("credits the wallet; the deposit shows in the history, by id, in the deposits list and as a webhook", async () => {
    const { sandbox, address } = await withAddress();
    sandbox.clock.advance(5000);
    const made = await control(sandbox, "POST", "/_sandbox/deposits", {
      apiKey: "key-a",
      address,
      amount: 25.5,
      hash: "0xabc",
    });
    expect(made.status).toBe(201);
    const transaction = made.body;
    expect(transaction).toMatchObject({ type: "CREDIT", category: "DEPOSIT", amount: 25.5, narration: null });
    expect(transaction.deposit).toMatchObject({
      status: "CONFIRMED",
      hash: "0xabc",
      network: "TRX",
      fee: 0,
      dollarRate: 1,
      transactionId: transaction.id,
      destinationAddress: address,
    });
    expect(await balanceOf(sandbox, "USDT")).toBe(125.5);

    const byId = await api(sandbox, "GET", `/transactions/${transaction.id}`);
    expect(byId.violations).toEqual([]);
    expect(byId.body.data).toEqual(transaction);
    const history = await api(sandbox, "GET", "/transactions/me?category=DEPOSIT");
    expect(history.body.data.map((t: any) => t.id)).toEqual([transaction.id]);
    const listed = await api(sandbox, "GET", "/transactions/deposits/me");
    expect(listed.violations).toEqual([]);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].deposit).toEqual(transaction.deposit);
    expect(listed.body.meta).toMatchObject({ count: 1, total: 1, currentPage: 1 });

    expect(await webhooksOf(sandbox)).toEqual([
      {
        hash: "0xabc",
        type: "DEPOSIT",
        currency: "USDT",
        address,
        amount: 25.5,
        status: "CONFIRMED",
        reference: transaction.reference,
        transactionId: transaction.id,
        createdAt: new Date(START + 5000).toISOString(),
        lastUpdated: new Date(START + 5000).toISOString(),
      },
    ]);
  });

  it("goes to the account's latest address of a currency and network, or to its own address made then", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": {} } });
    const first = sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 2 });
    const addresses = (await api(sandbox, "GET", "/addresses/me/broker")).body.data;
    expect(addresses).toHaveLength(1);
    expect(addresses[0].isMaster).toBe(true);
    expect((first as any).deposit.destinationAddress).toBe(addresses[0].value);
    const body = { currency: "USDT", network: "TRX", uniqueUserIdentifier: "cust-9" };
    const made = (await api(sandbox, "POST", "/addresses/broker", body)).body.data.value;
    const second = sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 3 });
    expect((second as any).deposit.destinationAddress).toBe(made);
    expect((second as any).deposit.hash).toMatch(/^[0-9a-f]{64}$/);
    // Given an address, to that one: the master address made first, not the latest.
    const third = sandbox.deposit({ apiKey: "key-a", address: addresses[0].value, amount: 4 });
    expect((third as any).deposit.destinationAddress).toBe(addresses[0].value);
    expect((third as any).description).toBe("USDT deposit on TRX");
  });

  it("takes the minimum and the latest address of the deposit's own network, not another network's", async () => {
    expect(eth.isReceivable).toBe(true);
    expect(eth.minimumDeposit).toBeGreaterThan(trx.minimumDeposit);
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 0 } } } });
    const addressOn = async (network: string, customer: string) =>
      (await api(sandbox, "POST", "/addresses/broker", { currency: "USDT", network, uniqueUserIdentifier: customer }))
        .body.data.value as string;
    const ethAddress = await addressOn("ETH", "cust-1");
    const trxAddress = await addressOn("TRX", "cust-2"); // the latest address of USDT, on another network
    const deposit = (network: string, amount: number) =>
      sandbox.deposit({ apiKey: "key-a", currency: "USDT", network, amount }) as any;
    const betweenMinimums = (trx.minimumDeposit + eth.minimumDeposit) / 2;
    expect(() => deposit("ETH", betweenMinimums)).toThrow(
      new RegExp(`^the minimum deposit of USDT on ETH is ${eth.minimumDeposit}$`),
    );
    expect(deposit("ETH", eth.minimumDeposit).deposit.destinationAddress).toBe(ethAddress);
    expect(deposit("TRX", betweenMinimums).deposit.destinationAddress).toBe(trxAddress);
    expect(await balanceOf(sandbox, "USDT")).toBe(eth.minimumDeposit + betweenMinimums);
  });

  it("refuses what the catalogue does not allow, and an unknown key, changing nothing", async () => {
    const { sandbox, address } = await withAddress();
    await api(sandbox, "GET", "/wallets/me", undefined, { key: "key-b" });
    // The accounts and the id generator: a refused deposit makes no address and draws no id.
    const kept = () => JSON.stringify([stateOf(sandbox).accounts, stateOf(sandbox).ids]);
    const before = kept();
    const onTrx = `${address} is an address of USDT on TRX`;
    const refusals: Array<[Record<string, unknown>, number, string]> = [
      [
        { apiKey: "key-a", address, amount: trx.minimumDeposit / 2 },
        400,
        `the minimum deposit of USDT on TRX is ${trx.minimumDeposit}`,
      ],
      [
        { apiKey: "key-a", address, amount: trx.minimumDeposit + 10 ** -(usdt.maximumDecimalPlaces + 1) },
        400,
        `amount has more than ${usdt.maximumDecimalPlaces} decimals, the most USDT takes`,
      ],
      [{ apiKey: "key-b", address, amount: 5 }, 400, `the account of key-b was given no deposit address ${address}`],
      [
        { apiKey: "key-b", currency: "USDT", network: "TRX", amount: trx.minimumDeposit / 2 },
        400,
        `the minimum deposit of USDT on TRX is ${trx.minimumDeposit}`,
      ],
      [{ apiKey: "key-a", address, network: "ETH", amount: 5 }, 400, onTrx],
      [{ apiKey: "key-a", address, currency: "NGNX", amount: 5 }, 400, onTrx],
      [
        { apiKey: "key-a", currency: "USDT", network: "BSC", amount: 5 },
        400,
        "USDT on BSC is not receivable (isReceivable is false)",
      ],
      [
        { apiKey: "key-a", currency: "USDT", network: "SOL", amount: 5 },
        400,
        "USDT on SOL is not among the sandbox's active networks",
      ],
      [
        { apiKey: "key-a", address, amount: usdt.maximumDeposit + 1 },
        400,
        `the maximum deposit of USDT is ${usdt.maximumDeposit}`,
      ],
      [
        { apiKey: "key-z", currency: "USDT", network: "TRX", amount: 5 },
        404,
        "no sandbox account for the API key key-z",
      ],
      // Neither an address nor a currency and network: the control document's schema refuses it first.
      [{ apiKey: "key-a", amount: 5 }, 400, "/address is required but missing"],
    ];
    for (const [body, status, message] of refusals) {
      const answer = await control(sandbox, "POST", "/_sandbox/deposits", body);
      expect({ body, status: answer.status, message: answer.body.message }).toEqual({ body, status, message });
    }
    // In-process, where no schema comes first.
    const inProcess: Array<[Record<string, unknown>, string]> = [
      [{ apiKey: "key-a", currency: "USDT", amount: 5 }, "a deposit needs address, or currency and network"],
      [{ apiKey: "key-a", network: "TRX", amount: 5 }, "a deposit needs address, or currency and network"],
      ...[0, -1, "5", Number.NaN, Number.POSITIVE_INFINITY].map((amount): [Record<string, unknown>, string] => [
        { apiKey: "key-a", address, amount },
        "amount must be a number above 0",
      ]),
    ];
    for (const [request, message] of inProcess) {
      const refusal = thrownBy(() => sandbox.deposit(request as never));
      expect(refusal, JSON.stringify(request)).toBeInstanceOf(RangeError);
      expect(refusal?.message).toBe(message);
    }
    expect(kept()).toBe(before);
    expect(() => sandbox.deposit({ apiKey: "key-a", address, amount: 0.5 })).toThrow(RangeError);
    expect(await webhooksOf(sandbox)).toEqual([]);
  });

  it("takes a deposit as large as the currency's maximumDeposit, and one that exactly pays the fee", async () => {
    const networks = structuredClone(successExample("getActiveNetworks").data as any);
    networks.USDT.networks.find((n: any) => n.networkCode === "TRX").depositFee = 5;
    const sandbox = newSandbox({ catalogue: { networks }, accounts: { "key-a": { balances: { USDT: 0 } } } });
    const deposit = (amount: number) => sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount });
    expect(() => deposit(4)).toThrow(/^the deposit fee of USDT on TRX is above the amount$/);
    expect((deposit(5) as any).amount).toBe(5);
    expect((deposit(usdt.maximumDeposit) as any).amount).toBe(usdt.maximumDeposit);
    expect(await balanceOf(sandbox, "USDT")).toBe(usdt.maximumDeposit - 5);
  });

  it("credits the amount less the network's deposit fee, which goes nowhere in the account", async () => {
    const networks = structuredClone(successExample("getActiveNetworks").data as any);
    networks.USDT.networks.find((n: any) => n.networkCode === "TRX").depositFee = 1.5;
    const sandbox = newSandbox({ catalogue: { networks }, accounts: { "key-a": { balances: { USDT: 0 } } } });
    const made = sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 10 }) as any;
    expect(made.amount).toBe(10);
    expect(made.deposit.fee).toBe(1.5);
    expect(await balanceOf(sandbox, "USDT")).toBe(8.5);
    // The restore check counts the fee: the balance is its starting balance plus its history.
    const restored = newSandbox({ catalogue: { networks } });
    expect(() => restored.restore(sandbox.snapshot())).not.toThrow();
    const tampered = structuredClone(sandbox.snapshot()) as any;
    tampered.accounts["key-a"].transactions[0].deposit.feeMinor = 0;
    expect(() => restored.restore(tampered)).toThrow(/balance/);
  });

  it("applies the network's minimum and fee, not the currency's minimumDeposit, daily limit, receiveFee", async () => {
    const currencies = (successExample("getCurrencies").data as any[]).map((currency) =>
      currency.code === "USDT"
        ? { ...currency, minimumDeposit: 50, maximumDailyDepositLimit: 10, receiveFee: 5, receiveFeeType: "FLAT" }
        : currency,
    );
    const sandbox = newSandbox({ catalogue: { currencies }, accounts: { "key-a": { balances: { USDT: 0 } } } });
    for (const amount of [8, 8]) sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount });
    expect(await balanceOf(sandbox, "USDT")).toBe(16);
  });

  it("pages and filters the deposits list by currency, status and dates", async () => {
    const { sandbox, address } = await withAddress();
    for (const amount of [1, 2, 3]) {
      sandbox.deposit({ apiKey: "key-a", address, amount });
      sandbox.clock.advance(86_400_000);
    }
    const list = async (query: string) => {
      const answer = await api(sandbox, "GET", `/transactions/deposits/me${query}`);
      expect(answer.violations).toEqual([]);
      return answer;
    };
    const page = await list("?page=1&pageSize=2");
    expect(page.body.data.map((t: any) => t.amount)).toEqual([3, 2]);
    expect(page.body.meta).toMatchObject({ perPage: 2, currentPage: 1, totalPages: 2, count: 2, total: 3 });
    expect((await list(`?currencyId=${usdt.id}`)).body.data).toHaveLength(3);
    expect((await list("?currencyId=other")).body.data).toEqual([]);
    expect((await list("?status=CONFIRMED")).body.data).toHaveLength(3);
    expect((await list("?status=PENDING")).body.meta.total).toBe(0);
    const day = (offset: number) => new Date(START + offset * 86_400_000).toISOString().slice(0, 10);
    expect((await list(`?startDate=${day(1)}`)).body.data.map((t: any) => t.amount)).toEqual([3, 2]);
    expect((await list(`?endDate=${day(1)}`)).body.data.map((t: any) => t.amount)).toEqual([2, 1]);
    const instant = new Date(START + 86_400_000).toISOString();
    expect((await list(`?startDate=${instant}&endDate=${instant}`)).body.data.map((t: any) => t.amount)).toEqual([2]);
    expect((await list("?startDate=yesterday")).status).toBe(REFUSAL_STATUS.invalidPage);
    // Forms Date.parse would take: no offset (local time), a year alone, slashes.
    for (const loose of ["2026-11-26T10:00:00", "1", "2026/11/26"])
      expect([loose, (await list(`?startDate=${loose}`)).status]).toEqual([loose, REFUSAL_STATUS.invalidPage]);
    // Another key sees none of them.
    expect((await api(sandbox, "GET", "/transactions/deposits/me", undefined, { key: "key-b" })).body.data).toEqual([]);
  });
});
