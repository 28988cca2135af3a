// The values of the sandbox's rules: statuses, windows, defaults, forms. Where the service's description and the
// published and observed facts (../shared/observed) do not say how the service behaves, the sandbox decides, once,
// here; every place that applies a rule reads its value from this file, and the register's prose (choices.ts)
// interpolates the same values, so what users read is the behaviour, not a description of it.

/**
 * How Create Quote reads sourceId, targetId and side ("quotes.sides"). `pair`, as the official clients send it:
 * source and target name the catalogue's pair (left, right); SELL pays the source, BUY pays the target.
 * `source-pays`, as the published pages say accepting works: the source is always paid; SELL sells USDT (source
 * USDT), BUY buys USDT (target USDT). Either way `amount` is in the currency paid.
 */
export const QUOTE_SIDE_READINGS = ["pair", "source-pays"] as const;
export type QuoteSideReading = (typeof QUOTE_SIDE_READINGS)[number];
export const DEFAULT_QUOTE_SIDE_READING: QuoteSideReading = "pair";

/** How a value is brought to a whole number (of minor units, of seconds). */
export type Rounding = "down" | "up" | "nearest";

/**
 * The forms of the sandbox's rules as values the code reads and the register shows (each entry's `form`), so the
 * prose, GET /_sandbox/choices and the behaviour cannot drift apart. A test pins each with literal values.
 */
export const RULE_FORMS = {
  /** "quotes.expired": a quote is refused from its expiryDate on ("at-expiry") or only after it ("after-expiry"). */
  quoteExpiry: "at-expiry" as "at-expiry" | "after-expiry",
  /** "quotes.rounding": amountReceived to the received currency's decimals, read at 15 significant digits. */
  amountReceivedRounding: "down" as Rounding,
  /** "lists.pagination": the order of every list. */
  listOrder: "newest-first" as "newest-first" | "oldest-first",
  /** "limits.headers": the window's end brought to a whole Unix second. */
  resetRounding: "up" as Rounding,
};

/** The statuses of the sandbox's refusals (all among the statuses the Errors page publishes). */
export const REFUSAL_STATUS = {
  unknownKey: 401,
  keylessAccountRead: 401,
  badSignature: 401,
  notBusiness: 403,
  notFound: 404,
  quoteExpired: 400,
  quoteAccepted: 400,
  balanceTooLow: 400,
  balanceTooHigh: 400,
  quoteNotTradable: 400,
  invalidQuoteRequest: 422,
  invalidPage: 422,
  notReceivable: 400,
  invalidAddressRequest: 422,
  notWithdrawable: 400,
  invalidWithdrawal: 422,
} as const;

/** The control API's refusals of a simulated deposit (its document's statuses). */
export const DEPOSIT_REFUSAL = { invalid: 400, noAccount: 404 } as const;

/** The control API's refusals of a settlement (its document's statuses). */
export const SETTLE_REFUSAL = { invalid: 400, unknown: 404, settled: 409 } as const;

/**
 * The HTTP front's refusals of a control request from elsewhere than the sandbox's own origin ("control.origin"):
 * a CORS preflight and a foreign Origin 403; a Host the sandbox does not answer for 421 (RFC 9110 §15.5.20: the
 * request names an authority this server does not answer for, which 403 would not tell apart from an Origin).
 */
export const CONTROL_ORIGIN_REFUSAL = { preflight: 403, origin: 403, host: 421 } as const;

/** A simulated deposit's one state: it is confirmed at once ("deposits"). */
export const DEPOSIT_STATUS = "CONFIRMED";

/** A withdrawal's first state, as the published samples show it: PENDING (crypto), APPROVED (bank). */
export const WITHDRAWAL_FIRST_STATUS = { crypto: "PENDING", bank: "APPROVED" } as const;

/** The states a withdrawal ends in (REJECTED is never used: choices.ts, "withdrawals.states"). */
export const WITHDRAWAL_FINAL_STATUSES = ["SUCCESSFUL", "FAILED"] as const;

/** Whether `status` is one a withdrawal ends in. */
export const isWithdrawalFinal = (status: unknown): status is (typeof WITHDRAWAL_FINAL_STATUSES)[number] =>
  (WITHDRAWAL_FINAL_STATUSES as readonly unknown[]).includes(status);

/** When and how a withdrawal settles on the sandbox clock when no test settles it first. */
export const WITHDRAWAL_SETTLEMENT = { settleAfterMs: 60_000, outcome: "SUCCESSFUL" } as const;

/** Repeats of an open quantifier (+, *, {n,}) when an address is generated from an addressRegex. */
export const ADDRESS_OPEN_REPEAT = 32;

/** The address of a network without an addressRegex the sandbox can follow: 0x and 40 hex digits (EVM form). */
export const ADDRESS_FALLBACK = { prefix: "0x", hexDigits: 40 } as const;

/** What replaces all but the last 4 digits of an account number in the payouts list (the example's form). */
export const ACCOUNT_NUMBER_MASK = "******";

/**
 * The moments the sandbox clock may show (ms since the epoch): the timestamps it writes are RFC 3339 with four-digit
 * years, and a day is left before year 10000 for what is dated after now (a quote's expiry, a limit's reset).
 */
export const CLOCK_RANGE = {
  earliest: Date.parse("0000-01-01T00:00:00.000Z"),
  latest: Date.parse("9999-12-30T23:59:59.999Z"),
} as const;

/** How far (ms, either way) a signed request's timestamp may be from this machine's time or the sandbox clock. */
export const SIGNATURE_WINDOW_MS = 5 * 60_000;

/** Pagination where a request gives none (the official client's own defaults, observed). */
export const PAGE_DEFAULTS = { page: 1, pageSize: 30 } as const;

/** Decimal places of a currency whose catalogue entry gives no maximumDecimalPlaces. */
export const DEFAULT_DECIMAL_PLACES = 6;

/**
 * The most minor units an amount or a balance holds ("money.exact"): the sandbox computes amounts at 15 significant
 * digits (state.ts), so whole minor units are exact up to 15 digits, and a sum of two stays a safe integer.
 */
export const MAX_MINOR_UNITS = 999_999_999_999_999;

/** The most decimal places a catalogue currency may have: a minor unit finer than 15 digits is never exact. */
export const MAX_DECIMAL_PLACES = 15;

/** A trade's dollarValue is kept to cents. */
export const DOLLAR_VALUE_DECIMALS = 2;

/**
 * Webhook retries: after a failed attempt (not 2xx, refused, no answer in time) the next one is due this long
 * after it started, on the sandbox clock (1 min, 5 min, 30 min, 2 h, 8 h); after the last, the webhook has failed.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [60_000, 300_000, 1_800_000, 7_200_000, 28_800_000];

/** How long (real milliseconds: the receiver is real) a webhook delivery attempt waits for an answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** A quote id: the prefix, random letters or digits, then a counter (the documented example's 16 characters). */
export const QUOTE_ID_FORM = { prefix: "qt_", randomLength: 10, counterLength: 6 } as const;

/** An on-chain hash the sandbox writes: hex digits (the deposits example's form). */
export const CHAIN_HASH_HEX_DIGITS = 64;

/** A payout's external reference: the prefix and digits (the payouts example's form). */
export const EXTERNAL_REFERENCE_FORM = { prefix: "EXT-", digits: 10 } as const;

/** A dated reference (TRD, TRF): `<prefix>-<yyyymmdd>-` and characters (the examples' form). */
export const DATED_REFERENCE_CHARACTERS = 6;

/** The status a spent rate limit answers (the Errors page's RATE_LIMIT_EXCEEDED). */
export const RATE_LIMITED_STATUS = 429;

/** The answer of an in-process onWebhook callback that returns no number. */
export const ON_WEBHOOK_DEFAULT_STATUS = 200;
