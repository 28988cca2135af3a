// The money-flow requests of the shared facts (§1: what the official clients send and the reference pages
// publish), written BY HAND from the facts' table like test/spec/observed.ts, sent signed to the mock that
// `npm start` serves: each is a request the contract accepts, and each gets 200 from the operation it names
// with a body that meets the contract. Where the sources disagree (the identifier's name, the 2023 client's
// merchantCode), each variant is sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigner } from "../../src/client/signing.js";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { API_KEY_HEADER, SIGNING_HEADERS, sharedValidator } from "../support/spec.js";

const validator = sharedValidator();
/** A fixed clock: the mock does not check the signature's age. */
const sign = createSigner("money-flow-secret", () => 1_700_000_000_000);

interface FactRequest {
  name: string;
  method: "GET" | "POST";
  /** Path and query relative to the base URL, as the clients send them. */
  path: string;
  /** The JSON body, if the request has one. */
  body?: Record<string, unknown>;
  /** The operation that must answer (the literal paths win over templates). */
  operationId: string;
}

const REQUESTS: FactRequest[] = [
  { name: "C1, C2: the currencies", method: "GET", path: "/currencies", operationId: "getCurrencies" },
  {
    name: "C2: the tradeable currencies",
    method: "GET",
    path: "/currencies/tradeable",
    operationId: "getTradeableCurrencies",
  },
  {
    name: "C1, C2: a currency's pairs",
    method: "GET",
    path: "/currencies/cur-usdt-0001/pairs",
    operationId: "getCurrencyPairs",
  },
  { name: "C1, C2: every trade pair", method: "GET", path: "/trades/pairs", operationId: "getTradePairs" },
  {
    name: "C1, C2: the trade history, page 1 of 30",
    method: "GET",
    path: "/trades/me?page=1&pageSize=30",
    operationId: "getTradeHistory",
  },
  {
    name: "C2, P: Create Deposit Address with uniqueUserIdentifier",
    method: "POST",
    path: "/addresses/broker",
    body: { uniqueUserIdentifier: "urbjreghuhubqvehvf", currency: "ETH", network: "ETH" },
    operationId: "createDepositAddress",
  },
  {
    name: "C1: Create Deposit Address with the identifier as purpose",
    method: "POST",
    path: "/addresses/broker",
    body: { purpose: "customer-0001", currency: "USDT", network: "TRX" },
    operationId: "createDepositAddress",
  },
  {
    name: "C1, C2, P: Request Crypto Withdrawal with a memo",
    method: "POST",
    path: "/wallets/ext/debit/crypto",
    body: {
      destination: { address: "wallet-address", network: "BSC", memo: "" },
      amount: 1,
      currency: "USDT",
      narration: "n",
    },
    operationId: "requestCryptoWithdrawal",
  },
  {
    name: "C1, C2, P: Request Crypto Withdrawal without a memo",
    method: "POST",
    path: "/wallets/ext/debit/crypto",
    body: { destination: { address: "wallet-address", network: "BSC" }, amount: 10, currency: "USDT", narration: "n" },
    operationId: "requestCryptoWithdrawal",
  },
  {
    name: "C2, P: Request Bank Account Withdrawal",
    method: "POST",
    path: "/wallets/ext/debit/fiat",
    body: {
      destination: { accountNumber: "0123456789", accountName: "Jane Doe", bankName: "OPAY", bankCode: "999992" },
      amount: 15000,
      currency: "NGNX",
      narration: "first withdrawal",
    },
    operationId: "requestBankWithdrawal",
  },
  {
    name: "C1: Request Bank Account Withdrawal in NGNX with a merchantCode in destination",
    method: "POST",
    path: "/wallets/ext/debit/fiat",
    body: {
      destination: {
        accountNumber: "0123456789",
        accountName: "Jane Doe",
        bankName: "OPAY",
        bankCode: "999992",
        merchantCode: "merchant-0001",
      },
      amount: 15000,
      currency: "NGNX",
      narration: "first withdrawal",
    },
    operationId: "requestBankWithdrawal",
  },
  { name: "C2: all my wallets", method: "GET", path: "/wallets/me", operationId: "getMyWallets" },
  { name: "C1, C2: one transaction", method: "GET", path: "/transactions/txn-0001", operationId: "getTransaction" },
  {
    name: "C2: resend one transaction's webhook, no body",
    method: "POST",
    path: "/transactions/txn-0001/resendWebhook",
    operationId: "resendTransactionWebhook",
  },
];

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.stop();
});

async function send(request: FactRequest): Promise<Response> {
  const url = `${mock.baseUrl}${request.path}`;
  const { timestamp, signature } = await sign(request.method, url);
  const headers: Record<string, string> = {
    [API_KEY_HEADER]: "money-flow-key",
    [SIGNING_HEADERS.timestamp]: timestamp,
    [SIGNING_HEADERS.signature]: signature,
  };
  if (request.body !== undefined) headers["content-type"] = "application/json";
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  return fetch(url, { method: request.method, headers, body });
}

describe("the money-flow requests of the facts against the mock", () => {
  it.each(REQUESTS.map((request) => [request.name, request] as const))("%s", async (_, request) => {
    const path = new URL(`${mock.baseUrl}${request.path}`).pathname;
    expect(validator.findOperation(request.method, path)?.operationId, "the operation that answers").toBe(
      request.operationId,
    );
    if (request.body !== undefined)
      expect(
        validator.validateRequestBody(request.method, path, request.body),
        "the contract accepts the body",
      ).toEqual([]);
    const response = await send(request);
    const bodyText = await response.text();
    expect(response.status, bodyText.slice(0, 300)).toBe(200);
    const result = validator.validateResponse({
      method: request.method,
      path,
      status: response.status,
      headers: response.headers,
      bodyText,
    });
    expect(result.violations).toEqual([]);
    expect(result.operation?.operationId).toBe(request.operationId);
  });

  it("answers /wallets/me with a list of wallets, not the one wallet of a currency code", async () => {
    const response = await send(REQUESTS.find((request) => request.path === "/wallets/me")!);
    expect(Array.isArray(((await response.json()) as { data: unknown }).data)).toBe(true);
  });
});
