// A large state made quickly, for the tests of what a large state costs: one account's store made by the sandbox
// itself (quotes made and accepted through sandbox.fetch), then copied for each key, every record id of each copy
// drawn afresh from the state's own generator, so the state keeps every rule a restore checks (each id its own, no
// quote id ahead of the generator). Building thousands of stores by requests would take the test's time.
import { API_KEY_HEADER, BASE_PATH } from "../../../generated/client-meta.js";
import { quoteId, uuid } from "../../../src/sandbox/ids.js";
import { createSandbox, type SandboxState } from "../../../src/sandbox/index.js";
import { setOwnEntry } from "../../../src/sandbox/state.js";

/** The clock of a large state (it is fixed there). */
export const LARGE_STATE_START = Date.UTC(2026, 0, 1);

/** The key of the `index`th store of a large state: key-0000, key-0001… (in the order of the state's stores). */
export const largeStateKey = (index: number): string => `key-${String(index).padStart(4, "0")}`;

/** Where an id of the template's records is written in its text: a quote id or a UUID, in quotes. */
const QUOTED_ID = /"(qt_[A-Za-z0-9]{16}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/g;

/** A state of `accounts` stores (largeStateKey's keys), each made of `trades` quotes accepted, in order. */
export async function largeState(accounts: number, trades: number): Promise<SandboxState> {
  const maker = createSandbox({ clock: { start: LARGE_STATE_START } });
  maker.putAccount("template", { balances: { USDT: 1_000_000 } });
  const send = async (path: string, body: unknown) => {
    const headers = { [API_KEY_HEADER]: "template", "content-type": "application/json" };
    const request = new Request(`http://sandbox.test${BASE_PATH}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    const answer = await maker.fetch(request);
    if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
    return (await answer.json()) as { data: { id: string } };
  };
  for (let trade = 0; trade < trades; trade++) {
    const quote = await send("/trades/quote", { sourceId: "USDT", targetId: "NGNX", amount: 10 + trade, side: "SELL" });
    await send(`/trades/quote/${quote.data.id}`, {});
  }
  const state = maker.snapshot();
  const template = state.accounts.template!;
  const ids = new Set(
    [template.wallets, template.quotes, template.trades, template.transactions, template.outbox].flatMap((records) =>
      records.map(({ id }) => id),
    ),
  );
  const text = JSON.stringify(template);
  const stores: SandboxState["accounts"] = {};
  for (let index = 0; index < accounts; index++) {
    const key = largeStateKey(index);
    const fresh = new Map([...ids].map((id) => [id, id.startsWith("qt_") ? quoteId(state.ids) : uuid(state.ids)]));
    const copy = text.replace(QUOTED_ID, (_quoted, id: string) => JSON.stringify(fresh.get(id) ?? id));
    setOwnEntry(stores, key, { ...JSON.parse(copy), apiKey: key });
  }
  return { ...state, accounts: stores };
}
