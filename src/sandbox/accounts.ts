// The accounts of the sandbox, one per API key: made on a key's first use with the default balances (choices.ts,
// "accounts.first-use" and "accounts.default-balances"), put whole by configuration (a Business account with its
// collection customers, checked against the contract: "accounts.business"), read as the control API
// answers them (the secret itself never), deleted one key at a time. Each is its key's whole store (state.ts), so
// a put or a delete is one assignment and touches no other key.
import type { SandboxAccount } from "../../generated/sandbox-control.js";
import { balancesProblem, fromMinor, newAccount, ownEntry, setOwnEntry, type AccountSettings } from "./state.js";
import type { CatalogueCheck } from "./catalogue.js";
import type { Engine } from "./engine.js";
import { currencyOf } from "./views.js";
import type { Webhooks } from "./webhooks/index.js";
import { webhookSettingsProblem } from "./webhooks/outbox.js";
import { refuse } from "./refusal.js";

export interface Accounts {
  /** The account of `apiKey`, made with the default balances when it has none. */
  ensure(apiKey: string): void;
  has(apiKey: string): boolean;
  /** Creates or replaces the account of `apiKey`; throws a RangeError on balances the catalogue cannot hold. */
  put(apiKey: string, settings: AccountSettings): SandboxAccount;
  get(apiKey: string): SandboxAccount | undefined;
  delete(apiKey: string): boolean;
}

/** What is wrong with an account's API secret, or undefined: an empty one would sign with an empty key. */
function apiSecretProblem(apiSecret: unknown): string | undefined {
  if (apiSecret === undefined || (typeof apiSecret === "string" && apiSecret !== "")) return undefined;
  return "apiSecret must be a non-empty string (leave it out for an account whose requests are not signed)";
}

/** What is wrong with an account's collection customers: only a Business account has any, each id once. */
function collectionCustomersProblem(settings: AccountSettings, check: CatalogueCheck): string | undefined {
  const customers = settings.collectionCustomers ?? [];
  if (customers.length === 0) return undefined;
  if (settings.business !== true) return "collectionCustomers need a Business account (business: true)";
  const ids = new Set<string>();
  for (const { id } of customers) {
    if (ids.has(id)) return `collectionCustomers: the id ${id} is given twice`;
    ids.add(id);
  }
  return check.collectionCustomersProblem(customers);
}

export function createAccounts(
  engine: Engine & { webhooks: Pick<Webhooks, "forget"> },
  defaults: Record<string, number>,
  check: CatalogueCheck,
): Accounts {
  const create = (apiKey: string, settings: AccountSettings) => {
    const { state, clock } = engine;
    engine.webhooks.forget(apiKey); // deliveries under way stop; its outbox goes with the store it replaces
    const account = newAccount(apiKey, settings, {
      catalogue: state.catalogue,
      defaults,
      ids: state.ids,
      now: clock.now(),
    });
    setOwnEntry(state.accounts, apiKey, account);
  };
  const get = (apiKey: string): SandboxAccount | undefined => {
    const account = ownEntry(engine.state.accounts, apiKey);
    if (!account) return undefined;
    const balances: Record<string, number> = {};
    for (const wallet of account.wallets)
      setOwnEntry(balances, wallet.code, fromMinor(wallet.balanceMinor, currencyOf(engine, wallet.code)));
    const { business, apiSecret, webhookUrl, webhookSecret } = account;
    const hasWebhookSecret = webhookSecret !== undefined;
    const webhook = webhookUrl === undefined ? { hasWebhookSecret } : { webhookUrl, hasWebhookSecret };
    // Every store has its list: newAccount makes it, a restore fills in the schema's default [] (state-schema.ts).
    const collectionCustomers = structuredClone(account.collectionCustomers);
    return { apiKey, balances, business, hasApiSecret: apiSecret !== undefined, ...webhook, collectionCustomers };
  };
  return {
    ensure(apiKey) {
      if (!ownEntry(engine.state.accounts, apiKey)) create(apiKey, {});
    },
    has: (apiKey) => ownEntry(engine.state.accounts, apiKey) !== undefined,
    put(apiKey, settings) {
      const problem =
        balancesProblem(settings.balances ?? {}, engine.state.catalogue) ??
        apiSecretProblem(settings.apiSecret) ??
        webhookSettingsProblem(settings) ??
        collectionCustomersProblem(settings, check);
      if (problem) refuse(400, `sandbox account ${apiKey}: ${problem}`);
      create(apiKey, settings); // one assignment: the key's whole store, windows and outbox included, anew
      return get(apiKey)!;
    },
    get,
    delete(apiKey) {
      if (!ownEntry(engine.state.accounts, apiKey)) return false;
      delete engine.state.accounts[apiKey]; // the key's whole store
      engine.webhooks.forget(apiKey);
      return true;
    },
  };
}
