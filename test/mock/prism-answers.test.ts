// What the mock writes for the answers Prism gives it, over real sockets on small contracts: a response
// without content, a JSON string, a JSON null, a GET that carries preflight headers, findings about a request
// (a repeated query key, a JSON null for a required body: both now the validator's) and Prism's about its own
// answer exactly as sl-violations holds them, Prism's own refusals (a 4xx kept, a 5xx written as 400), and what
// reaches the socket when Node cannot parse a request.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { json } from "../support/media.js";
import { notesSpec, refused } from "./support/notes-spec.js";
import { sendRaw } from "./support/raw-http.js";
import { smallSpec } from "./support/small-spec.js";

const answersSpec = notesSpec({
  bodyRequired: true,
  notes: { delete: { operationId: "clearNotes", responses: { "204": { description: "cleared" }, "4XX": refused } } },
  paths: {
    "/greeting": {
      get: { operationId: "greet", responses: { "200": { description: "ok", ...json({ type: "string" }, "hi") } } },
    },
    "/unanswerable": { get: { operationId: "unanswerable", responses: {} } },
  },
});

let mock: StartedMock;
const log: string[] = [];

beforeAll(async () => {
  mock = await startMock({ spec: answersSpec, log: (line) => log.push(line) });
});
afterAll(() => mock?.stop());

const violations = (response: Response): unknown => JSON.parse(response.headers.get("sl-violations") ?? "null");

describe("answers", () => {
  it("a documented response without content: no body, length 0", async () => {
    const response = await fetch(`${mock.baseUrl}/notes`, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(response.headers.get("content-length")).toBe("0");
    expect(await response.text()).toBe("");
  });

  it("a JSON string example is written as JSON", async () => {
    const response = await fetch(`${mock.baseUrl}/greeting`);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.text()).toBe('"hi"');
  });

  it("a GET with preflight headers is answered as a GET: its body, CORS for its origin, no sl-violations", async () => {
    const response = await fetch(`${mock.baseUrl}/notes`, {
      headers: { origin: "http://app.test", "access-control-request-method": "GET" },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("[]");
    expect(response.headers.get("access-control-allow-origin")).toBe("http://app.test");
    expect(response.headers.has("sl-violations")).toBe(false);
  });
});

describe("Prism's findings about a request, as sl-violations holds them", () => {
  // The request pipeline validates parameters with the package's validator before Prism sees them (pipeline.ts):
  // a key given twice for a single value is refused as such, where Prism judged both values against the enum.
  it("a query key given twice for a single value: refused, at the parameter, before Prism", async () => {
    const response = await fetch(`${mock.baseUrl}/notes?kind=a&kind=a`);
    expect(response.status).toBe(422);
    expect(violations(response)).toEqual([
      {
        location: ["request", "query", "kind"],
        severity: "Error",
        message: "query parameter kind is given 2 times; it takes one value",
      },
    ]);
  });

  // The request pipeline validates bodies with the package's validator before Prism sees them (pipeline.ts):
  // Prism's own finding ("Body parameter is required") is no longer reached; the validator's says the same.
  it("a JSON null where the body is required: a missing body", async () => {
    const response = await fetch(`${mock.baseUrl}/notes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "null",
    });
    expect(response.status).toBe(422);
    expect(violations(response)).toEqual([
      { location: ["request", "body"], severity: "Error", message: "request body is required" },
    ]);
  });
});

describe("Prism's own refusals", () => {
  it("keeps a 4xx refusal's status and says its reason", async () => {
    const response = await fetch(`${mock.baseUrl}/notes`, { headers: { prefer: "example=nope" } });
    expect(response.status).toBe(404);
    expect(violations(response)).toEqual([
      {
        location: ["request"],
        severity: "Error",
        message:
          "Prism refused the request: https://stoplight.io/prism/errors#NOT_FOUND: " +
          "The server cannot find the requested content",
      },
    ]);
  });

  it("writes a 5xx refusal (no responses) as 400: the request cannot be answered, the mock is not broken", async () => {
    const response = await fetch(`${mock.baseUrl}/unanswerable`);
    expect(response.status).toBe(400);
    expect(violations(response)).toEqual([
      {
        location: ["request"],
        severity: "Error",
        message:
          "Prism refused the request: https://stoplight.io/prism/errors#NO_RESPONSE_RESPONSE_DEFINED: " +
          "No response defined for the selected operation",
      },
    ]);
  });
});

describe("requests Node cannot parse", () => {
  it("answers 400 and closes the connection, saying so", async () => {
    const answer = await sendRaw(mock.port, Buffer.from("GARBAGE\r\n\r\n"));
    expect(answer?.status).toBe(400);
    expect(answer?.headers.connection).toBe("close");
  });

  it("says in its error body that Node could not parse it, naming Node's error code", async () => {
    const answer = await sendRaw(mock.port, Buffer.from("GARBAGE\r\n\r\n"));
    expect(answer?.status).toBe(400);
    const body = JSON.parse(answer!.body.toString("utf8")) as { message: string };
    expect(body.message).toMatch(/^Node could not parse the request \(HPE_[A-Z_]+\)$/);
  });

  it("a connection reset mid-request is not a refused request: nothing written, nothing logged", async () => {
    const before = log.length;
    const socket = net.connect(mock.port, "127.0.0.1");
    socket.on("error", () => {});
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk;
    });
    await new Promise((resolve) => socket.once("connect", resolve));
    await new Promise((resolve) => socket.write("GET /v1/notes HTTP/1.1\r\nHost: x\r\n", resolve));
    // The partial request is in the mock's socket before a whole one is sent on another connection, so by the time
    // that one is answered (after an I/O turn of the mock's that saw both readable), the mock has read it.
    expect((await fetch(`${mock.baseUrl}/notes`)).status).toBe(200);
    socket.resetAndDestroy();
    // The mock keeps answering; the reset (sent first) has been dealt with by the time this answer is logged.
    expect((await fetch(`${mock.baseUrl}/notes`)).status).toBe(200);
    expect(received).toBe("");
    const since = log.slice(before);
    expect(since.at(-1)).toMatch(/^GET \/v1\/notes → 200 /);
    expect(since.filter((line) => line.includes("could not parse"))).toEqual([]);
  });
});

describe("answers on a contract with a JSON null answer and an example that breaks its schema", () => {
  let mock: StartedMock;
  const log: string[] = [];
  beforeAll(async () => {
    mock = await startMock({ spec: smallSpec(), log: (line) => log.push(line) });
  });
  afterAll(() => mock?.stop());

  const violations = (response: Response): Array<{ location: string[]; message: string }> =>
    JSON.parse(response.headers.get("sl-violations") ?? "[]");

  it("writes a JSON null answer as null", async () => {
    const response = await fetch(`${mock.baseUrl}/null`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe("4");
    expect(await response.text()).toBe("null");
  });

  it("reports Prism's findings about its answer (an example breaking its schema) as the response's", async () => {
    const response = await fetch(`${mock.baseUrl}/broken`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ n: "x" });
    const found = violations(response);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((v) => v.location[0] === "response")).toBe(true);
    expect(found.map((v) => v.location.slice(1).join("/")).join()).toContain("n");
  });

  it("names the severity of Prism's findings as sl-violations does (Error), not by Prism's number", async () => {
    const response = await fetch(`${mock.baseUrl}/broken`);
    await response.arrayBuffer();
    const severities = (violations(response) as Array<{ severity?: unknown }>).map((v) => v.severity);
    expect(severities.length).toBeGreaterThan(0);
    expect(new Set(severities)).toEqual(new Set(["Error"]));
  });
});
