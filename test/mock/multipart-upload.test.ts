// A request whose body is multipart/form-data (Upload Invoice Document, observed in the official client): the mock
// judges its parts against the contract (the pipeline, before Prism's engine), the ./msw and sandbox pipelines
// judge them the same way (a missing or unknown part, a part too long, a body that does not parse), and the package's
// client sends one as FormData, its answer passing the contract validator.
// The operations, the part names and the size bound are read from the contract.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractMiddleware, type ContractResult } from "../../src/contract/index.js";
import { createClient } from "../../src/index.js";
import { createDocumentedSource } from "../../src/pipeline/documented-source.js";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { createRequestPipeline } from "../../src/pipeline/pipeline.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { multipartMedia, schemaView } from "../../src/openapi/index.js";
import {
  API_KEY_HEADER,
  BASE_PATH,
  buildSampleRequest,
  deref,
  type JsonObject,
  jsonMedia,
  listSpecOperations,
  loadSpec,
  sharedValidator,
} from "../support/spec.js";

const spec = loadSpec();
const validator = sharedValidator();
/** Operations whose request body is multipart/form-data only. */
const uploads = listSpecOperations(spec).filter(
  (op) => !jsonMedia(op.requestBody) && multipartMedia(op.requestBody) !== undefined,
);
const rows = uploads.map((op) => [`${op.method} ${op.path}`, op] as const);

/** The multipart body's schema of `op`: its parts (properties), the required ones, and a part's maxLength. */
function partsOf(op: (typeof uploads)[number]) {
  const view = schemaView(spec, multipartMedia(op.requestBody)!.schema);
  const maxLength = (name: string) =>
    view.properties
      .get(name)
      ?.map((schema) => (deref(spec, schema) as JsonObject).maxLength)
      .find((value): value is number => typeof value === "number");
  return { names: [...view.properties.keys()], required: [...view.required], maxLength };
}

/** FormData of the given parts; a part is a string or bytes (sent as a file). */
function formOf(parts: Record<string, string | Uint8Array>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, new Blob([value as BlobPart]), `${name}.pdf`);
  }
  return form;
}

/** The first required part with a maxLength, and a form of the required parts with that part `length` long. */
function boundedPart(op: (typeof uploads)[number]) {
  const { required, maxLength } = partsOf(op);
  const [name, max] = required.map((part) => [part, maxLength(part)] as const).find(([, m]) => m !== undefined)!;
  const form = (length: number) =>
    formOf({ ...Object.fromEntries(required.map((p) => [p, "x"])), [name]: "x".repeat(length) });
  return { name, max: max!, form };
}

const keyed = { [API_KEY_HEADER]: "any-key" };

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.stop();
});

it("finds the multipart operation of the contract (Upload Invoice Document)", () => {
  expect(uploads.map((op) => op.operationId)).toContain("uploadInvoiceDocument");
});

describe.each(rows)("%s on the mock", (_, op) => {
  const { names, required, maxLength } = partsOf(op);
  const send = (body: FormData | string | undefined, headers: Record<string, string> = {}) =>
    fetch(`${mock.baseUrl}${op.path}`, { method: op.method, headers: { ...keyed, ...headers }, body });
  const judged = async (response: Response) =>
    validator.validateResponse({
      method: op.method,
      path: op.path,
      status: response.status,
      headers: response.headers,
      bodyText: await response.text(),
    });

  it("declares required parts, one of them bounded in length", () => {
    expect(required.length).toBeGreaterThan(0);
    expect(required.some((name) => maxLength(name) !== undefined)).toBe(true);
  });

  it("answers the documented example, sent as multipart/form-data, with 2xx that meets the contract", async () => {
    const sample = buildSampleRequest(spec, op);
    expect(sample.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const response = await send(sample.body, sample.headers);
    expect(response.status).toBe(200);
    expect((await judged(response)).violations).toEqual([]);
  });

  it("takes binary bytes in a file part (any byte, as a file's would be)", async () => {
    const bytes = Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x0d, 0x0a, 0x80]);
    const response = await send(formOf(Object.fromEntries(required.map((name) => [name, bytes]))));
    expect(response.status).toBe(200);
  });

  it("refuses a request without a body, and one without a required part, with 422", async () => {
    expect((await send(undefined)).status).toBe(422);
    const others = formOf({ notAPart: "x" });
    expect(names).not.toContain("notAPart");
    expect((await send(others)).status).toBe(422);
  });

  it("refuses a multipart body that does not parse with 400, the published error body saying so", async () => {
    const { body } = await textOf(formOf(Object.fromEntries(required.map((p) => [p, "x"]))));
    const response = await send(body, { "content-type": "multipart/form-data" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/multipart\/form-data body/);
  });

  it("takes a part of its maximum length and refuses one a character longer with 422", async () => {
    const { name, max, form } = boundedPart(op);
    expect((await send(form(max))).status).toBe(200);
    const over = await send(form(max + 1));
    expect(over.status).toBe(422);
    expect(over.headers.get("sl-violations")).toContain(name);
  });

  it("reports the findings about a part as the request's, in sl-violations and the error body", async () => {
    const { name, max, form } = boundedPart(op);
    const over = await send(form(max + 1));
    expect(over.status).toBe(422);
    const found = JSON.parse(over.headers.get("sl-violations") ?? "[]") as Array<{ location: string[] }>;
    expect(found.length).toBeGreaterThan(0);
    expect(found.map((finding) => finding.location[0])).toEqual(found.map(() => "request"));
    const body = (await over.json()) as { message: string; errors: Array<{ message: string }> };
    expect(body.errors).toHaveLength(found.length);
    expect(body.message).toContain(name);
  });

  it("is sent by the package's client as FormData (a body serializer), its answer meeting the contract", async () => {
    const reported: ContractResult[] = [];
    const client = createClient({ baseUrl: mock.baseUrl, apiKey: "any-key", apiSecret: "any-secret", retry: false });
    client.use(contractMiddleware(validator, { mode: "report", onViolation: (result) => reported.push(result) }));
    const call = client.request as unknown as (m: string, p: string, i: unknown) => Promise<{ response: Response }>;
    const { response } = await call(op.method.toLowerCase(), op.path, {
      body: Object.fromEntries(required.map((name) => [name, "%PDF-1.7"])),
      bodySerializer: (fields: Record<string, string>) => formOf(fields),
    });
    expect(response.status).toBe(200);
    expect(reported).toEqual([]);
  });
});

/** A FormData body as the text and content type a pipeline is given (what the HTTP and Fetch fronts read). */
async function textOf(form: FormData): Promise<{ body: string; headers: Record<string, string> }> {
  const request = new Request("http://multipart.invalid/", { method: "POST", body: form });
  return { body: await request.text(), headers: { "content-type": request.headers.get("content-type")! } };
}

/** The pipelines with no Prism behind them: ./msw's (documented examples) and the sandbox's. */
const pipelines = [
  [
    "the ./msw pipeline (documented examples)",
    () => createRequestPipeline({ spec, source: createDocumentedSource(spec), basePaths: [BASE_PATH] }),
  ],
  ["the sandbox (sandbox.fetch)", () => fetchFront(createSandbox({ clock: { start: Date.UTC(2026, 10, 26) } }))],
] as const;

/** A sandbox's Fetch front in the pipeline's shapes: a request (method, URL, headers, body text) in, its answer out. */
function fetchFront(sandbox: { fetch(request: Request): Promise<Response> }) {
  return {
    async handle(request: { method: string; url: string; headers: Record<string, string>; body: string }) {
      const { method, url, headers, body } = request;
      const response = await sandbox.fetch(new Request(`http://sandbox.test${url}`, { method, headers, body }));
      const answered: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        answered[name] = value;
      });
      return { status: response.status, headers: answered, body: await response.text() };
    },
  };
}

describe.each(rows)("%s without Prism", (_, op) => {
  const { names, required } = partsOf(op);
  describe.each(pipelines)("through %s", (__, pipelineFor) => {
    const pipeline = pipelineFor();
    const handle = (body: string, headers: Record<string, string> = {}) =>
      pipeline.handle({ method: op.method, url: `${BASE_PATH}${op.path}`, headers: { ...keyed, ...headers }, body });
    const handleForm = async (form: FormData) => {
      const { body, headers } = await textOf(form);
      return handle(body, headers);
    };

    it("answers the documented example with 2xx, and refuses a missing body with 422 as the mock does", async () => {
      const sample = buildSampleRequest(spec, op);
      expect((await handle(sample.body!, sample.headers)).status).toBe(200);
      expect((await handle("")).status).toBe(422);
      // An empty body sent as multipart/form-data is a missing body too, not one that does not parse.
      const empty = await handle("", sample.headers);
      expect([empty.status, JSON.parse(empty.body).message]).toEqual([422, "request body is required"]);
    });

    it("judges the parts as the mock does: a missing required part or an unknown one 422, naming it", async () => {
      expect(names).not.toContain("notAPart");
      const answer = await handleForm(formOf({ notAPart: "x" }));
      expect(answer.status).toBe(422);
      const { errors } = JSON.parse(answer.body) as { errors: Array<{ property?: string }> };
      expect(errors.map((error) => error.property)).toEqual(
        expect.arrayContaining([...required.map((name) => `/${name}`), "/notAPart"]),
      );
    });

    it("takes a part of its maximum length and refuses one a character longer with 422", async () => {
      const { name, max, form } = boundedPart(op);
      expect((await handleForm(form(max))).status).toBe(200);
      const over = await handleForm(form(max + 1));
      expect(over.status).toBe(422);
      expect(over.headers["sl-violations"]).toContain(name);
    });

    it("refuses a multipart body that does not parse (no boundary, or parts cut short) with 400", async () => {
      const { body, headers } = await textOf(formOf(Object.fromEntries(required.map((p) => [p, "x"]))));
      const noBoundary = await handle(body, { "content-type": "multipart/form-data" });
      const cutShort = await handle(body.slice(0, body.indexOf("\r\n\r\n")), headers);
      expect([noBoundary.status, cutShort.status]).toEqual([400, 400]);
      expect(JSON.parse(cutShort.body).message).toMatch(/multipart\/form-data body does not parse/);
    });
  });
});
