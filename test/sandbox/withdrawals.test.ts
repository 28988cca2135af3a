// pins: withdrawals.checks, withdrawals.fees, withdrawals.states, withdrawals.settlement, withdrawals.payouts
// pins: withdrawals.records, webhooks.payloads, lists.filters
// Crypto and bank withdrawals: checked against the catalogue (addressRegex, memoRegex, minimums, maximums, fees) and
// the balance (amount and fee), recorded in their published first state (PENDING, APPROVED), then settled
// SUCCESSFUL or FAILED (amount and fee returned) when the sandbox clock reaches their moment or when a test settles
// them; each state change a WITHDRAWAL webhook, in order. Every refusal leaves the state as it was.
import { describe, expect, it } from "vitest";
import { REFUSAL_STATUS, WITHDRAWAL_SETTLEMENT } from "../../src/sandbox/rules.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { successExample } from "../support/spec.js";
import { api, control, newSandbox, START, stateOf, storesBeyondLimits, thrownBy } from "./support/sandbox.js";

type TestSandbox = ReturnType<typeof newSandbox>;

const TRX_ADDRESS = `T${"9".repeat(33)}`;
const BSC_ADDRESS = "0x1FFE2134c82D07227715af2A12D1406165A305BF";
/** The contract's example currencies and USDT's TRX withdrawal network, whose bounds and fees the checks apply. */
const currencyExamples = successExample("getCurrencies").data as Array<Record<string, any>>;
const USDT = currencyExamples.find((currency) => currency.code === "USDT")!;
const NGNX = currencyExamples.find((currency) => currency.code === "NGNX")!;
const TRX = (successExample("getWithdrawalCurrencyNetworks").data as Array<Record<string, any>>).find(
  (network) => network.code === "TRX",
)!;
/** NGNX's bank withdrawal fee of `amount`: a percentage in the example, to NGNX's decimals, before its cap. */
const ngnxFee = (amount: number) => Number(((amount * NGNX.withdrawalFee) / 100).toFixed(NGNX.maximumDecimalPlaces));
/** The least USDT a withdrawal on TRX takes: the larger of the two minimums. */
const TRX_MINIMUM = Math.max(TRX.minimum, USDT.minimumWithdrawal);
const crypto = (amount: number, destination: Record<string, string> = { address: TRX_ADDRESS, network: "TRX" }) => ({
  amount,
  currency: "USDT",
  destination,
  narration: "payout 1",
});
const BANK = { accountNumber: "0123456789", accountName: "Jane Doe", bankName: "OPAY", bankCode: "999992" };
const bank = (amount: number, currency = "NGNX") => ({ amount, currency, destination: BANK, narration: "rent" });

/** A sandbox where key-a holds 1000 USDT and 100 000 NGNX, withdrawals settling by the registered default. */
const funded = (options: Parameters<typeof newSandbox>[0] = {}) =>
  newSandbox({ accounts: { "key-a": { balances: { USDT: 1000, NGNX: 100_000 } } }, ...options });

const balanceOf = async (sandbox: TestSandbox, code: string) =>
  (await api(sandbox, "GET", `/wallets/${code}`)).body.data.availableBalance;

/** The WITHDRAWAL webhooks of key-a, parsed, as the outbox holds them. */
const withdrawalWebhooks = async (sandbox: TestSandbox) =>
  (await sandbox.webhooks.list("key-a"))
    .map((webhook) => JSON.parse(webhook.body))
    .filter((b) => b.type === "WITHDRAWAL");

async function withdraw(sandbox: TestSandbox, path: "crypto" | "fiat", body: unknown) {
  const answer = await api(sandbox, "POST", `/wallets/ext/debit/${path}`, body);
  expect(answer.violations).toEqual([]);
  return answer;
}

describe("crypto withdrawals", () => {
  it("debits the amount and the network's fee, answers the transaction with its wallet, PENDING", async () => {
    const sandbox = funded();
    const answer = await withdraw(sandbox, "crypto", crypto(10));
    expect(answer.status).toBe(200);
    const transaction = answer.body.data;
    expect(transaction).toMatchObject({
      type: "DEBIT",
      category: "WITHDRAWAL",
      amount: 10,
      description: "External payout",
      narration: "payout 1",
    });
    // TRX's fee is 1 USDT (FLAT) in the contract's example.
    expect(transaction.wallet.availableBalance).toBe(989);
    expect(await balanceOf(sandbox, "USDT")).toBe(989);
    const history = await api(sandbox, "GET", "/transactions/me?category=WITHDRAWAL");
    expect(history.body.data.map((t: any) => t.id)).toEqual([transaction.id]);
    expect(await withdrawalWebhooks(sandbox)).toEqual([
      {
        type: "WITHDRAWAL",
        currency: "USDT",
        amount: 10,
        status: "PENDING",
        reference: transaction.reference,
        transactionId: transaction.id,
        createdAt: new Date(START).toISOString(),
        lastUpdated: new Date(START).toISOString(),
        hash: null,
        network: "TRX",
        address: TRX_ADDRESS,
      },
    ]);
  });

  it("refuses each destination, amount and balance the catalogue does not allow, changing nothing", async () => {
    const held = TRX_MINIMUM + TRX.fee; // exactly the smallest withdrawal and its fee
    const sandbox = funded({ accounts: { "key-a": { balances: { USDT: held, NGNX: 100_000 } } } });
    const before = JSON.stringify(storesBeyondLimits(sandbox));
    const { invalidWithdrawal: INVALID, notWithdrawable: NOT_WITHDRAWABLE, balanceTooLow: TOO_LOW } = REFUSAL_STATUS;
    const trxForm = `(addressRegex ${TRX.addressRegex})`;
    const tooPrecise = TRX_MINIMUM + 10 ** -(USDT.maximumDecimalPlaces + 1);
    const short = TRX_MINIMUM + 0.5; // with the fee, over what the wallet holds
    const refusals: Array<[unknown, number, string]> = [
      // An address not of TRX's form.
      [crypto(10, { address: BSC_ADDRESS, network: "TRX" }), INVALID, `${BSC_ADDRESS} is no TRX address ${trxForm}`],
      [crypto(10, { address: "T123", network: "TRX" }), INVALID, `T123 is no TRX address ${trxForm}`],
      // No such withdrawal network; one active, but no withdrawal network; NGNX has no withdrawal networks.
      [
        crypto(10, { address: TRX_ADDRESS, network: "SOL" }),
        NOT_WITHDRAWABLE,
        "USDT cannot be withdrawn on SOL in the sandbox",
      ],
      [
        crypto(10, { address: TRX_ADDRESS, network: "ETH" }),
        NOT_WITHDRAWABLE,
        "USDT cannot be withdrawn on ETH in the sandbox",
      ],
      [{ ...crypto(10), currency: "NGNX" }, NOT_WITHDRAWABLE, "NGNX cannot be withdrawn on TRX in the sandbox"],
      [{ ...crypto(10), currency: "BTC" }, NOT_WITHDRAWABLE, "BTC is no currency code of the sandbox's catalogue"],
      [crypto(TRX_MINIMUM - 0.01), INVALID, `the minimum withdrawal of USDT here is ${TRX_MINIMUM}`],
      [crypto(tooPrecise), INVALID, `amount has more than ${USDT.maximumDecimalPlaces} decimals, the most USDT takes`],
      [crypto(0), INVALID, "amount must be above 0"],
      [
        crypto(short),
        TOO_LOW,
        `balance too low: the USDT wallet holds ${held}, the withdrawal needs ${short} and a fee of ${TRX.fee}`,
      ],
      [crypto(USDT.maximumWithdrawal + 1), INVALID, `the maximum withdrawal of USDT is ${USDT.maximumWithdrawal}`],
    ];
    for (const [body, status, message] of refusals) {
      const answer = await withdraw(sandbox, "crypto", body);
      expect({ body, status: answer.status, message: answer.body.message }).toEqual({ body, status, message });
    }
    expect(JSON.stringify(storesBeyondLimits(sandbox))).toBe(before);
    expect(await withdrawalWebhooks(sandbox)).toEqual([]);
    // Exactly the amount and the fee is enough.
    expect((await withdraw(sandbox, "crypto", crypto(TRX_MINIMUM))).status).toBe(200);
    expect(await balanceOf(sandbox, "USDT")).toBe(0);
  });

  it("refuses a network whose active entry is not withdrawable", async () => {
    const networks = structuredClone(successExample("getActiveNetworks").data as any);
    networks.USDT.networks.find((n: any) => n.networkCode === "BSC").isWithdrawable = false;
    const sandbox = funded({ catalogue: { networks } });
    const answer = await withdraw(sandbox, "crypto", crypto(10, { address: BSC_ADDRESS, network: "BSC" }));
    expect(answer.status).toBe(REFUSAL_STATUS.notWithdrawable);
    expect((await withdraw(funded(), "crypto", crypto(10, { address: BSC_ADDRESS, network: "BSC" }))).status).toBe(200);
  });
  it("refuses a memo its network's memoRegex does not match, and keeps one that matches", async () => {
    const networks = structuredClone(successExample("getWithdrawalCurrencyNetworks").data as any[]);
    networks.find((network) => network.code === "TRX").memoRegex = "^[0-9]{1,10}$";
    const sandbox = funded({ catalogue: { withdrawalNetworks: { USDT: networks } } });
    const withMemo = (memo: string) => crypto(10, { address: TRX_ADDRESS, network: "TRX", memo });
    const refused = await withdraw(sandbox, "crypto", withMemo("abc"));
    expect([refused.status, refused.body.message]).toEqual([
      REFUSAL_STATUS.invalidWithdrawal,
      "the memo does not match TRX's memoRegex ^[0-9]{1,10}$",
    ]);
    for (const memo of ["", "123"]) expect((await withdraw(sandbox, "crypto", withMemo(memo))).status).toBe(200);
    const destinations = stateOf(sandbox).accounts["key-a"]!.transactions.map((t) => t.withdrawal?.destination);
    expect(destinations.map((destination) => destination && "memo" in destination && destination.memo)).toEqual([
      "",
      "123",
    ]);
    expect((await withdraw(sandbox, "crypto", crypto(10))).status).toBe(200);
    expect(stateOf(sandbox).accounts["key-a"]!.transactions.at(-1)!.withdrawal!.destination).not.toHaveProperty("memo");
  });

  it("takes the currency by code, up to its maximum, from the higher of its and the network's minimum", async () => {
    const rich = funded({ accounts: { "key-a": { balances: { USDT: USDT.maximumWithdrawal + 1 } } } });
    const byId = await withdraw(rich, "crypto", { ...crypto(10), currency: USDT.id });
    expect([byId.status, byId.body.message]).toEqual([
      REFUSAL_STATUS.notWithdrawable,
      `${USDT.id} is no currency code of the sandbox's catalogue`,
    ]);
    expect((await withdraw(rich, "crypto", crypto(USDT.maximumWithdrawal))).status).toBe(200);
    const networks = structuredClone(successExample("getWithdrawalCurrencyNetworks").data as any[]);
    networks.find((network) => network.code === "TRX").minimum = USDT.minimumWithdrawal / 2;
    const lowerNetwork = funded({ catalogue: { withdrawalNetworks: { USDT: networks } } });
    const below = await withdraw(lowerNetwork, "crypto", crypto(USDT.minimumWithdrawal - 1));
    expect(below.body.message).toBe(`the minimum withdrawal of USDT here is ${USDT.minimumWithdrawal}`);
  });

  it("refuses a currency the catalogue marks not withdrawable", async () => {
    const currencies = currencyExamples.map((currency) =>
      currency.code === "USDT" ? { ...currency, withdrawable: false } : currency,
    );
    const answer = await withdraw(funded({ catalogue: { currencies } }), "crypto", crypto(10));
    expect([answer.status, answer.body.message]).toEqual([REFUSAL_STATUS.notWithdrawable, "USDT is not withdrawable"]);
  });
});

describe("bank withdrawals", () => {
  it("values the payout in dollars at NGNX's dollar rate and in bitcoin at BTC's, keeps a merchantCode", async () => {
    const sandbox = funded();
    const { dollar } = sandbox.setRates({ dollar: { BTC: 50_000 } });
    const answer = await withdraw(sandbox, "fiat", { ...bank(15_000), destination: { ...BANK, merchantCode: "M1" } });
    const dollarValue = Math.round(15_000 * dollar.NGNX! * 100) / 100;
    expect(dollarValue).toBeGreaterThan(0);
    expect(answer.body.data.payout).toMatchObject({
      dollarValue,
      bitcoinValue: Number((dollarValue / 50_000).toFixed(8)),
    });
    const { destination } = stateOf(sandbox).accounts["key-a"]!.transactions.at(-1)!.withdrawal!;
    expect(destination).toMatchObject({ kind: "bank", merchantCode: "M1" });
  });

  it("debits the amount and the currency's fee, answers the transaction with its payout, APPROVED", async () => {
    const sandbox = funded();
    const answer = await withdraw(sandbox, "fiat", bank(15_000));
    expect(answer.status).toBe(200);
    const { payout, ...transaction } = answer.body.data;
    expect(transaction).toMatchObject({ type: "DEBIT", category: "WITHDRAWAL", amount: 15_000, narration: "rent" });
    expect(NGNX.withdrawalFeeType).toBe("PERCENTAGE");
    expect(payout).toMatchObject({
      status: "APPROVED",
      fee: ngnxFee(15_000),
      payoutAmount: 15_000,
      payoutCurrency: "NGNX",
      transactionId: transaction.id,
    });
    expect(payout.bankAccount).toMatchObject({ accountNumber: BANK.accountNumber, payoutId: payout.id });
    expect(await balanceOf(sandbox, "NGNX")).toBe(100_000 - 15_000 - ngnxFee(15_000));
    // No merchantCode given, none kept: not even as a key without a value in the state a snapshot copies.
    const { destination } = stateOf(sandbox).accounts["key-a"]!.transactions.at(-1)!.withdrawal!;
    expect(Object.keys(destination)).not.toContain("merchantCode");
    const listed = await api(sandbox, "GET", "/transactions/withdrawals/me");
    expect(listed.violations).toEqual([]);
    expect(listed.body.data[0].payout).toMatchObject({ status: "APPROVED", id: payout.id });
    expect(listed.body.data[0].payout.bankAccount.accountNumber).toBe("******6789");
    expect(listed.body.meta).toMatchObject({ total: 1, count: 1 });
    const [webhook] = await withdrawalWebhooks(sandbox);
    expect(webhook).toMatchObject({ status: "APPROVED", address: BANK.accountNumber, hash: null, amount: 15_000 });
    expect(webhook).not.toHaveProperty("network");
  });

  it("caps a percentage fee at the currency's maximumWithdrawalFee", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { NGNX: 2_000_000 } } } });
    const answer = await withdraw(sandbox, "fiat", bank(1_000_000));
    expect(ngnxFee(1_000_000)).toBeGreaterThan(NGNX.maximumWithdrawalFee);
    expect(answer.body.data.payout.fee).toBe(NGNX.maximumWithdrawalFee);
    expect(await balanceOf(sandbox, "NGNX")).toBe(2_000_000 - 1_000_000 - NGNX.maximumWithdrawalFee);
  });

  it("takes a currency's left-out withdrawal fields as no bound, no fee, FLAT and withdrawable", async () => {
    /** The catalogue's currencies with `omitted` left out of NGNX (whose example fee is 0.5 PERCENTAGE). */
    const withoutFields = (...omitted: string[]) =>
      currencyExamples.map((currency) =>
        currency.code === "NGNX"
          ? Object.fromEntries(Object.entries(currency).filter(([field]) => !omitted.includes(field)))
          : currency,
      );
    const bare = withoutFields("withdrawable", "minimumWithdrawal", "maximumWithdrawal", "withdrawalFee");
    const sandbox = funded({ catalogue: { currencies: bare } });
    for (const amount of [0.01, 99_000]) {
      const answer = await withdraw(sandbox, "fiat", bank(amount));
      expect(answer.status, String(amount)).toBe(200);
      expect(answer.body.data.payout.fee).toBe(0);
    }
    expect(await balanceOf(sandbox, "NGNX")).toBe(999.99);
    const flat = funded({ catalogue: { currencies: withoutFields("withdrawalFeeType") } });
    expect(NGNX.withdrawalFeeType).toBe("PERCENTAGE"); // so FLAT is not what the example says
    expect((await withdraw(flat, "fiat", bank(15_000))).body.data.payout.fee).toBe(NGNX.withdrawalFee);
  });

  it("refuses a currency that is not FIAT, an amount out of bounds, a balance too low, changing nothing", async () => {
    const sandbox = funded();
    const before = JSON.stringify(storesBeyondLimits(sandbox));
    const { invalidWithdrawal: INVALID, notWithdrawable: NOT_WITHDRAWABLE, balanceTooLow: TOO_LOW } = REFUSAL_STATUS;
    const refusals: Array<[unknown, number, string]> = [
      [bank(100, "USDT"), NOT_WITHDRAWABLE, "a bank withdrawal pays out a FIAT currency, not USDT"],
      [
        bank(NGNX.minimumWithdrawal - 0.01),
        INVALID,
        `the minimum withdrawal of NGNX here is ${NGNX.minimumWithdrawal}`,
      ],
      [
        bank(NGNX.minimumWithdrawal + 10 ** -(NGNX.maximumDecimalPlaces + 1)),
        INVALID,
        `amount has more than ${NGNX.maximumDecimalPlaces} decimals, the most NGNX takes`,
      ],
      // 99 999 and its fee (a percentage in the example, to NGNX's decimals) are more than the 100 000 held.
      [
        bank(99_999),
        TOO_LOW,
        `balance too low: the NGNX wallet holds 100000, the withdrawal needs 99999 and a fee of ${ngnxFee(99_999)}`,
      ],
      [{ ...bank(1000), currency: "GHS" }, NOT_WITHDRAWABLE, "GHS is no currency code of the sandbox's catalogue"],
    ];
    for (const [body, status, message] of refusals) {
      const answer = await withdraw(sandbox, "fiat", body);
      expect({ body, status: answer.status, message: answer.body.message }).toEqual({ body, status, message });
    }
    expect(JSON.stringify(storesBeyondLimits(sandbox))).toBe(before);
  });
});

describe("settling withdrawals", () => {
  it("settles SUCCESSFUL when a test says so: the funds stay out, a hash, the webhooks in order", async () => {
    const sandbox = funded();
    const { id } = (await withdraw(sandbox, "crypto", crypto(10))).body.data;
    sandbox.clock.advance(1000);
    const settled = await control(sandbox, "POST", `/_sandbox/withdrawals/${id}/settle`, { status: "SUCCESSFUL" });
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ id, updatedAt: new Date(START + 1000).toISOString() });
    expect(await balanceOf(sandbox, "USDT")).toBe(989);
    const webhooks = await withdrawalWebhooks(sandbox);
    expect(webhooks.map((w) => w.status)).toEqual(["PENDING", "SUCCESSFUL"]);
    expect(webhooks[1].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(webhooks[1].lastUpdated).toBe(new Date(START + 1000).toISOString());
    const again = await control(sandbox, "POST", `/_sandbox/withdrawals/${id}/settle`, { status: "FAILED" });
    expect(again.status).toBe(409);
    expect(await balanceOf(sandbox, "USDT")).toBe(989);
    // Nothing is settled again by the clock: the settlement it was waiting for is gone.
    expect(stateOf(sandbox).accounts["key-a"]!.settlements).toEqual([]);
    sandbox.clock.advance(WITHDRAWAL_SETTLEMENT.settleAfterMs);
    expect((await withdrawalWebhooks(sandbox)).map((w) => w.status)).toEqual(["PENDING", "SUCCESSFUL"]);
  });

  it("writes a hash only for a crypto withdrawal that succeeds", async () => {
    const sandbox = funded();
    const failedCrypto = (await withdraw(sandbox, "crypto", crypto(10))).body.data.id;
    const bankPayout = (await withdraw(sandbox, "fiat", bank(15_000))).body.data.id;
    sandbox.settleWithdrawal(failedCrypto, "FAILED");
    sandbox.settleWithdrawal(bankPayout, "SUCCESSFUL");
    const settled = (await withdrawalWebhooks(sandbox)).filter(
      (w) => w.status !== "PENDING" && w.status !== "APPROVED",
    );
    expect(settled.map((w) => [w.status, w.hash])).toEqual([
      ["FAILED", null],
      ["SUCCESSFUL", null],
    ]);
  });

  it("settles FAILED: amount and fee come back by a refund, the payout and the webhooks say FAILED", async () => {
    const sandbox = funded();
    const { id, reference } = (await withdraw(sandbox, "fiat", bank(15_000))).body.data;
    const failed = sandbox.settleWithdrawal(id, "FAILED") as any;
    expect(failed.payout.status).toBe("FAILED");
    expect(await balanceOf(sandbox, "NGNX")).toBe(100_000);
    const history = (await api(sandbox, "GET", "/transactions/me?category=WITHDRAWAL")).body.data;
    expect(history.map((t: any) => [t.type, t.amount, t.reference])).toEqual([
      ["CREDIT", 15_000 + ngnxFee(15_000), reference],
      ["DEBIT", 15_000, reference],
    ]);
    expect(history[0].description).toBe(`Refund of ${history[1].description.toLowerCase()}`);
    expect(history[0].description).not.toBe(`Refund of ${history[1].description}`);
    const payouts = (await api(sandbox, "GET", "/transactions/withdrawals/me?status=FAILED")).body.data;
    expect(payouts.map((t: any) => t.id)).toEqual([id]);
    expect((await api(sandbox, "GET", "/transactions/withdrawals/me?status=APPROVED")).body.data).toEqual([]);
    expect((await withdrawalWebhooks(sandbox)).map((w) => [w.status, w.hash])).toEqual([
      ["APPROVED", null],
      ["FAILED", null],
    ]);
  });

  it("refuses to settle what is no withdrawal in progress", async () => {
    const sandbox = funded();
    const deposit = sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 5 }) as any;
    const settle = (id: string, status: string) =>
      control(sandbox, "POST", `/_sandbox/withdrawals/${id}/settle`, { status });
    for (const id of ["no-such-id", deposit.id]) {
      const answer = await settle(id, "SUCCESSFUL");
      expect([answer.status, answer.body.message]).toEqual([404, `no withdrawal ${id} in the sandbox`]);
    }
    const { id } = (await withdraw(sandbox, "crypto", crypto(10))).body.data;
    expect((await settle(id, "REJECTED")).status).toBe(400);
    const notFinal = thrownBy(() => sandbox.settleWithdrawal(id, "PENDING" as never));
    expect(notFinal).toBeInstanceOf(RangeError);
    expect(notFinal?.message).toBe("status must be one of SUCCESSFUL, FAILED");
    expect((await settle(id, "FAILED")).status).toBe(200);
    const again = await settle(id, "SUCCESSFUL");
    expect([again.status, again.body.message]).toEqual([409, `withdrawal ${id} is already FAILED`]);
    expect(() => sandbox.settleWithdrawal("no-such-id", "FAILED")).toThrow(RangeError);
  });

  it("settles on the sandbox clock after the registered delay, with the registered outcome", async () => {
    const sandbox = funded();
    const { id } = (await withdraw(sandbox, "crypto", crypto(10))).body.data;
    sandbox.clock.advance(WITHDRAWAL_SETTLEMENT.settleAfterMs - 1);
    expect((await withdrawalWebhooks(sandbox)).map((w) => w.status)).toEqual(["PENDING"]);
    sandbox.clock.advance(10_000);
    const webhooks = await withdrawalWebhooks(sandbox);
    expect(webhooks.map((w) => w.status)).toEqual(["PENDING", WITHDRAWAL_SETTLEMENT.outcome]);
    expect(webhooks[1].lastUpdated).toBe(new Date(START + WITHDRAWAL_SETTLEMENT.settleAfterMs).toISOString());
    const byId = await api(sandbox, "GET", `/transactions/${id}`);
    expect(byId.body.data.updatedAt).toBe(new Date(START + WITHDRAWAL_SETTLEMENT.settleAfterMs).toISOString());
    expect(await balanceOf(sandbox, "USDT")).toBe(989);
  });

  it("takes another delay and outcome, or none (only a test settles), and over HTTP's clock route", async () => {
    const failing = funded({ withdrawals: { settleAfterMs: 5000, outcome: "FAILED" } });
    await withdraw(failing, "fiat", bank(15_000));
    await control(failing, "POST", "/_sandbox/clock/advance", { ms: 5000 });
    expect(await balanceOf(failing, "NGNX")).toBe(100_000);
    expect((await withdrawalWebhooks(failing)).map((w) => w.status)).toEqual(["APPROVED", "FAILED"]);

    const manual = funded({ withdrawals: { settleAfterMs: null } });
    const { id } = (await withdraw(manual, "crypto", crypto(10))).body.data;
    manual.clock.advance(365 * 86_400_000);
    expect((await withdrawalWebhooks(manual)).map((w) => w.status)).toEqual(["PENDING"]);
    manual.settleWithdrawal(id, "SUCCESSFUL");
    expect((await withdrawalWebhooks(manual)).map((w) => w.status)).toEqual(["PENDING", "SUCCESSFUL"]);

    expect(() => funded({ withdrawals: { settleAfterMs: -1 } })).toThrow(RangeError);
    expect(() => funded({ withdrawals: { outcome: "REJECTED" as "FAILED" } })).toThrow(RangeError);
  });

  it("with real time, settles at its moment without a request, its webhook sent by itself", async () => {
    let settled: (body: any) => void = () => undefined;
    const arrived = new Promise<any>((resolve) => {
      settled = resolve;
    });
    const onWebhook = (delivery: { body: string }) => {
      const body = JSON.parse(delivery.body);
      if (body.status !== "PENDING") settled(body);
    };
    const sandbox = createSandbox({
      accounts: { "key-a": { balances: { USDT: 100 }, webhookSecret: "whsec" } },
      withdrawals: { settleAfterMs: 1 },
      webhooks: { onWebhook },
    });
    const answer = await withdraw(sandbox as TestSandbox, "crypto", crypto(10));
    // No request, no advance: the sandbox's own timer settles it.
    const body = await arrived;
    expect(body).toMatchObject({ transactionId: answer.body.data.id, status: WITHDRAWAL_SETTLEMENT.outcome });
  });

  it("settles a sooner withdrawal first, whatever the order it was queued in (a restored queue)", async () => {
    const slow = funded({ withdrawals: { settleAfterMs: 10 * 60_000 } });
    const later = (await withdraw(slow, "crypto", crypto(10))).body.data.id;
    const quick = funded({ withdrawals: { settleAfterMs: 60_000 } });
    quick.restore(slow.snapshot());
    const sooner = (await withdraw(quick, "crypto", crypto(10))).body.data.id;
    const statuses = () => {
      const { transactions } = stateOf(quick).accounts["key-a"]!;
      return [sooner, later].map((id) => transactions.find((t) => t.id === id)!.withdrawal!.status);
    };
    quick.clock.advance(60_000);
    expect(statuses()).toEqual(["SUCCESSFUL", "PENDING"]);
    expect(stateOf(quick).accounts["key-a"]!.settlements.map((entry) => entry.transactionId)).toEqual([later]);
    quick.clock.advance(9 * 60_000);
    expect(statuses()).toEqual(["SUCCESSFUL", "SUCCESSFUL"]);
    expect(stateOf(quick).accounts["key-a"]!.settlements).toEqual([]);
  });

  it("drops a settlement whose account was deleted or put again", async () => {
    for (const change of ["delete", "put"] as const) {
      const sandbox = funded();
      await withdraw(sandbox, "crypto", crypto(10));
      if (change === "delete") sandbox.deleteAccount("key-a");
      else sandbox.putAccount("key-a", { balances: { USDT: 5 } });
      sandbox.clock.advance(WITHDRAWAL_SETTLEMENT.settleAfterMs);
      expect((await api(sandbox, "GET", "/wallets/USDT")).status, change).toBe(200);
      // The store went whole (deleted) or anew (put): no settlement of it is left anywhere.
      const settlements = Object.values(stateOf(sandbox).accounts).flatMap((store) => store.settlements);
      expect(settlements, change).toEqual([]);
      if (change === "put") expect(sandbox.getAccount("key-a")?.balances.USDT).toBe(5);
    }
  });

  it("keeps a withdrawal to settle through a snapshot and a restore", async () => {
    const sandbox = funded();
    const { id } = (await withdraw(sandbox, "crypto", crypto(10))).body.data;
    const restored = funded();
    restored.restore(JSON.parse(JSON.stringify(sandbox.snapshot())));
    restored.clock.advance(WITHDRAWAL_SETTLEMENT.settleAfterMs);
    const byId = await api(restored, "GET", `/transactions/${id}`);
    expect(byId.body.data.updatedAt).toBe(new Date(START + WITHDRAWAL_SETTLEMENT.settleAfterMs).toISOString());
    // A state whose balance leaves out a withdrawal's fee is refused.
    const tampered = structuredClone(sandbox.snapshot()) as any;
    tampered.accounts["key-a"].transactions[0].withdrawal.feeMinor = 0;
    expect(() => funded().restore(tampered)).toThrow(/balance/);
  });
});
