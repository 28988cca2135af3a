// Upload Invoice Document as the service's later official Node client uses it (../shared/observed/README.md §5,
// C2): it POSTs the document as multipart/form-data, one part `file`, takes the answer's body (the envelope) and
// returns its `data.url`, the URL it later sends as Create Invoice's `invoiceDocument`. Against the Prism mock
// (over a socket), ./msw's handlers (msw's getResponse) and the sandbox in-process (createSandbox), that URL is the
// documented example's, a string, and every answer meets the contract; the package's typed client reads it as
// `data.url` too. The contract keeps data open beyond url (other fields: not shown) and refuses a bare string.
import { getResponse } from "msw";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, MOCK_BASE_URL } from "../../src/index.js";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { createHandlers } from "../../src/msw/index.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { API_KEY_HEADER, BASE_PATH, RATE_LIMIT_HEADERS, requestExample, sharedValidator } from "../support/spec.js";

/** The documented example's URL, written out by hand (Create Invoice's example sends the same one). */
const EXAMPLE_URL = "https://storage.host.invalid/invoices/INV-DOC-20261122-7K2P.pdf";
const PATH = "/uploads/invoices";
const KEY = "upload-key";
const SANDBOX_ORIGIN = "http://sandbox.test";
const validator = sharedValidator();

/** The upload as C2 sends it: one part, `file`, a PDF's bytes under a file name. */
function uploadForm(): FormData {
  const form = new FormData();
  const pdf = Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a]); // "%PDF-1.7\n"
  form.append("file", new Blob([pdf], { type: "application/pdf" }), "invoice.pdf");
  return form;
}

const uploadRequest = (baseUrl: string) =>
  new Request(`${baseUrl}${PATH}`, { method: "POST", headers: { [API_KEY_HEADER]: KEY }, body: uploadForm() });

/** What C2 returns from an answer: the envelope's data.url; the answer is checked against the contract first. */
async function officialClientUrl(response: Response): Promise<unknown> {
  const bodyText = await response.text();
  const judged = validator.validateResponse({
    method: "POST",
    path: `${BASE_PATH}${PATH}`,
    status: response.status,
    headers: response.headers,
    bodyText,
  });
  expect(judged.violations).toEqual([]);
  expect(response.status).toBe(200);
  const body = JSON.parse(bodyText) as { data: { url: unknown } };
  return body.data.url;
}

function expectDocumentUrl(url: unknown): void {
  expect(typeof url).toBe("string");
  expect(url).toBe(EXAMPLE_URL);
  expect(new URL(url as string).protocol).toBe("https:");
}

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.stop();
});

describe("Upload Invoice Document, read as the official client reads it (data.url)", () => {
  it("the mock (Prism) answers the document's URL in data.url", async () => {
    expectDocumentUrl(await officialClientUrl(await fetch(uploadRequest(mock.baseUrl))));
  });

  it("./msw's handlers answer the document's URL in data.url", async () => {
    const response = await getResponse(createHandlers(), uploadRequest(MOCK_BASE_URL));
    expect(response, "a handler answered").toBeDefined();
    expectDocumentUrl(await officialClientUrl(response!));
  });

  it("the sandbox (in-process) answers the document's URL in data.url, which Create Invoice then takes", async () => {
    const sandbox = createSandbox({ clock: { start: Date.UTC(2026, 10, 22, 10) } });
    const url = await officialClientUrl(await sandbox.fetch(uploadRequest(`${SANDBOX_ORIGIN}${BASE_PATH}`)));
    expectDocumentUrl(url);
    const invoice = await sandbox.fetch(
      new Request(`${SANDBOX_ORIGIN}${BASE_PATH}/invoices`, {
        method: "POST",
        headers: { [API_KEY_HEADER]: KEY, "content-type": "application/json" },
        body: JSON.stringify({ ...requestExample("createInvoice"), invoiceDocument: url }),
      }),
    );
    expect(invoice.status).toBe(200);
  });

  it("the package's typed client reads it as data.url", async () => {
    const sandbox = createSandbox({ clock: { start: Date.UTC(2026, 10, 22, 10) } });
    const client = createClient({
      baseUrl: `${SANDBOX_ORIGIN}${BASE_PATH}`,
      apiKey: KEY,
      retry: false,
      fetch: (request) => sandbox.fetch(request),
    });
    const { data, response } = await client.POST(PATH, {
      body: { file: "%PDF-1.7" },
      bodySerializer: (fields: { file: string }) => {
        const form = new FormData();
        form.append("file", fields.file);
        return form;
      },
    });
    expect(response.status).toBe(200);
    expectDocumentUrl(data?.data.url);
  });
});

describe("the contract's answer of Upload Invoice Document", () => {
  const headers = {
    [RATE_LIMIT_HEADERS.limit]: "200",
    [RATE_LIMIT_HEADERS.remaining]: "199",
    [RATE_LIMIT_HEADERS.reset]: "1795000000",
    "content-type": "application/json",
  };
  const judge = (data: unknown) =>
    validator
      .validateResponse({
        method: "POST",
        path: `${BASE_PATH}${PATH}`,
        status: 200,
        headers,
        bodyText: JSON.stringify({ message: "Request successful", data }),
      })
      .violations.map((violation) => violation.message);

  it("takes data with url and fields not shown; refuses a bare string, no url or a url not a string", () => {
    const cases: Array<[string, unknown, boolean]> = [
      ["url only", { url: EXAMPLE_URL }, true],
      ["url and another field (other fields: not shown)", { url: EXAMPLE_URL, key: "invoices/doc.pdf" }, true],
      ["a bare string (the former example)", EXAMPLE_URL, false],
      ["an object without url", { location: EXAMPLE_URL }, false],
      ["url a number", { url: 1 }, false],
    ];
    const judged = cases.map(([name, data]) => [name, judge(data).length === 0]);
    expect(judged).toEqual(cases.map(([name, , passes]) => [name, passes]));
  });
});
