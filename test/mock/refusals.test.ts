// The mock's own refusals on small contracts, over real sockets: what each says in sl-violations and its log
// (whitespace, invalid JSON, a falsy body, an empty query value, Prefer, 405 with every allowed method, 404),
// JSON recognised by its media type (parameters, case, +json), which empty query values the schemas refuse,
// a request target that is no URL, the body size limit at exactly its bound, and the log line of an answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { notesSpec } from "./support/notes-spec.js";
import { sendRaw } from "./support/raw-http.js";
import { ACCEPT_EMPTY, REFUSE_EMPTY, smallSpec as emptyValuesSpec } from "./support/small-spec.js";

const MAX_BODY_BYTES = 64;
const smallSpec = () => notesSpec({ bodyRequired: false });

let mock: StartedMock;
const log: string[] = [];

beforeAll(async () => {
  mock = await startMock({ spec: smallSpec(), log: (line) => log.push(line), maxBodyBytes: MAX_BODY_BYTES });
});
afterAll(() => mock?.stop());

const messages = (response: Response): string[] =>
  (JSON.parse(response.headers.get("sl-violations") ?? "[]") as Array<{ message: string }>).map((v) => v.message);
const post = (body: string, contentType = "application/json") =>
  fetch(`${mock.baseUrl}/notes`, { method: "POST", headers: { "content-type": contentType }, body });

describe("the mock's refusals say why, in sl-violations and in its log", () => {
  it("a whitespace-only JSON body, and JSON that does not parse: 400", async () => {
    const blank = await post(" \n ");
    expect(blank.status).toBe(400);
    expect(messages(blank)).toEqual(["the JSON body is only whitespace"]);
    const broken = await post("{");
    expect(broken.status).toBe(400);
    expect(messages(broken)).toEqual([expect.stringMatching(/^the body is not valid JSON \(.+\)$/)]);
    expect(log).toContain("POST /v1/notes → 400 (the JSON body is only whitespace)");
  });

  it("recognises JSON by its media type whatever its parameters and case, and any +json type", async () => {
    for (const type of ["Application/JSON ; charset=utf-8", "application/merge-patch+json", " application/json"]) {
      const response = await post("  ", type);
      expect(response.status, type).toBe(400);
      expect(messages(response), type).toEqual(["the JSON body is only whitespace"]);
    }
    // Not JSON: the text goes on as text (to Prism), not refused as blank JSON.
    expect(messages(await post("  ", "text/plain"))).not.toContain("the JSON body is only whitespace");
    expect(messages(await post("  ", "application/json-seq"))).not.toContain("the JSON body is only whitespace");
  });

  it("a method the path does not have: 405, Allow listing every method it has", async () => {
    const response = await fetch(`${mock.baseUrl}/notes`, { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST");
    expect(messages(response)).toEqual(["DELETE is not an operation of /v1/notes"]);
  });

  it("a path no operation has: 404, naming the path", async () => {
    const response = await fetch(`${mock.baseUrl}/nowhere`);
    expect(response.status).toBe(404);
    expect(messages(response)).toEqual(["no operation of the contract has the path /v1/nowhere"]);
  });

  it("an empty query value, and a malformed Prefer: 422", async () => {
    const empty = await fetch(`${mock.baseUrl}/notes?kind=`);
    expect(empty.status).toBe(422);
    expect(messages(empty)).toEqual(['query parameter kind must be one of "a", "b"']);
    const prefer = await fetch(`${mock.baseUrl}/notes`, { headers: { prefer: "code=abc" } });
    expect(prefer.status).toBe(422);
    expect(messages(prefer)).toEqual(['Prefer: code must be a three-digit status, got "abc"']);
  });
});

describe("the body size limit", () => {
  const bodyOf = (bytes: number) => JSON.stringify({ pad: "x".repeat(bytes - 10) });

  it("takes a body of exactly the limit", async () => {
    expect(Buffer.byteLength(bodyOf(MAX_BODY_BYTES))).toBe(MAX_BODY_BYTES);
    const response = await post(bodyOf(MAX_BODY_BYTES));
    expect(response.status).toBe(201);
  });

  it("refuses one byte more with 413, saying the limit, and closes the connection", async () => {
    const response = await post(bodyOf(MAX_BODY_BYTES + 1));
    expect(response.status).toBe(413);
    expect(messages(response)).toEqual([`the body is larger than ${MAX_BODY_BYTES} bytes`]);
    expect(response.headers.get("connection")).toBe("close");
    // and keeps answering
    expect((await fetch(`${mock.baseUrl}/notes`)).status).toBe(200);
  });
});

it("logs each answer with its method, path, status and how long it took", async () => {
  const before = performance.now();
  await (await fetch(`${mock.baseUrl}/notes`)).arrayBuffer();
  const took = performance.now() - before;
  const line = log.filter((l) => l.startsWith("GET /v1/notes → 200")).at(-1);
  expect(line).toMatch(/^GET \/v1\/notes → 200 \((\d+) ms\)$/);
  expect(Number(/\((\d+) ms\)/.exec(line!)![1])).toBeLessThanOrEqual(Math.ceil(took));
});

describe("empty values, falsy bodies and targets that are no URL, on a contract of parameters that refuse them", () => {
  let mock: StartedMock;
  const log: string[] = [];
  beforeAll(async () => {
    mock = await startMock({ spec: emptyValuesSpec(), log: (line) => log.push(line) });
  });
  afterAll(() => mock?.stop());

  const violations = (response: Response): Array<{ location: string[]; message: string }> =>
    JSON.parse(response.headers.get("sl-violations") ?? "[]");

  it("refuses an empty query value its schema cannot take: 422, the documented (empty) error answer", async () => {
    for (const name of Object.keys(REFUSE_EMPTY)) {
      const response = await fetch(`${mock.baseUrl}/items?${name}=`);
      expect(response.status, name).toBe(422);
      expect(await response.text(), name).toBe("");
      expect(response.headers.get("content-length"), name).toBe("0");
      const [finding, ...more] = violations(response);
      expect(more, name).toEqual([]);
      expect(finding, name).toMatchObject({ location: ["request", "query", name], severity: "Error" });
      expect(finding!.message, name).toMatch(new RegExp(`^query parameter ${name} must `));
    }
    for (const name of Object.keys(ACCEPT_EMPTY)) {
      const response = await fetch(`${mock.baseUrl}/items?${name}=`);
      const atParameter = violations(response).filter((v) => v.location.join("/") === `request/query/${name}`);
      expect(atParameter, name).toEqual([]);
    }
    expect(log).toContain('GET /v1/items?integer= → 422 (query parameter integer must be an integer, got "")');
  });

  it('refuses a JSON null, false, 0 or "" for an optional body (Prism: no body); answers text as text', async () => {
    for (const body of ["null", "false", "0", '""']) {
      const response = await fetch(`${mock.baseUrl}/notes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      expect(response.status, body).toBe(422);
      // The documented 4XX is any JSON object: the published error body fits it, saying why.
      const why = 'a JSON body that is null, false, 0 or "" is not an absent body';
      expect(await response.json()).toEqual({ message: why, errors: [{ message: why }] });
      expect(violations(response)[0]?.message).toBe(why);
    }
    const created = await fetch(`${mock.baseUrl}/notes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await created.text()).toBe("hello");
    const noBody = await fetch(`${mock.baseUrl}/notes`, { method: "POST" });
    expect(noBody.status).toBe(201);
  });

  it("answers 400 with the documented error answer to a request target that is not a URL", async () => {
    const answer = await sendRaw(mock.port, Buffer.from("GET // HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    expect(answer?.status).toBe(400);
    expect(answer?.headers["sl-violations"]).toBe(
      '[{"location":["request"],"severity":"Error","message":"the request target is not a valid URL"}]',
    );
    // The first operation that documents a 400 (GET /items: a 4XX without a body) gives the answer.
    expect(answer?.headers["content-length"]).toBe("0");
    expect(answer?.body.length).toBe(0);
  });
});
