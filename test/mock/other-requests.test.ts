// The other requests of the shared facts (§1: invoices, the invoice upload, NGN and GHS payments), written BY HAND
// from the facts' table like test/spec/observed.ts, sent signed to the mock that `npm start` serves: each is a
// request the contract accepts (parameters and body), and each gets 200 from the operation it names with a body
// that meets the contract. The upload is sent as multipart/form-data with a file's bytes, as the later client does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigner } from "../../src/client/signing.js";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { API_KEY_HEADER, SIGNING_HEADERS, sharedValidator } from "../support/spec.js";

const validator = sharedValidator();
/** A fixed clock: the mock does not check the signature's age. */
const sign = createSigner("other-requests-secret", () => 1_700_000_000_000);

interface FactRequest {
  name: string;
  method: "GET" | "POST" | "PUT";
  /** Path and query relative to the base URL, as the clients send them. */
  path: string;
  /** The JSON body, if the request has one. */
  body?: Record<string, unknown>;
  /** A multipart/form-data body (its parts), if the request has one. */
  form?: () => FormData;
  /** The operation that must answer (the literal paths win over templates). */
  operationId: string;
}

/** C2's upload: one part, `file`, a PDF's bytes. */
function pdfUpload(): FormData {
  const form = new FormData();
  const bytes = Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0xe2, 0xe3, 0xcf, 0xd3]);
  form.append("file", new Blob([bytes], { type: "application/pdf" }), "invoice.pdf");
  return form;
}

const REQUESTS: FactRequest[] = [
  {
    name: "C2: create an invoice",
    method: "POST",
    path: "/invoices",
    body: {
      targetAmount: 1000,
      source: "NGNX",
      target: "USD",
      purposeOfPayment: "Goods",
      invoiceDocument: "https://files.example.invalid/invoice.pdf",
      destination: {
        accountName: "Acme Ltd",
        accountNumber: "12345678",
        swiftCode: "ABCDGB2L",
        bankName: "Bank",
        bankCode: "001",
        bankCountry: "GB",
        bankAddress: "1 Street, London",
        beneficiaryName: "Acme Ltd",
        beneficiaryAddress: "2 Road, London",
        beneficiaryCountryCode: "GB",
        beneficiaryCountryOfResidence: "GB",
      },
    },
    operationId: "createInvoice",
  },
  { name: "C2: one invoice", method: "GET", path: "/invoices/inv-0001", operationId: "getInvoice" },
  {
    name: "the description: my invoices (me wins)",
    method: "GET",
    path: "/invoices/me",
    operationId: "listMyInvoices",
  },
  {
    name: "C2: upload an invoice document (multipart, a PDF)",
    method: "POST",
    path: "/uploads/invoices",
    form: pdfUpload,
    operationId: "uploadInvoiceDocument",
  },
  { name: "C1, C2: the NGN banks", method: "GET", path: "/ngn-payments/banks", operationId: "listNgnBanks" },
  {
    name: "C1, C2: the fiat merchants, a page",
    method: "GET",
    path: "/ngn-payments/merchants?page=1&pageSize=30",
    operationId: "listNgnMerchants",
  },
  {
    name: "C1, C2: the fiat merchants, no page given (empty values are not sent)",
    method: "GET",
    path: "/ngn-payments/merchants",
    operationId: "listNgnMerchants",
  },
  {
    name: "C1, C2: resolve an NGN bank account",
    method: "GET",
    path: "/ngn-payments/accounts/resolve?bankId=bank-0001&accountNumber=0123456789",
    operationId: "resolveNgnAccount",
  },
  {
    name: "C1, C2: an NGN deposit through a merchant",
    method: "POST",
    path: "/ngn-payments/deposits",
    body: { merchantCode: "merchant-0001", amount: 5000 },
    operationId: "createNgnDeposit",
  },
  {
    name: "C1, C2: PUT an NGN deposit, no body",
    method: "PUT",
    path: "/ngn-payments/deposits/ref-0001",
    operationId: "updateNgnDeposit",
  },
  {
    name: "C1, C2: PUT an NGN withdrawal, no body",
    method: "PUT",
    path: "/ngn-payments/withdrawals/ref-0001",
    operationId: "updateNgnWithdrawal",
  },
  { name: "C2: the GHS banks", method: "GET", path: "/ghs-payments/banks", operationId: "listGhsBanks" },
  {
    name: "C2: the GHS mobile networks",
    method: "GET",
    path: "/ghs-payments/mobile/networks",
    operationId: "listGhsMobileNetworks",
  },
  {
    name: "C2: resolve a GHS mobile money account (network code VOD)",
    method: "GET",
    path: "/ghs-payments/accounts/resolve?bankCode=VOD&accountNumber=0201234567",
    operationId: "resolveGhsAccount",
  },
  {
    name: "C2: resolve a GHS bank account (a bank sort code)",
    method: "GET",
    path: "/ghs-payments/accounts/resolve?bankCode=030100&accountNumber=1234567890123",
    operationId: "resolveGhsAccount",
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
    [API_KEY_HEADER]: "other-requests-key",
    [SIGNING_HEADERS.timestamp]: timestamp,
    [SIGNING_HEADERS.signature]: signature,
  };
  if (request.body !== undefined) headers["content-type"] = "application/json";
  // FormData sets its own content type, with the boundary.
  const body = request.form ? request.form() : request.body === undefined ? undefined : JSON.stringify(request.body);
  return fetch(url, { method: request.method, headers, body });
}

describe("the other requests of the facts against the mock", () => {
  it.each(REQUESTS.map((request) => [request.name, request] as const))("%s", async (_, request) => {
    const url = `${mock.baseUrl}${request.path}`;
    const path = new URL(url).pathname;
    expect(validator.findOperation(request.method, path)?.operationId, "the operation that answers").toBe(
      request.operationId,
    );
    expect(
      validator.validateRequestParameters(request.method, url, { [API_KEY_HEADER]: "k" }),
      "the contract accepts the parameters",
    ).toEqual([]);
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

  it("answers Resolve GHS Account with one account and Resolve NGN Bank Account with a list", async () => {
    const data = async (path: string) => {
      const response = await send(REQUESTS.find((request) => request.path.startsWith(path))!);
      return ((await response.json()) as { data: unknown }).data;
    };
    expect(Array.isArray(await data("/ghs-payments/accounts/resolve"))).toBe(false);
    expect(Array.isArray(await data("/ngn-payments/accounts/resolve"))).toBe(true);
  });
});
