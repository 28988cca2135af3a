// pins: ids
// The ids the sandbox writes: a quote id is qt_ and 16 letters or digits (the documented example's form); every
// other id (wallet, user, trade, transaction, deposit address) is a UUID. They come from a generator kept in the
// state: a sandbox restored from another's snapshot answers the same ids to the same requests.
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { api, newSandbox, SELL_100 } from "./support/sandbox.js";

const QUOTE_ID = /^qt_[A-Za-z0-9]{16}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A quote, its acceptance, the history and a deposit address: every id they answer, by kind. */
async function idsOf(sandbox: Sandbox) {
  const quote = (await api(sandbox, "POST", "/trades/quote", SELL_100)).body.data;
  const trade = (await api(sandbox, "POST", `/trades/quote/${quote.id}`, {})).body.data;
  const history = (await api(sandbox, "GET", "/transactions/me")).body.data;
  const wallets = (await api(sandbox, "GET", "/wallets/me")).body.data;
  const address = (await api(sandbox, "POST", "/addresses/broker", { currency: "USDT", network: "TRX" })).body.data;
  return {
    quote: quote.id,
    others: [
      trade.id,
      ...history.map((transaction: { id: string }) => transaction.id),
      ...wallets.flatMap((wallet: { id: string; userId: string }) => [wallet.id, wallet.userId]),
      address.id,
    ],
  };
}

describe("identifiers", () => {
  it("writes a quote id as qt_ and 16 letters or digits, every other id as a UUID", async () => {
    const { quote, others } = await idsOf(newSandbox());
    expect(quote).toMatch(QUOTE_ID);
    expect(others).toHaveLength(8);
    for (const id of others) expect(id).toMatch(UUID);
  });

  it("answers the same ids in a sandbox restored from the snapshot, and others in a fresh one", async () => {
    const original = newSandbox();
    const saved = JSON.parse(JSON.stringify(original.snapshot()));
    const restored = newSandbox();
    restored.restore(saved);
    const fromOriginal = await idsOf(original);
    expect(await idsOf(restored)).toEqual(fromOriginal);
    expect((await idsOf(newSandbox())).quote).not.toBe(fromOriginal.quote);
  });
});
