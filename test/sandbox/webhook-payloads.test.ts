// pins: webhooks.payloads
// A webhook body has the published sample's keys in the sample's order (the Webhooks page: the deposit sample
// starts with hash, the withdrawal sample ends with hash, network, address), filled from the transaction as it is
// now: amount the transaction's amount (not its fee), createdAt its creation, lastUpdated its last change. A bank
// withdrawal's has no network, and its address is the account number.
import { describe, expect, it } from "vitest";
import { api, newSandbox } from "./support/sandbox.js";

const TRX_ADDRESS = `T${"9".repeat(33)}`;
const BANK = { accountNumber: "0123456789", accountName: "Jane Doe", bankName: "OPAY", bankCode: "999992" };

describe("webhook bodies", () => {
  it("have the samples' keys in their order, and the transaction's values as they are now", async () => {
    const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 1000, NGNX: 100_000 } } } });
    sandbox.deposit({ apiKey: "key-a", currency: "USDT", network: "TRX", amount: 5 });
    const crypto = await api(sandbox, "POST", "/wallets/ext/debit/crypto", {
      amount: 10,
      currency: "USDT",
      destination: { address: TRX_ADDRESS, network: "TRX" },
    });
    await api(sandbox, "POST", "/wallets/ext/debit/fiat", { amount: 15_000, currency: "NGNX", destination: BANK });
    sandbox.clock.advance(5_000);
    sandbox.settleWithdrawal(crypto.body.data.id, "SUCCESSFUL");
    const bodies = (await sandbox.webhooks.list("key-a")).map((webhook) => JSON.parse(webhook.body));
    expect(bodies.map((body) => [body.type, body.status, Object.keys(body)])).toEqual([
      [
        "DEPOSIT",
        "CONFIRMED",
        [
          "hash",
          "type",
          "currency",
          "address",
          "amount",
          "status",
          "reference",
          "transactionId",
          "createdAt",
          "lastUpdated",
        ],
      ],
      [
        "WITHDRAWAL",
        "PENDING",
        [
          "type",
          "currency",
          "amount",
          "status",
          "reference",
          "transactionId",
          "createdAt",
          "lastUpdated",
          "hash",
          "network",
          "address",
        ],
      ],
      [
        "WITHDRAWAL",
        "APPROVED",
        [
          "type",
          "currency",
          "amount",
          "status",
          "reference",
          "transactionId",
          "createdAt",
          "lastUpdated",
          "hash",
          "address",
        ],
      ],
      [
        "WITHDRAWAL",
        "SUCCESSFUL",
        [
          "type",
          "currency",
          "amount",
          "status",
          "reference",
          "transactionId",
          "createdAt",
          "lastUpdated",
          "hash",
          "network",
          "address",
        ],
      ],
    ]);
    const [, pending, bank, successful] = bodies;
    expect(pending).toMatchObject({ amount: 10, hash: null, network: "TRX", address: TRX_ADDRESS });
    expect(bank).toMatchObject({ currency: "NGNX", amount: 15_000, hash: null, address: "0123456789" });
    expect(successful).toMatchObject({
      amount: 10,
      createdAt: "2026-11-26T10:00:00.000Z",
      lastUpdated: "2026-11-26T10:00:05.000Z",
      network: "TRX",
      address: TRX_ADDRESS,
    });
    expect([pending.lastUpdated, successful.hash]).toEqual([
      "2026-11-26T10:00:00.000Z",
      expect.stringMatching(/^[0-9a-f]{64}$/),
    ]);
  });
});
