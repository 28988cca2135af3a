// The small contract the tests of src/verify run on (things to list, create, get and delete; an open operation; one
// with its own quota), a scripted deployment of it on 127.0.0.1, and a fake clock for the verifier's pacing.
import http from "node:http";
import { createContractValidator } from "../../../src/contract/index.js";
import { listOperations, type OpenApiDocument } from "../../../src/openapi/index.js";
import type { PlannedCase } from "../../../src/verify/index.js";
import { listenLocally } from "../../support/local-server.js";
import { json } from "../../support/media.js";

export const KEY = "x-api-key";
const refusal = {
  description: "refused",
  ...json({ type: "object", required: ["message"], properties: { message: { type: "string" } } }, { message: "no" }),
};
const thing = { type: "object", required: ["id"], properties: { id: { type: "string" } } };
const idParameter = { name: "id", in: "path", required: true, schema: { type: "string" }, example: "t-0" };

/** The small contract: keyed by default; /open needs no key; POST /quota has a quota of its own. */
export function thingsSpec(): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "Things", version: "1.0.0" },
    servers: [{ url: "https://things.example.com/v1" }],
    security: [{ key: [] }],
    components: { securitySchemes: { key: { type: "apiKey", in: "header", name: KEY } } },
    paths: {
      "/things": {
        get: {
          operationId: "listThings",
          parameters: [{ name: "kind", in: "query", schema: { type: "string", enum: ["a", "b"] }, example: "a" }],
          responses: {
            "200": {
              description: "ok",
              ...json({ type: "object", required: ["data"], properties: { data: { type: "array" } } }, { data: [] }),
            },
            "4XX": refusal,
          },
        },
        post: {
          operationId: "createThing",
          requestBody: {
            required: true,
            ...json({ type: "object", required: ["name"], properties: { name: { type: "string" } } }, { name: "n" }),
          },
          responses: {
            "201": {
              description: "created",
              ...json({ type: "object", required: ["data"], properties: { data: thing } }, { data: { id: "t-1" } }),
            },
            "4XX": refusal,
          },
        },
      },
      "/things/{id}": {
        get: {
          operationId: "getThing",
          parameters: [idParameter],
          responses: {
            "200": {
              description: "ok",
              ...json({ type: "object", properties: { data: thing } }, { data: { id: "t-0" } }),
            },
            "401": refusal,
            "4XX": refusal,
          },
        },
        delete: {
          operationId: "deleteThing",
          parameters: [idParameter],
          responses: { "204": { description: "gone" }, "4XX": refusal },
        },
      },
      "/groups/{group}/items/{item}": {
        get: {
          operationId: "getItem",
          parameters: [
            { name: "group", in: "path", required: true, schema: { type: "string" }, example: "g" },
            { name: "item", in: "path", required: true, schema: { type: "string" }, example: "i" },
          ],
          responses: { "200": { description: "ok" }, "201": { description: "also ok" } },
        },
      },
      "/ranged": {
        get: { operationId: "ranged", responses: { "2XX": { description: "any success" }, "4XX": refusal } },
      },
      "/open": {
        get: {
          operationId: "open",
          security: [],
          responses: { default: { description: "anything", ...json({ type: "object" }, {}) } },
        },
      },
      "/quota": {
        post: {
          operationId: "spendQuota",
          "x-rate-limits": [{ appliesTo: "post /quota", limit: 1 }],
          requestBody: {
            required: true,
            ...json({ type: "object", properties: { n: { type: "integer" } } }, { n: 1 }),
          },
          responses: { "200": { description: "ok", ...json({ type: "object" }, {}) }, "4XX": refusal },
        },
      },
    },
  } as OpenApiDocument;
}

export const spec = thingsSpec();
export const validator = createContractValidator(spec);
export const operations = listOperations(spec);
export const operation = (id: string) => operations.find((o) => o.operationId === id)!;

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  at: number;
  /** The time of the fake clock in use when it arrived, if one is. */
  clockAt?: number;
}
export type Answer = { status: number; body?: unknown };

/** A fake clock for the verifier: time moves only when it sleeps or a test advances it; records pauses asked for. */
export function fakeClock({ shortBy = 0 } = {}) {
  let time = 0;
  const pauses: number[] = [];
  const clock = {
    pauses,
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
    // A sleep that ends `shortBy` ms early (as setTimeout may), at most once per pause asked for.
    sleep: async (ms: number) => {
      pauses.push(ms);
      time += ms > shortBy ? ms - shortBy : ms;
    },
  };
  activeClock = clock;
  return clock;
}
let activeClock: { now(): number } | undefined;

const closers: Array<() => Promise<void>> = [];
/** Runs `close` when the test ends (closeDeployments): for a server of the test's own. */
export function closeAfterTest(close: () => Promise<void>): void {
  closers.push(close);
}
/** Stops the deployments a test started and forgets its clock: for the afterEach of every file that uses them. */
export async function closeDeployments(): Promise<void> {
  activeClock = undefined;
  for (const close of closers.splice(0)) await close();
}

/** A deployment on 127.0.0.1 answering `answer(method, url)` (JSON; undefined: never), recording what it was sent. */
export async function deployment(
  answer: (method: string, url: string, headers: http.IncomingHttpHeaders) => Answer | undefined | Promise<Answer>,
): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", async () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        at: performance.now(),
        clockAt: activeClock?.now(),
      });
      const answered = await answer(req.method ?? "", req.url ?? "", req.headers);
      if (answered === undefined) return;
      const { status, body } = answered;
      if (body === undefined) res.writeHead(status).end();
      else res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  const { origin, close } = await listenLocally(server);
  closers.push(close);
  return { baseUrl: `${origin}/v1`, seen };
}

/** Answers every request as the contract documents its success; refuses what has no success to give. */
export const conforming = (method: string, url: string): Answer => {
  const path = url.replace(/^\/v1/, "").replace(/\?.*$/, "");
  if (method === "POST" && path === "/things") return { status: 201, body: { data: { id: "new/1" } } };
  if (method === "DELETE") return { status: 204 };
  if (path === "/things") return { status: 200, body: { data: [] } };
  if (path.startsWith("/things/")) return { status: 200, body: { data: { id: decodeURIComponent(path.slice(8)) } } };
  return { status: 200, body: {} };
};

/** The case of `plan` named `name` (it must be there). */
export const planned = (plan: PlannedCase[], name: string): PlannedCase => {
  const found = plan.find((c) => c.name === name);
  if (!found) throw new Error(`no case ${name} in ${plan.map((c) => c.name).join(", ")}`);
  return found;
};
