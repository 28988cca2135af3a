// The saved state's shape is declared once, as the control document's SandboxState (generated/sandbox-control.json,
// built from openapi-sandbox/control.yaml). A busy sandbox's snapshot (every field of every record written at least
// once) passes it with no violation, so the schema is no stricter than what the sandbox writes; a state broken by
// hand is refused, in-process and over the control API alike, with the same message naming the first problem by its
// JSON pointer (the schema's violations, then the rules no schema states); what an older state lacks is filled in
// from the schema's defaults; the numbers the schema states are the sandbox's own (rules.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATED_DIR } from "../../scripts/lib/paths.js";
import { createContractValidator } from "../../src/contract/index.js";
import { isObject, type JsonObject, type OpenApiDocument, resolvePointer } from "../../src/openapi/index.js";
import type { Sandbox, SandboxState } from "../../src/sandbox/index.js";
import {
  CLOCK_RANGE,
  MAX_MINOR_UNITS,
  WEBHOOK_RETRY_DELAYS_MS,
  WITHDRAWAL_FINAL_STATUSES,
  WITHDRAWAL_FIRST_STATUS,
} from "../../src/sandbox/rules.js";
import { type SandboxStateData, STATE_VERSION } from "../../src/sandbox/state.js";
import {
  api,
  BANK_DESTINATION,
  BUY_1000,
  control,
  newSandbox,
  quoteId,
  stateOf,
  thrownBy,
  TRX_DESTINATION,
} from "./support/sandbox.js";

const document = JSON.parse(readFileSync(path.join(GENERATED_DIR, "sandbox-control.json"), "utf8")) as OpenApiDocument;
const validator = createContractValidator(document, { basePaths: [] });
const schema = (name: string) => document.components!.schemas![name] as JsonObject;
const STATE_REF = { $ref: "#/components/schemas/SandboxState" };

/** The violations of `state` as an answer of GET /_sandbox/state (SandboxState), as their messages. */
const violationsOf = (state: unknown) =>
  validator
    .validateResponse({
      method: "GET",
      path: "/_sandbox/state",
      status: 200,
      headers: { "content-type": "application/json" },
      body: state,
    })
    .violations.map((violation) => violation.message);

const HOOK = "http://127.0.0.1:4040/hook";
const DOWN = "http://127.0.0.1:4041/down";

/** A sandbox whose webhooks go to HOOK (503 the first time, then 200) and DOWN (never reached). */
function hookedSandbox(): Sandbox {
  let calls = 0;
  return newSandbox({
    withdrawals: { settleAfterMs: 10 * 60_000 },
    webhooks: {
      fetch: async (url) => {
        if (String(url) === DOWN) throw new Error("connection refused");
        return new Response(null, { status: calls++ === 0 ? 503 : 200 });
      },
    },
  });
}

/** key-a's trades (a SELL and a BUY, which pays the target), an open quote and two deposit addresses. */
async function trade(sandbox: Sandbox) {
  for (const body of [undefined, BUY_1000]) {
    const accepted = await api(sandbox, "POST", `/trades/quote/${await quoteId(sandbox, body)}`, {});
    expect(accepted.status).toBe(200);
  }
  await quoteId(sandbox);
  for (const identifier of [{}, { uniqueUserIdentifier: "customer-1" }])
    expect(
      (await api(sandbox, "POST", "/addresses/broker", { currency: "USDT", network: "TRX", ...identifier })).status,
    ).toBe(200);
}

/** key-a's withdrawals: a crypto one with a memo settled SUCCESSFUL, a bank one FAILED, a crypto one in progress. */
async function withdraw(sandbox: Sandbox): Promise<string> {
  const withdrawal = async (kind: string, body: object) => {
    const answer = await api(sandbox, "POST", `/wallets/ext/debit/${kind}`, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data.id as string;
  };
  const memo = { ...TRX_DESTINATION, memo: "tag-1" };
  const crypto = await withdrawal("crypto", { amount: 10, currency: "USDT", destination: memo, narration: "out" });
  const merchant = { ...BANK_DESTINATION, merchantCode: "M-1" };
  const bank = await withdrawal("fiat", { amount: 15_000, currency: "NGNX", destination: merchant });
  sandbox.settleWithdrawal(crypto, "SUCCESSFUL");
  sandbox.settleWithdrawal(bank, "FAILED");
  await withdrawal("crypto", { amount: 10, currency: "USDT", destination: TRX_DESTINATION });
  return crypto;
}

/**
 * A sandbox that has written every field of the state: accounts with and without secrets, quotes and trades,
 * addresses, deposits, withdrawals in progress and settled, webhooks delivered, resent, pending after failed
 * attempts and never sent, limit windows of keys and of keyless requests.
 */
async function busySandbox(): Promise<Sandbox> {
  const sandbox = hookedSandbox();
  sandbox.putAccount("key-a", { balances: { USDT: 1000, NGNX: 500_000 }, webhookUrl: HOOK, webhookSecret: "whsec-a" });
  const customer = { id: "c-1", createdAt: "2026-09-05T16:41:27.803Z", updatedAt: "2026-09-05T16:41:27.803Z" };
  const collectionCustomers = [
    { ...customer, active: true, businessId: "b-1", firstName: "A", lastName: "B", bvn: "1", nin: "2" },
  ];
  sandbox.putAccount("team/b", {
    balances: { USDT: 100 },
    business: true,
    webhookUrl: DOWN,
    webhookSecret: "whsec-b",
    collectionCustomers,
  });
  sandbox.putAccount("key-signed", { apiSecret: "s3cret" });
  sandbox.putAccount("key-quiet", {});
  await trade(sandbox);
  for (const apiKey of ["key-a", "team/b", "key-quiet"])
    sandbox.deposit({ apiKey, currency: "USDT", network: "TRX", amount: 25 });
  const settled = await withdraw(sandbox);
  expect((await api(sandbox, "POST", "/transactions/resendWebhooks", { ids: [settled] })).status).toBe(200);
  expect((await api(sandbox, "GET", "/currencies/fiat-rates", undefined, { key: null })).status).toBe(200);
  await sandbox.webhooks.settled();
  sandbox.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]!);
  await sandbox.webhooks.settled();
  return sandbox;
}

/** The property paths SandboxState declares (`*` an entry of a map, `[]` an item), down to its open objects. */
function declaredPaths(at: string, node: unknown, out: Set<string>, seen: unknown[] = []): Set<string> {
  if (!isObject(node) || seen.includes(node)) return out;
  const next = [...seen, node];
  if (typeof node.$ref === "string") declaredPaths(at, resolvePointer(document, node.$ref), out, next);
  for (const [name, property] of Object.entries(isObject(node.properties) ? node.properties : {})) {
    out.add(`${at}/${name}`);
    declaredPaths(`${at}/${name}`, property, out, next);
  }
  if (isObject(node.additionalProperties)) declaredPaths(`${at}/*`, node.additionalProperties, out, next);
  if (isObject(node.items)) declaredPaths(`${at}/[]`, node.items, out, next);
  return out;
}

/** The paths of `value` as declaredPaths names them, where `node` (its schema) declares them. */
function writtenPaths(at: string, node: unknown, value: unknown, out: Set<string>): Set<string> {
  if (!isObject(node)) return out;
  if (typeof node.$ref === "string") writtenPaths(at, resolvePointer(document, node.$ref), value, out);
  if (Array.isArray(value)) {
    for (const item of value) writtenPaths(`${at}/[]`, node.items, item, out);
    return out;
  }
  if (!isObject(value)) return out;
  const properties = isObject(node.properties) ? node.properties : {};
  for (const [name, entry] of Object.entries(value)) {
    if (Object.hasOwn(properties, name)) {
      out.add(`${at}/${name}`);
      writtenPaths(`${at}/${name}`, properties[name], entry, out);
    } else writtenPaths(`${at}/*`, node.additionalProperties, entry, out);
  }
  return out;
}

describe("the state's schema (the control document's SandboxState)", () => {
  it("passes a busy sandbox's snapshot and a real-time one's, which write every field it declares", async () => {
    const busy = (await busySandbox()).snapshot();
    const realTime = newSandbox({ clock: undefined }).snapshot();
    expect(realTime.clock.kind).toBe("real");
    expect([violationsOf(busy), violationsOf(realTime)]).toEqual([[], []]);
    const written = new Set<string>();
    for (const state of [busy, realTime]) writtenPaths("", STATE_REF, JSON.parse(JSON.stringify(state)), written);
    const declared = [...declaredPaths("", STATE_REF, new Set())];
    expect(declared.length).toBeGreaterThan(100);
    expect(declared.filter((field) => !written.has(field))).toEqual([]);
    // The code's view of the state is the document's type (tsc checks this assignment).
    const documented: SandboxState = stateOf(newSandbox()) satisfies SandboxStateData;
    expect(documented.version).toBe(STATE_VERSION);
  });

  it("states the sandbox's own numbers: the version, minor units, clock moments, withdrawal states", () => {
    const version = (schema("SandboxState").properties as JsonObject).version as JsonObject;
    expect(version.const).toBe(STATE_VERSION);
    expect(schema("SandboxMinorUnits")).toMatchObject({ type: "integer", minimum: 0, maximum: MAX_MINOR_UNITS });
    expect(schema("SandboxMoment")).toMatchObject({ minimum: CLOCK_RANGE.earliest, maximum: CLOCK_RANGE.latest });
    const status = (schema("SandboxWithdrawalRecord").properties as JsonObject).status as JsonObject;
    expect(new Set(status.enum as string[])).toEqual(
      new Set([...Object.values(WITHDRAWAL_FIRST_STATUS), ...WITHDRAWAL_FINAL_STATUSES]),
    );
    const restore = (schema("SandboxStateToRestore").properties as JsonObject).version as JsonObject;
    expect(restore.enum).toEqual([1, STATE_VERSION]);
  });

  it("holds the defaults a restore fills in for an older state, and no default for the catalogue's networks", () => {
    const store = schema("SandboxAccountStore").properties as Record<string, JsonObject>;
    const defaults = Object.fromEntries(
      Object.entries(store)
        .filter(([, property]) => "default" in property)
        .map(([name, property]) => [name, property.default]),
    );
    expect(defaults).toEqual({
      addresses: [],
      windows: {},
      outbox: [],
      collectionCustomers: [],
      clockOffsetMs: 0,
      settlements: [],
    });
    expect((schema("SandboxState").properties as Record<string, JsonObject>).keylessWindows!.default).toEqual({});
    // The networks of a state saved before them depend on the contract and the state's currencies: filled in by code.
    const catalogue = schema("SandboxCatalogue");
    const { networks, withdrawalNetworks } = catalogue.properties as Record<string, JsonObject>;
    expect([catalogue.required, "default" in networks!, "default" in withdrawalNetworks!]).toEqual([
      ["currencies", "pairs"],
      false,
      false,
    ]);
  });
});

/** A change that breaks a state, and the message its refusal gives (after "sandbox state: "). */
type Breaking = [name: string, change: (state: any) => string];

const transactionWhere = (state: any, test: (transaction: any) => boolean) =>
  (state.accounts["key-a"].transactions as any[]).findIndex(test);

/** States broken where a schema sees it: the pointer of the first violation, and why. */
const SHAPES: Breaking[] = [
  [
    "a version neither 1 nor 2",
    (state) => {
      state.version = 3;
      return "/version must be one of 1, 2";
    },
  ],
  [
    "a part the sandbox does not write",
    (state) => {
      state.later = true;
      return "/later is not allowed (additional property)";
    },
  ],
  [
    "no ids",
    (state) => {
      delete state.ids;
      return "/ids is required but missing";
    },
  ],
  [
    "a clock of another kind",
    (state) => {
      state.clock.kind = "frozen";
      return '/clock/kind must be one of "fixed", "real"';
    },
  ],
  [
    "a real clock without its last moment",
    (state) => {
      state.clock = { kind: "real", offsetMs: 0 };
      return "/clock/lastMs is required but missing";
    },
  ],
  [
    "a fixed clock with a real clock's field",
    (state) => {
      state.clock.lastMs = 0;
      return "/clock/lastMs is not allowed (additional property)";
    },
  ],
  [
    "a clock after its last moment",
    (state) => {
      state.clock.nowMs = CLOCK_RANGE.latest + 1;
      return `/clock/nowMs must be <= ${CLOCK_RANGE.latest}`;
    },
  ],
  [
    "a negative seed",
    (state) => {
      state.ids.seed = -1;
      return "/ids/seed must be >= 0";
    },
  ],
  [
    "a catalogue without pairs",
    (state) => {
      delete state.catalogue.pairs;
      return "/catalogue/pairs is required but missing";
    },
  ],
  [
    "a fiat rate of another currency",
    (state) => {
      state.rates.fiat[0].currency = "EUR";
      return '/rates/fiat/0/currency must be one of "NGNX", "GHS"';
    },
  ],
  [
    "a balance beyond the largest",
    (state) => {
      state.accounts["key-a"].wallets[0].balanceMinor = MAX_MINOR_UNITS + 1;
      return `/accounts/key-a/wallets/0/balanceMinor must be <= ${MAX_MINOR_UNITS}`;
    },
  ],
  [
    "a fraction of a minor unit, under a key with a slash",
    (state) => {
      state.accounts["team/b"].wallets[0].balanceMinor += 0.5;
      return "/accounts/team~1b/wallets/0/balanceMinor must be integer";
    },
  ],
  [
    "a wallet without its currency's id",
    (state) => {
      delete state.accounts["key-a"].wallets[1].currencyId;
      return "/accounts/key-a/wallets/1/currencyId is required but missing";
    },
  ],
  [
    "an empty API secret",
    (state) => {
      state.accounts["key-signed"].apiSecret = "";
      return "/accounts/key-signed/apiSecret must NOT have fewer than 1 characters";
    },
  ],
  [
    "a quote id not as the sandbox writes one",
    (state) => {
      state.accounts["key-a"].quotes[2].id = "quote-3";
      return '/accounts/key-a/quotes/2/id must match pattern "^qt_[A-Za-z0-9]{16}$"';
    },
  ],
  [
    "a quote paid by neither side",
    (state) => {
      state.accounts["key-a"].quotes[1].pays = "both";
      return '/accounts/key-a/quotes/1/pays must be one of "source", "target"';
    },
  ],
  [
    "a transaction of another type",
    (state) => {
      state.accounts["key-a"].transactions[0].type = "REFUND";
      return '/accounts/key-a/transactions/0/type must be one of "CREDIT", "DEBIT"';
    },
  ],
  [
    "a narration that is a number",
    (state) => {
      state.accounts["key-a"].transactions[0].narration = 5;
      return "/accounts/key-a/transactions/0/narration must be string,null";
    },
  ],
  [
    "a deposit fee below 0",
    (state) => {
      const at = transactionWhere(state, (transaction) => transaction.deposit);
      state.accounts["key-a"].transactions[at].deposit.feeMinor = -1;
      return `/accounts/key-a/transactions/${at}/deposit/feeMinor must be >= 0`;
    },
  ],
  [
    "a withdrawal of a state the sandbox never writes",
    (state) => {
      const at = transactionWhere(state, (transaction) => transaction.withdrawal);
      state.accounts["key-a"].transactions[at].withdrawal.status = "REJECTED";
      const states = '"PENDING", "APPROVED", "SUCCESSFUL", "FAILED"';
      return `/accounts/key-a/transactions/${at}/withdrawal/status must be one of ${states}`;
    },
  ],
  [
    "a bank destination without its bank code",
    (state) => {
      const at = transactionWhere(state, (transaction) => transaction.withdrawal?.destination.kind === "bank");
      delete state.accounts["key-a"].transactions[at].withdrawal.destination.bankCode;
      return `/accounts/key-a/transactions/${at}/withdrawal/destination/bankCode is required but missing`;
    },
  ],
  [
    "a destination of another kind",
    (state) => {
      const at = transactionWhere(state, (transaction) => transaction.withdrawal);
      state.accounts["key-a"].transactions[at].withdrawal.destination.kind = "card";
      return `/accounts/key-a/transactions/${at}/withdrawal/destination/kind must be one of "crypto", "bank"`;
    },
  ],
  [
    "a crypto destination with a bank field",
    (state) => {
      const at = transactionWhere(state, (transaction) => transaction.withdrawal?.destination.kind === "crypto");
      state.accounts["key-a"].transactions[at].withdrawal.destination.bankName = "OPAY";
      return `/accounts/key-a/transactions/${at}/withdrawal/destination/bankName is not allowed (additional property)`;
    },
  ],
  [
    "an address with a field the sandbox does not write",
    (state) => {
      state.accounts["key-a"].addresses[0].label = "x";
      return "/accounts/key-a/addresses/0/label is not allowed (additional property)";
    },
  ],
  [
    "a limit window with a fractional count",
    (state) => {
      const [name] = Object.keys(state.accounts["key-a"].windows);
      state.accounts["key-a"].windows[name!].count = 1.5;
      return `/accounts/key-a/windows/${name}/count must be integer`;
    },
  ],
  [
    "a webhook of another status",
    (state) => {
      state.accounts["key-a"].outbox[0].status = "sent";
      return '/accounts/key-a/outbox/0/status must be one of "pending", "delivered", "failed"';
    },
  ],
  [
    "a webhook attempt at a fraction of a millisecond",
    (state) => {
      state.accounts["key-a"].outbox[0].attempts[0].at = 1.5;
      return "/accounts/key-a/outbox/0/attempts/0/at must be integer";
    },
  ],
  [
    "a webhook signature not in lowercase hex",
    (state) => {
      state.accounts["key-a"].outbox[0].signature = "ABC";
      return '/accounts/key-a/outbox/0/signature must match pattern "^[0-9a-f]{128}$"';
    },
  ],
  [
    "a settlement moment as text",
    (state) => {
      state.accounts["key-a"].settlements[0].at = "soon";
      return "/accounts/key-a/settlements/0/at must be integer";
    },
  ],
  [
    "a format-1 state whose outbox, kept beside the accounts, is broken (named where format 2 keeps it)",
    (state) => {
      const { windows, outbox, settlements, ...account } = state.accounts["key-a"];
      outbox[0].status = "sent";
      Object.assign(state, { version: 1, accounts: { "key-a": account }, windows: { "key-a": windows } });
      Object.assign(state, { outbox: { "key-a": outbox }, settlements: [] });
      delete state.keylessWindows;
      return '/accounts/key-a/outbox/0/status must be one of "pending", "delivered", "failed"';
    },
  ],
];

/** States whose every part has its shape, broken where only the rules in code see it. */
const RULES: Breaking[] = [
  [
    "a balance that is not its starting balance plus its history",
    (state) => {
      state.accounts["key-a"].wallets[0].balanceMinor += 1;
      const why = "the USDT balance is not its starting balance plus its transactions";
      return `/accounts/key-a/wallets/0/balanceMinor: ${why}`;
    },
  ],
  [
    "a store under another key than its own",
    (state) => {
      state.accounts["key-a"].apiKey = "key-z";
      return "/accounts/key-a/apiKey is not the key of its store";
    },
  ],
  [
    "a wallet of a currency the catalogue lacks",
    (state) => {
      state.accounts["key-a"].wallets[0].code = "EUR";
      return "/accounts/key-a/wallets/0/code is not a currency of the catalogue";
    },
  ],
  [
    "a transaction of a wallet the account lacks",
    (state) => {
      state.accounts["key-quiet"].wallets = state.accounts["key-quiet"].wallets.filter((w: any) => w.code !== "USDT");
      return "/accounts/key-quiet/transactions/0/walletCode names no wallet of the account";
    },
  ],
  [
    "an address of a currency the account has no wallet of",
    (state) => {
      state.accounts["key-a"].addresses[1].currency = "GHS";
      return "/accounts/key-a/addresses/1/currency names no wallet of the account";
    },
  ],
  [
    "a quote ahead of the id counter",
    (state) => {
      state.ids.counter = 0;
      return "/accounts/key-a/quotes/0/id is ahead of /ids/counter";
    },
  ],
  [
    "a trade of a quote the account lacks",
    (state) => {
      const { quotes } = state.accounts["key-a"];
      state.accounts["key-a"].quotes = quotes.filter(
        (quote: any) => quote.id !== state.accounts["key-a"].trades[1].quoteId,
      );
      return "/accounts/key-a/trades/1/quoteId names no quote of the account";
    },
  ],
  [
    "a trade of a pair the catalogue lacks",
    (state) => {
      state.accounts["key-a"].trades[0].pairId = "no-pair";
      return "/accounts/key-a/trades/0/pairId names no pair of the catalogue";
    },
  ],
  [
    "a settlement of a withdrawal already settled",
    (state) => {
      const at = transactionWhere(state, (transaction) => transaction.withdrawal?.status === "SUCCESSFUL");
      state.accounts["key-a"].settlements[0].transactionId = state.accounts["key-a"].transactions[at].id;
      return "/accounts/key-a/settlements/0 names no withdrawal in progress";
    },
  ],
];

describe("a restore of a state broken by hand", () => {
  it("refuses each, in-process and over the control API alike, naming its first problem by JSON pointer", async () => {
    const busy = JSON.stringify((await busySandbox()).snapshot());
    const target = newSandbox();
    const before = JSON.stringify(target.snapshot());
    const refusals: Array<[string, string | undefined, string | undefined]> = [];
    const expected: typeof refusals = [];
    for (const [name, change] of [...SHAPES, ...RULES]) {
      const state = JSON.parse(busy);
      const message = `sandbox state: ${change(state)}`;
      const overHttp = await control(target, "PUT", "/_sandbox/state", state);
      refusals.push([
        name,
        thrownBy(() => target.restore(state))?.message,
        `${overHttp.status} ${overHttp.body?.message}`,
      ]);
      // The control API checks the version (its body's schema) before the restore does, with its own words.
      const httpMessage = state.version === 3 ? message.replace("sandbox state: ", "") : message;
      expected.push([name, message, `400 ${httpMessage}`]);
    }
    expect(refusals).toEqual(expected);
    expect(JSON.stringify(target.snapshot())).toBe(before);
    const intact = JSON.parse(busy);
    expect(thrownBy(() => target.restore(intact))).toBeUndefined();
    expect(target.snapshot()).toEqual(intact);
  });

  it("fills in, from the schema's defaults, the parts an older state lacks", () => {
    const sandbox = newSandbox({ accounts: { "key-a": {} } });
    const saved = stateOf(sandbox);
    const older = structuredClone(saved) as any;
    delete older.keylessWindows;
    for (const part of ["addresses", "windows", "outbox", "collectionCustomers", "settlements"])
      delete older.accounts["key-a"][part];
    const restored = newSandbox();
    restored.restore(older);
    expect(stateOf(restored)).toEqual(saved);
    expect(older.accounts["key-a"]).not.toHaveProperty("outbox"); // the state given is left as it was
  });
});
