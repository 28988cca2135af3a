// THE register of the sandbox's choices: where the service's description and the published and observed facts
// (../shared/observed) do not say how the service behaves, the sandbox decides, once. Every value a choice names (a
// status, a window, a default, a form) is read from rules.ts by the code that applies it and interpolated here, so the
// register users read (`sandbox.choices`, GET /_sandbox/choices, the site's docs/guide/register.md) is the behaviour,
// not a description of it. A choice is the sandbox's, never presented as the service's behaviour; `override` says how a
// user chooses otherwise.

import {
  API_KEY_HEADER,
  RATE_LIMIT_HEADERS,
  SIGNING_HEADERS,
  WEBHOOK_SIGNATURE_HEADER,
} from "../../generated/client-meta.js";
import type { SandboxChoice } from "../../generated/sandbox-control.js";
import { UNMODELLED_OPERATIONS } from "./operations/index.js";
import {
  ACCOUNT_NUMBER_MASK,
  ADDRESS_FALLBACK,
  ADDRESS_OPEN_REPEAT,
  CHAIN_HASH_HEX_DIGITS,
  CLOCK_RANGE,
  CONTROL_ORIGIN_REFUSAL,
  DATED_REFERENCE_CHARACTERS,
  DEFAULT_DECIMAL_PLACES,
  DEFAULT_QUOTE_SIDE_READING,
  DEPOSIT_REFUSAL,
  DEPOSIT_STATUS,
  EXTERNAL_REFERENCE_FORM,
  MAX_DECIMAL_PLACES,
  MAX_MINOR_UNITS,
  ON_WEBHOOK_DEFAULT_STATUS,
  PAGE_DEFAULTS,
  QUOTE_ID_FORM,
  QUOTE_SIDE_READINGS,
  RATE_LIMITED_STATUS,
  REFUSAL_STATUS,
  RULE_FORMS,
  SETTLE_REFUSAL,
  SIGNATURE_WINDOW_MS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_TIMEOUT_MS,
  WITHDRAWAL_FINAL_STATUSES,
  WITHDRAWAL_FIRST_STATUS,
  WITHDRAWAL_SETTLEMENT,
} from "./rules.js";
import { MOCK_IDENTITY_HEADER, SANDBOX_IDENTITY_HEADER } from "../pipeline/identity.js";
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  MAX_HEADER_BYTES,
  MAX_URL_BYTES,
} from "../pipeline/limits.js";

const KIB = 1024;
const MIB = 1024 * KIB;

const NO_STATUS = "no source shows which status answers this";

const status = (value: number) => `status ${value}`;

const duration = (ms: number) =>
  ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;

/** The register, in the order users read it. */
export const SANDBOX_CHOICES: readonly SandboxChoice[] = [
  {
    id: "clock",
    topic: "Clock",
    choice:
      "Without clock.start the sandbox clock is real time plus every advance; with clock.start it stands at that " +
      "moment and moves only by advance. It never moves back. It shows moments from " +
      `${new Date(CLOCK_RANGE.earliest).toISOString()} to ${new Date(CLOCK_RANGE.latest).toISOString()}: ` +
      "a start outside them, or an advance past the last, is refused. Over HTTP, an answer's Date header is " +
      "its time (an X-RateLimit-Reset is read against it).",
    why:
      "Quote expiry and limit windows need one clock a test controls; faking global timers hangs fetch and MSW. " +
      "The contract's timestamps have four-digit years.",
    override: "clock.start; POST /_sandbox/clock/advance",
  },
  {
    id: "clock.per-key",
    topic: "Clock",
    choice:
      "Each API key has its own clock: the sandbox clock plus the advances of that key alone (0 for a new or " +
      "replaced account). A key's quote expiry, limit windows, withdrawal settlement, webhook attempts and every " +
      "moment its store records read its clock, and its signatures may be within the window of it. Advancing " +
      "one key's clock moves no other key's; advancing the sandbox clock moves every key's by as much, and is " +
      "refused when it would take any key's clock past the last moment. Requests without a key, and an " +
      "answer's Date header, are on the sandbox clock.",
    why:
      "The description knows no test clock. Tests that share one sandbox (a CI's parallel workers, each with its " +
      "own key) must each move time without expiring another's quotes or moving its windows and retries.",
    override: "POST /_sandbox/accounts/{apiKey}/clock/advance; sandbox.accountClock(apiKey).advance",
  },
  {
    id: "accounts.first-use",
    topic: "Accounts",
    choice: "Any API key gets its own account on first use.",
    why: "The description says nothing of accounts in a test environment.",
    override: "requireKnownKeys: true (or PUT /_sandbox/settings while it runs) refuses a key that has no account",
  },
  {
    id: "accounts.unknown-key",
    topic: "Accounts",
    choice: `With requireKnownKeys, a key that has no account is refused with ${status(REFUSAL_STATUS.unknownKey)}.`,
    why: "The Errors page publishes UNAUTHORIZED 401; which failure answers it is not shown.",
  },
  {
    id: "accounts.default-balances",
    topic: "Accounts",
    choice:
      "A new account has one wallet per currency of the catalogue, each with the availableBalance of the " +
      "contract's documented wallet of that currency (Get My Wallets' example), 0 where none is documented.",
    why: "No source says what a new account holds.",
    override: "accounts[key].balances; PUT /_sandbox/accounts/{apiKey}",
  },
  {
    id: "accounts.replace",
    topic: "Accounts",
    choice:
      "Putting an account replaces it whole: new ids, the given balances as its starting balances (a currency " +
      "not given starts at its default balance, accounts.default-balances), no quotes, " +
      "trades, transactions, deposit addresses or webhooks. Deleting one removes it. Either starts the key's " +
      "limit windows afresh; no other key's data changes.",
    why: "A per-key reset; balances change only through trades, deposits, withdrawals and configuration.",
    form: { put: "replaces the key's whole store", delete: "removes the key's whole store" },
  },
  {
    id: "accounts.keyless",
    topic: "Accounts",
    choice:
      "An operation that reads or changes an account (wallets, transactions, trades, quotes, collections, " +
      "deposit addresses, withdrawals, webhook resends) " +
      `called without ${API_KEY_HEADER}, or with an empty one, answers ${status(REFUSAL_STATUS.keylessAccountRead)}; ` +
      "catalogue reads (rates, pairs, currencies) answer without one.",
    why: "The description does not show whether those operations need the key; without one there is no account.",
  },
  {
    id: "accounts.isolation",
    topic: "Accounts",
    choice:
      `Another key's quote or transaction id answers ${status(REFUSAL_STATUS.notFound)}, as an unknown id does ` +
      "(so do a currency, pair, wallet or collection customer the sandbox does not have).",
    why: "The Errors page publishes NOT_FOUND 404; an account must not learn that another's id exists.",
  },
  {
    id: "accounts.business",
    topic: "Accounts",
    choice:
      `The collection operations answer ${status(REFUSAL_STATUS.notBusiness)} to an account that is not a ` +
      "Business account. A Business account's collection customers are those its settings give it " +
      "(collectionCustomers, each checked against the contract's CollectionCustomer, in the order given, taken as " +
      "oldest first, and paged as every list); without any, an empty page, and one by id answers " +
      `${status(REFUSAL_STATUS.notFound)}.`,
    why:
      "The description says they require a Business account; the status is published as FORBIDDEN 403. " +
      "Nothing shows how a customer becomes one of a business: a test gives them.",
    override: "accounts[key].business, accounts[key].collectionCustomers",
  },
  {
    id: "catalogue",
    topic: "Catalogue",
    choice:
      "Currencies are Get Currencies' documented example, pairs Get Trade Pair's, fiat rates Get Fiat Rates', " +
      "dollar rates those of Create Quote's example (a currency without one: 1 / its fiat sellRate, to 8 decimals), " +
      "active networks Get Active Networks', withdrawal networks Get Withdrawal Currency Networks' (its example " +
      "is USDT's, as its name says). A network's currency must be a currency of the catalogue. A state saved " +
      "without networks is restored with these default networks of its currencies. GHS has a documented fiat " +
      "rate but no documented currency or pair, so it cannot be quoted until the catalogue is given them.",
    why: "The contract's examples are consistent across operations; the description gives no catalogue.",
    override:
      "catalogue.currencies, catalogue.pairs, catalogue.networks, catalogue.withdrawalNetworks, rates; " +
      "PUT /_sandbox/rates",
  },
  {
    id: "rates.update",
    topic: "Rates",
    choice:
      "Setting rates sets each fiat rate given, by its currency, and each dollar rate given, by its code; every " +
      "rate not given is kept. Get Fiat Rates answers the rates of the moment (no cache).",
    why: "The description says rates are cached up to 60 s; a test wants a new rate to apply at once.",
  },
  {
    id: "quotes.sides",
    topic: "Quotes",
    choice:
      `By default (reading "${DEFAULT_QUOTE_SIDE_READING}") sourceId and targetId name a catalogue pair in its ` +
      "order (USDT/NGNX: sourceId USDT, targetId NGNX); SELL pays the source and receives the target, BUY pays " +
      "the target and receives the source. amount is in the currency paid (what accepting debits) and " +
      "amountReceived in the one received: paying USDT, rate = the fiat's sellRate and amountReceived = amount × " +
      "sellRate; receiving USDT, rate = its buyRate and amountReceived = amount ÷ buyRate. A request in the other " +
      'order (sourceId NGNX, targetId USDT) names no pair and is refused. Reading "source-pays": the source is ' +
      "always paid; SELL needs source USDT, BUY target USDT.",
    why:
      "The official clients (C1, C2: createQuote(source, target, side, amount)) name the pair by source and " +
      "target and the direction by side, BUY going from the right-hand currency to the left-hand one; the " +
      "published pages say accepting deducts the amount from the source wallet, which for BUY conflicts. " +
      "Neither says which currency amount is in (C2: the amount you intend to trade).",
    override: `quotes.sideReading (${QUOTE_SIDE_READINGS.map((reading) => `"${reading}"`).join(" or ")})`,
  },
  {
    id: "quotes.not-tradable",
    topic: "Quotes",
    choice:
      `Create Quote answers ${status(REFUSAL_STATUS.quoteNotTradable)} when a currency is not in the catalogue ` +
      "(codes and ids are both taken), when sourceId and targetId name no catalogue pair in that order (or, " +
      'read "source-pays", when the side does not match the currencies), when neither is USDT, when the pair is ' +
      "not sellable (SELL) or buyable (BUY), or when no fiat or dollar rate is set for a currency. Accept Quote " +
      "answers the same when the quote's pair or one of its wallets is no longer in the sandbox (a state restored " +
      "without it).",
    why: NO_STATUS,
  },
  {
    id: "quotes.invalid-request",
    topic: "Quotes",
    choice:
      `Create Quote answers ${status(REFUSAL_STATUS.invalidQuoteRequest)} when sourceId, targetId, amount or ` +
      "side is missing, when amount is not above 0, has more decimals than the source currency's " +
      `maximumDecimalPlaces (${DEFAULT_DECIMAL_PLACES} when the catalogue gives none), or is too small to ` +
      "receive anything.",
    why: "The description does not show which fields are required; the Errors page publishes VALIDATION_ERROR 422.",
  },
  {
    id: "quotes.rounding",
    topic: "Quotes",
    choice:
      `amountReceived is rounded ${RULE_FORMS.amountReceivedRounding} to the received currency's ` +
      "maximumDecimalPlaces, the exact product or quotient of amount and rate (as they are written) read at 15 " +
      "significant digits first (0.29 × 100 is 29; 1290919915501.94 ÷ 1652.4 is 781239358.20742).",
    why: "No source shows how amounts are rounded; rounding down never pays more than the rate.",
    form: { amountReceivedRounding: RULE_FORMS.amountReceivedRounding },
  },
  {
    id: "money.exact",
    topic: "Quotes",
    choice:
      `An amount is at most ${MAX_MINOR_UNITS.toLocaleString("en-US")} minor units of its currency (15 digits: ` +
      `${(MAX_MINOR_UNITS / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })} of a currency of 2 ` +
      "decimals); so is a wallet's balance, counting what its pending " +
      "withdrawals would return if they failed. Beyond it, Create Quote (its amount or its amountReceived), a " +
      "withdrawal and a simulated deposit are refused as invalid, an account's balances are refused, and " +
      `accepting a quote is refused with ${status(REFUSAL_STATUS.balanceTooHigh)}. A catalogue currency's ` +
      `maximumDecimalPlaces is at most ${MAX_DECIMAL_PLACES}; a catalogue with more (or fewer than 0) is refused.`,
    why:
      "No source gives a largest amount. The sandbox keeps money in whole minor units and computes at 15 " +
      "significant digits: beyond them it could no longer keep money exact (none created, none lost).",
  },
  {
    id: "quotes.no-reservation",
    topic: "Quotes",
    choice: "A quote reserves nothing: the source balance is checked when the quote is accepted.",
    why: "No source shows that a quote holds funds.",
  },
  {
    id: "quotes.expired",
    topic: "Quotes",
    choice:
      "A quote is valid until its expiryDate (createdAt + expiresIn seconds), " +
      `${RULE_FORMS.quoteExpiry === "at-expiry" ? "that moment excluded" : "that moment included"}; accepting it ` +
      `then answers ${status(REFUSAL_STATUS.quoteExpired)}.`,
    why: NO_STATUS,
    form: { quoteExpiry: RULE_FORMS.quoteExpiry },
  },
  {
    id: "quotes.accepted-twice",
    topic: "Quotes",
    choice: `Accepting a quote already accepted answers ${status(REFUSAL_STATUS.quoteAccepted)}.`,
    why: NO_STATUS,
  },
  {
    id: "quotes.balance-too-low",
    topic: "Quotes",
    choice:
      "Accepting a quote whose amount is more than the source wallet's available balance answers " +
      `${status(REFUSAL_STATUS.balanceTooLow)}; nothing changes.`,
    why: NO_STATUS,
  },
  {
    id: "trades.records",
    topic: "Trades",
    choice:
      "An accepted quote makes a trade (reference TRD-<date>-<6 characters>, the example's form) and two SWAP " +
      "transactions with the trade's reference: a DEBIT of amount on the source wallet and a CREDIT of " +
      "amountReceived on the target wallet, described as the example's are (Swap <amount> <source> to <target>; " +
      "narration Quote <quote id>). dollarValue = amount × sourceDollarRate, to cents.",
    why: "The published pages say accepting debits the source and credits the target with no extra charge.",
  },
  {
    id: "ids",
    topic: "Identifiers",
    choice:
      `Quote ids are ${QUOTE_ID_FORM.prefix} and ${QUOTE_ID_FORM.randomLength + QUOTE_ID_FORM.counterLength} ` +
      "letters or digits (the example's form); other ids are UUIDs. They come from a " +
      "generator kept in the state, so a restored sandbox answers the same ids.",
    why: "The description says a quote id is opaque, not a UUID.",
  },
  {
    id: "lists.pagination",
    topic: "Lists",
    choice:
      `page and pageSize default to ${PAGE_DEFAULTS.page} and ${PAGE_DEFAULTS.pageSize} (no maximum); a value ` +
      `below 1 answers ${status(REFUSAL_STATUS.invalidPage)}. Lists are ${RULE_FORMS.listOrder.replace("-", " ")}. ` +
      "A transaction's wallet is the wallet as it is now. Get User Transactions and the trade history are paged " +
      "the same way and answer the page's items without meta.",
    why:
      "The description does not show the pagination parameters, their defaults or the order of lists; the " +
      "clients page the trade history only, and no source shows meta for these two.",
    form: { listOrder: RULE_FORMS.listOrder, ...PAGE_DEFAULTS },
  },
  {
    id: "lists.category",
    topic: "Lists",
    choice:
      "Get User Transactions keeps the transactions whose category equals the given one; a category no " +
      "transaction has (TRANSFER, say) gives an empty list, never a refusal.",
    why: "The clients send category (TRANSFER among its values); how the service filters on it is not shown.",
  },
  {
    id: "trades.summary",
    topic: "Trades",
    choice:
      "totalDollarVolume is the sum of the account's trades' dollarValue; currencyId keeps the trades whose " +
      "source or target is that currency; page and pageSize do not change it.",
    why: "The description gives the field only.",
  },
  {
    id: "wallets.balances",
    topic: "Wallets",
    choice:
      "pendingBalance, pendingSwapBalance, lockedBalance, p2pBalance and totalPendingBalance are 0 (a " +
      "withdrawal leaves the available balance at once, see withdrawals.fees); totalSwappableBalance is the " +
      "available balance. A code not in the catalogue answers " +
      `${status(REFUSAL_STATUS.notFound)}.`,
    why: "The sandbox has no pending, locked or peer-to-peer funds yet.",
  },
  {
    id: "limits.windows",
    topic: "Limits",
    choice:
      "The limits are the contract's x-rate-limits (requests per minute over all requests, Create Quote " +
      "requests per hour). A key's window of a limit opens at its first request counted there and lasts the " +
      "limit's period on the sandbox clock, so counts do not depend on the clock's start. A spent limit answers " +
      `${RATE_LIMITED_STATUS} with the published error body.`,
    why: "The description gives the figures, not how windows run.",
    override: "limits.requestsPerMinute, limits.quotesPerHour",
  },
  {
    id: "limits.counting",
    topic: "Limits",
    choice:
      "Every request counts once it passes the key and signature checks, whatever it answers, except one " +
      `refused with ${RATE_LIMITED_STATUS}. Requests without a key share one window.`,
    why: "The description does not say which requests count.",
  },
  {
    id: "limits.headers",
    topic: "Limits",
    choice:
      `${RATE_LIMIT_HEADERS.limit}, ${RATE_LIMIT_HEADERS.remaining} and ${RATE_LIMIT_HEADERS.reset} describe ` +
      "the limit with the fewest requests left among those that apply to the request (on Create Quote, the " +
      "hourly limit once it is the tighter); the reset is the end of its window in Unix seconds, rounded " +
      `${RULE_FORMS.resetRounding} (a client that waits until then is answered).`,
    why: "The description says the headers describe requests per minute; Create Quote has a second limit.",
    form: { resetRounding: RULE_FORMS.resetRounding },
  },
  {
    id: "signing",
    topic: "Signing",
    choice:
      `An account with an API secret needs ${SIGNING_HEADERS.timestamp} and ${SIGNING_HEADERS.signature} (hex ` +
      "HMAC-SHA256 of METHOD + PATH + TIMESTAMP, as the package's client signs) with a timestamp within " +
      `${SIGNATURE_WINDOW_MS / 1000} s of this machine's time or of the sandbox clock, else ` +
      `${status(REFUSAL_STATUS.badSignature)}. PATH's query is taken as sent, or with each name and value ` +
      "percent-encoded by encodeURIComponent (`:` as %3A), as the later official client signs it. Without a " +
      "secret the headers are checked for form only (the contract's patterns).",
    why:
      "Signing is observed in the official clients, which sign with their own wall clock (so a sandbox clock " +
      "moved by a test must not refuse them) and, in C2, over a query encoded otherwise than sent; which form the " +
      "service verifies, its window and its refusal are not shown.",
    override: "accounts[key].apiSecret; signatureClock",
  },
  {
    id: "webhooks.destination",
    topic: "Webhooks",
    choice:
      "An account's webhooks are POSTed to its webhookUrl (http or https, which needs a webhookSecret) with the " +
      "global fetch; an account without one hands them to the in-process onWebhook callback when given (its " +
      `answer is the number it returns or resolves to, else ${ON_WEBHOOK_DEFAULT_STATUS}; a throw or a rejection ` +
      "fails the attempt). Without " +
      "either, or without a webhookSecret, a webhook is kept in the outbox unsent, failed with no attempt. One " +
      "that cannot be signed (no Web Crypto) fails at once, its one attempt's error saying why. Redirects are " +
      "not followed. Putting or deleting an account drops its outbox.",
    why: "The Webhooks page says only that the service POSTs to the account's configured URL.",
    override: "accounts[key].webhookUrl and webhookSecret; webhooks.fetch, webhooks.onWebhook",
  },
  {
    id: "webhooks.retry",
    topic: "Webhooks",
    choice:
      "A webhook is delivered when the receiver answers 2xx. After any other answer, a refused connection or no " +
      "answer in time, the next attempt is due, on the sandbox clock, " +
      `${WEBHOOK_RETRY_DELAYS_MS.map(duration).join(", ")} after the attempt before it; after ` +
      `${WEBHOOK_RETRY_DELAYS_MS.length + 1} attempts the webhook has failed. The first attempt goes out at ` +
      "once, never awaited by the API answer; with clock.start, due retries go out when the clock is advanced. " +
      "An attempt still running when the state was saved counts, once restored, as failed.",
    why: "The retry policy is not shown by any source.",
    override: "webhooks.retry (the delays in ms)",
  },
  {
    id: "webhooks.timeout",
    topic: "Webhooks",
    choice: `An attempt waits ${WEBHOOK_TIMEOUT_MS / 1000} s (real time) for the receiver's answer, then fails.`,
    why: "The delivery timeout is not shown by any source.",
    override: "webhooks.timeoutMs",
  },
  {
    id: "webhooks.order",
    topic: "Webhooks",
    choice:
      "The webhooks of one transaction are delivered in the order they were made: a later one waits until the " +
      "one before is delivered or has failed. Those of different transactions do not wait for each other.",
    why: "No source shows an order; a withdrawal's states must not arrive reversed.",
  },
  {
    id: "webhooks.resend",
    topic: "Webhooks",
    choice:
      "Resend Webhooks and Resend Transaction Webhook send each transaction's latest webhook again, byte for " +
      "byte (so with the same signature), as a new webhook of the outbox; a transaction without a webhook (a " +
      "swap) sends nothing. An id that is not one of the caller's transactions answers " +
      `${status(REFUSAL_STATUS.notFound)} and nothing is sent.`,
    why: "The description says only that the webhooks are sent again.",
  },
  {
    id: "addresses.identifiers",
    topic: "Deposit addresses",
    choice:
      "Create Deposit Address gives one address per account, currency, network and identifier " +
      "(uniqueUserIdentifier, or purpose; both given must be equal, else " +
      `${status(REFUSAL_STATUS.invalidAddressRequest)}); the same identifier gives back the same address. ` +
      "Without an identifier it gives the account's own address of the pair (isMaster true, its " +
      "uniqueUserIdentifier the account's userId). purpose in answers is <identifier> <CURRENCY>.<NETWORK> (the " +
      "published sample's form), currencyId the catalogue currency's id, memo null. Get Deposit Addresses lists " +
      "them newest first, every one when no page or pageSize is given.",
    why: "The Collections page says an identifier used before returns its address; not what no identifier does.",
  },
  {
    id: "addresses.values",
    topic: "Deposit addresses",
    choice:
      "An address value is drawn from the state's id generator to match the network's addressRegex (Get " +
      "Withdrawal Currency Networks): literals, classes and counted repeats are followed, an open repeat (+, *, " +
      `{n,}) gives ${ADDRESS_OPEN_REPEAT} characters. A network without an addressRegex, or with one of other ` +
      `forms, gets ${ADDRESS_FALLBACK.prefix} and ${ADDRESS_FALLBACK.hexDigits} hex digits.`,
    why: "No source says how addresses are made; one that matches its network's pattern passes a client's check.",
    override: "catalogue.withdrawalNetworks (the addressRegex)",
  },
  {
    id: "addresses.not-receivable",
    topic: "Deposit addresses",
    choice:
      "Create Deposit Address for a currency and network that is not an active network of the catalogue, or " +
      `whose isReceivable is false, answers ${status(REFUSAL_STATUS.notReceivable)}; nothing is made.`,
    why: "The description says it returns an error for a non-receivable pair; the status is not shown.",
  },
  {
    id: "deposits",
    topic: "Deposits",
    choice:
      "A simulated deposit (POST /_sandbox/deposits, sandbox.deposit) is confirmed at once: a CREDIT transaction " +
      "of category DEPOSIT (reference a UUID, as the webhook sample's; description <CURRENCY> deposit on " +
      `<NETWORK>, the example's form) whose deposit is ${DEPOSIT_STATUS}, with the network's depositFee ` +
      "(receiveFeeType) " +
      "as its fee, the currency's dollar rate (as quotes read it; 0 without one) and the hash given or " +
      `${CHAIN_HASH_HEX_DIGITS} hex ` +
      "digits. The wallet is credited the amount less the fee (the fee goes nowhere in the account); one DEPOSIT " +
      "webhook is sent. By currency and network it goes to the account's latest address of the pair, or to its " +
      `own address, made then. It is refused (${DEPOSIT_REFUSAL.invalid}) below the network's minimumDeposit, ` +
      "above the currency's " +
      "maximumDeposit (when above 0), with more decimals than the currency has, with a network fee above the " +
      "amount, to an address the account was not given, or to a pair that is not receivable; an unknown key " +
      `answers ${DEPOSIT_REFUSAL.noAccount}. The currency's ` +
      "minimumDeposit, maximumDailyDepositLimit and receiveFee are not applied (the network's minimum and fee are).",
    why: `Deposit statuses other than ${DEPOSIT_STATUS} and when a deposit webhook is sent are not shown.`,
  },
  {
    id: "withdrawals.checks",
    topic: "Withdrawals",
    choice:
      "A withdrawal names its currency by its code (an id is refused). A crypto withdrawal needs a catalogue " +
      "currency that is withdrawable, a network among its withdrawal networks (and not isWithdrawable false " +
      "among its active networks), else " +
      `${status(REFUSAL_STATUS.notWithdrawable)}; an address matching the network's addressRegex, a memo ` +
      "matching its memoRegex when both are given (an empty memo is not checked; a memo for a network without a " +
      "memoRegex is taken and kept), an amount above 0 with the currency's decimals, at least the " +
      "larger of the network's minimum and the currency's minimumWithdrawal and at most its maximumWithdrawal " +
      `(when above 0), else ${status(REFUSAL_STATUS.invalidWithdrawal)}. A bank withdrawal needs a FIAT ` +
      "currency of the catalogue and the same amount rules with the currency's minimumWithdrawal. Then the " +
      "wallet must hold the amount and the fee, else " +
      `${status(REFUSAL_STATUS.balanceTooLow)}. Every refusal leaves the state as it was. A currency without ` +
      "withdrawable counts as withdrawable; without minimumWithdrawal or maximumWithdrawal, that bound is not " +
      "applied.",
    why: "The pages say the address must match addressRegex; the statuses of the refusals are not shown.",
    override: "catalogue.currencies, catalogue.networks, catalogue.withdrawalNetworks",
  },
  {
    id: "withdrawals.fees",
    topic: "Withdrawals",
    choice:
      "A withdrawal debits its amount and its fee from the available balance at once: a crypto withdrawal the " +
      "network's fee (feeType), a bank withdrawal the currency's withdrawalFee (withdrawalFeeType; PERCENTAGE is " +
      "a percentage of the amount, capped at maximumWithdrawalFee when above 0), rounded to the currency's " +
      "decimals. The transaction's amount is the amount; the fee goes nowhere in the account (no transaction " +
      "credits it): money leaves by withdrawals and fees, so every balance is its starting balance plus its " +
      "deposits (less their fees), trades, withdrawals (with their fees) and refunds. A currency without " +
      "withdrawalFee charges none; without withdrawalFeeType the fee is FLAT.",
    why: "No source shows whether the fee is taken beside the amount or from it; the bank sample shows both.",
  },
  {
    id: "withdrawals.states",
    topic: "Withdrawals",
    choice:
      `A crypto withdrawal starts ${WITHDRAWAL_FIRST_STATUS.crypto} (the webhook sample), a bank withdrawal ` +
      `${WITHDRAWAL_FIRST_STATUS.bank} (the bank sample), then ends ${WITHDRAWAL_FINAL_STATUSES.join(" or ")}; ` +
      "PROCESSING and REJECTED are never used. Each state, the first included, sends a WITHDRAWAL webhook. A " +
      "FAILED withdrawal returns its amount and fee by a CREDIT transaction of category WITHDRAWAL with the " +
      "withdrawal's reference (description Refund of external payout). A SUCCESSFUL crypto withdrawal gets a " +
      `hash (${CHAIN_HASH_HEX_DIGITS} hex digits); otherwise hash is null.`,
    why:
      "The Payouts page lists REJECTED beside FAILED and also calls SUCCESSFUL and FAILED the final states; " +
      "how a refund shows in the history is not shown.",
  },
  {
    id: "withdrawals.settlement",
    topic: "Withdrawals",
    choice:
      `A withdrawal settles ${WITHDRAWAL_SETTLEMENT.outcome} ${WITHDRAWAL_SETTLEMENT.settleAfterMs / 1000} s ` +
      "after its request on the sandbox clock, stamped with that moment: with clock.start when an advance " +
      "reaches it, with real time by a timer of the sandbox (or the first request of its key after it), unless a " +
      "test settled it first (POST /_sandbox/withdrawals/{transactionId}/settle, " +
      `sandbox.settleWithdrawal: now, SUCCESSFUL or FAILED; one already settled answers ${SETTLE_REFUSAL.settled}). ` +
      "A withdrawal " +
      "whose account was put again or deleted before its moment is not settled.",
    why: "No source shows how long a withdrawal takes or how often it fails.",
    override: "withdrawals.settleAfterMs (null: only when a test settles), withdrawals.outcome",
  },
  {
    id: "withdrawals.payouts",
    topic: "Withdrawals",
    choice:
      "List Payouts lists the bank withdrawals (a Payout is a payout to a bank account, with its bankAccount); " +
      "crypto withdrawals are in the history (category WITHDRAWAL) and Get Transaction. A payout's " +
      `transferReference (TRF-<date>-<${DATED_REFERENCE_CHARACTERS} characters>) and externalReference ` +
      `(${EXTERNAL_REFERENCE_FORM.prefix} and ${EXTERNAL_REFERENCE_FORM.digits} digits), the payouts ` +
      "example's forms, are made with it; its dollarValue is the amount at the currency's dollar rate, to " +
      "cents, its bitcoinValue that over the BTC dollar rate (0 without one). The list shows the account number " +
      `as ${ACCOUNT_NUMBER_MASK} and its last 4 characters; the withdrawal's answer shows it as sent.`,
    why: "The Payout schema needs a bank account and string references, which the request's sample has as null.",
  },
  {
    id: "webhooks.payloads",
    topic: "Webhooks",
    choice:
      "A webhook body is the published sample's keys in its order, from the transaction as it is now: amount the " +
      "transaction's amount, createdAt its creation, lastUpdated its last change. A bank withdrawal's has no " +
      "network and its address is the account number.",
    why: "The Webhooks page shows a crypto withdrawal and a deposit only.",
  },
  {
    id: "lists.filters",
    topic: "Lists",
    choice:
      "List Deposits and List Payouts keep the items of currencyId (a currency's id), of status (exactly), " +
      "created at or after startDate and at or before endDate (ISO 8601 dates, or date-times with their offset; " +
      `a date alone is its whole day, UTC); another date answers ${status(REFUSAL_STATUS.invalidPage)}. ` +
      "meta counts the kept items.",
    why: "The client sends these filters; their values and date format are not shown.",
  },
  {
    id: "answers.unmodelled",
    topic: "Answers",
    choice:
      "Operations the sandbox does not model yet answer their documented example (Prefer picks another, as in " +
      `the mock): ${UNMODELLED_OPERATIONS.join(", ")}. Modelled operations ignore Prefer.`,
    why: "Invoices, the tradeable currencies and the payment rails come in a later version of the sandbox.",
  },
  {
    id: "answers.identity",
    topic: "Answers",
    choice:
      `Every API answer carries ${MOCK_IDENTITY_HEADER} with the package's version, the header of the package's ` +
      `mock (so api-contract wait --ready-file takes its URL), and ${SANDBOX_IDENTITY_HEADER} with it, so ` +
      "api-contract verify tells the sandbox from the mock and from a deployment.",
    why: "The header is the package's own, not the service's; the contract lets undeclared headers through.",
  },
  {
    id: "answers.checked",
    topic: "Answers",
    choice:
      "Every answer is checked with the contract validator before it is sent; one that fails is answered 500 " +
      "with the violation in the published error body and logged (a sandbox bug).",
    why: "The sandbox must never teach a client something the contract does not allow.",
    override: "log",
  },
  {
    id: "answers.http",
    topic: "Answers",
    choice:
      "Over HTTP (api-contract sandbox), the shared HTTP front refuses what only a transport sees, closing the " +
      `connection: a request body over maxBodyBytes (default ${DEFAULT_MAX_BODY_BYTES / MIB} MiB) 413, a request ` +
      `not arrived within ${DEFAULT_REQUEST_TIMEOUT_MS / 1000} s 408, a URL over ${MAX_URL_BYTES / KIB} KiB 414, ` +
      `header fields over ${MAX_HEADER_BYTES / KIB} KiB 431, a request Node cannot parse 400. A failure inside ` +
      "the sandbox, or an answer Node refuses to write, answers 400 and is logged. Every API answer (under /v1) " +
      "allows any origin (a CORS preflight answers 204); the control API answers only its own (control.origin).",
    why: "No source gives a request size limit or the service's CORS policy; 413 is not among the published statuses.",
  },
  {
    id: "control.origin",
    topic: "Control API",
    choice:
      "Over HTTP the control API (/_sandbox) answers only its own origin: its answers carry no CORS header; a " +
      `CORS preflight for it answers ${status(CONTROL_ORIGIN_REFUSAL.preflight)}, a request whose Origin is ` +
      `another origin ${status(CONTROL_ORIGIN_REFUSAL.origin)}, one whose Host (or absolute target) names ` +
      `another host or port ${status(CONTROL_ORIGIN_REFUSAL.host)}. It answers to 127.0.0.1, localhost, ` +
      "[::1] and the address it listens on (for 0.0.0.0 and ::, the machine's addresses at start), with its " +
      "port; off loopback a token is required as well. The API under /v1 keeps its CORS headers. In-process " +
      "(sandbox.fetch) and through MSW nothing is checked: no socket is open and the caller holds the sandbox.",
    why:
      "Without a token (on loopback, the default) the control API gives every account's secrets and rewrites " +
      "the state: a page of another origin, or one whose name was rebound to 127.0.0.1, must not reach it.",
  },
  {
    id: "webhooks.request",
    topic: "Webhooks",
    choice:
      `A webhook is POSTed with Content-Type: application/json and ${WEBHOOK_SIGNATURE_HEADER} in lowercase ` +
      "hex, and no other header of its own. Its body is the payload as JSON.stringify writes it (no spaces, keys " +
      "in the payload's order), so JSON.stringify(JSON.parse(body)) gives back its bytes.",
    why:
      `The Webhooks page gives the hex HMAC-SHA512 of the raw body in ${WEBHOOK_SIGNATURE_HEADER}; the hex case, ` +
      "the body's bytes (spacing, key order, number forms) and the request's other headers are not shown.",
  },
  {
    id: "withdrawals.records",
    topic: "Withdrawals",
    choice:
      "A withdrawal's transaction has a UUID reference and the description of the crypto sample (External payout), " +
      "bank withdrawals too; its refund's description is Refund of and that description in lower case.",
    why: "No source shows how a withdrawal's reference is made or how a refund is described.",
  },
];
