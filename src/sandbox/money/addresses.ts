// Deposit addresses: one per account, currency, network and customer identifier, made only for a pair whose
// active network isReceivable (Get Active Networks' catalogue). The same identifier gives back the same address;
// no identifier gives the account's own (master) address of the pair (choices.ts, "addresses.identifiers").
import type { Catalogue } from "../catalogue.js";
import { type Engine, nowOf } from "../engine.js";
import { uuid } from "../ids.js";
import type { AccountRecord, DepositAddressRecord } from "../state.js";
import { addressValue } from "./generate.js";

type ActiveNetwork = Catalogue["networks"][string]["networks"][number];

/** The active network of `currency` on `network`, or why no address can be made for that pair. */
export function receivableNetwork(catalogue: Catalogue, currency: string, network: string): ActiveNetwork | string {
  const entry = Object.hasOwn(catalogue.networks, currency) ? catalogue.networks[currency] : undefined;
  const active = entry?.networks.find((candidate) => candidate.networkCode === network);
  if (!active) return `${currency} on ${network} is not among the sandbox's active networks`;
  if (!active.isReceivable) return `${currency} on ${network} is not receivable (isReceivable is false)`;
  return active;
}

/** The withdrawal network of `currency` on `network` (its addressRegex, fee and minimum), if the catalogue has it. */
export function withdrawalNetworkOf(catalogue: Catalogue, currency: string, network: string) {
  const networks = Object.hasOwn(catalogue.withdrawalNetworks, currency) ? catalogue.withdrawalNetworks[currency] : [];
  return networks?.find((candidate) => candidate.code === network);
}

/** The account's address of the pair for `identifier` (undefined: its master address), made when it has none. */
export function addressFor(
  engine: Engine,
  account: AccountRecord,
  pair: { currency: string; network: string; identifier?: string },
): DepositAddressRecord {
  const { currency, network, identifier } = pair;
  const existing = account.addresses.find(
    (address) => address.currency === currency && address.network === network && address.identifier === identifier,
  );
  if (existing) return existing;
  const { ids, catalogue } = engine.state;
  const address: DepositAddressRecord = {
    id: uuid(ids),
    createdAt: nowOf(engine, account),
    value: addressValue(ids, withdrawalNetworkOf(catalogue, currency, network)?.addressRegex),
    reference: uuid(ids),
    currency,
    network,
  };
  if (identifier !== undefined) address.identifier = identifier;
  account.addresses.push(address);
  return address;
}
