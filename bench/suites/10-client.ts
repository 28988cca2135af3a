// Client throughput: requests per second for a GET and a POST against a local node:http server (in its own
// process), for this package's client (src/, bundled with esbuild for this run), raw fetch (the physical limit:
// one fetch + res.json() per call) and an axios 1.21.1 instance (what the service's hand-written SDK uses).
// Rounds are interleaved and the median round is reported. Also: minified + gzipped size of the client entry
// (openapi-fetch included) next to axios, both bundled by esbuild for the browser.
// Nothing here repeats the spec: the base path and the key header come from generated/client-meta.ts, the
// bodies from the operations' examples in generated/openapi.json.
import { fork } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import axios from "axios";
import * as esbuild from "esbuild";
import { API_KEY_HEADER, BASE_PATH } from "../../generated/client-meta.js";
import type { createClient as CreateClient, CreateQuoteRequest } from "../../src/index.js";
import { firstExample, jsonMedia, listOperations, type OpenApiDocument } from "../../src/openapi/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const cacheDir = path.join(root, "node_modules", ".cache", "bench");
export const title = "Client: requests per second against raw fetch and axios, and bundle size";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 1000);
const CONCURRENCY = 8;
const GET_PATH = "/currencies/fiat-rates";
const POST_PATH = "/trades/quote";

async function bundle(options: esbuild.BuildOptions): Promise<string> {
  const result = await esbuild.build({ bundle: true, write: false, logLevel: "silent", format: "esm", ...options });
  const [output] = result.outputFiles ?? [];
  if (!output) throw new Error("bench: esbuild wrote nothing");
  return output.text;
}

/** The client as shipped (src/ bundled, openapi-fetch external), loaded fresh. */
async function loadClient(): Promise<typeof CreateClient> {
  const outfile = path.join(cacheDir, "client.mjs");
  await writeFile(
    outfile,
    await bundle({
      entryPoints: [path.join(root, "src", "index.ts")],
      platform: "node",
      target: "node20",
      packages: "external",
    }),
  );
  const module = (await import(`${pathToFileURL(outfile).href}?t=${Date.now()}`)) as {
    createClient: typeof CreateClient;
  };
  return module.createClient;
}

async function sizes(): Promise<{ client: number; axios: number }> {
  const browser = (contents: string): esbuild.BuildOptions => ({
    stdin: { contents, resolveDir: root, loader: "ts" },
    platform: "browser",
    minify: true,
    target: "es2022",
  });
  const gz = (text: string) => gzipSync(text, { level: 9 }).length;
  return {
    client: gz(await bundle(browser(`export { createClient } from "./src/index.ts";`))),
    axios: gz(await bundle(browser(`export { default } from "axios";`))),
  };
}

/** The server, in its own process: the same answer to every GET and every POST, with the documented headers. */
const SERVER = `
import http from "node:http";
const { get, post, headers } = JSON.parse(process.env.BENCH_ANSWERS);
const server = http.createServer((req, res) => {
  req.on("data", () => {});
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", ...headers });
    res.end(req.method === "POST" ? post : get);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => process.send(server.address().port));
`;

/** The first JSON example of `holder` (a request body or a response), or a clear error. */
function exampleOf(spec: OpenApiDocument, holder: Record<string, unknown> | undefined, what: string): unknown {
  const example = firstExample(spec, jsonMedia(holder));
  if (!example.found) throw new Error(`bench: no JSON example for ${what}`);
  return example.value;
}

async function startServer() {
  const spec = JSON.parse(await readFile(path.join(root, "generated", "openapi.json"), "utf8")) as OpenApiDocument;
  const operations = listOperations(spec);
  const operation = (method: string, p: string) => {
    const found = operations.find((o) => o.method === method && o.path === p);
    if (!found) throw new Error(`bench: no operation ${method} ${p}`);
    return found;
  };
  const get = operation("GET", GET_PATH);
  const post = operation("POST", POST_PATH);
  const answers = {
    get: JSON.stringify(exampleOf(spec, get.responses["200"], `${get.key} 200`)),
    post: JSON.stringify(exampleOf(spec, post.responses["200"], `${post.key} 200`)),
    // The documented header examples (the rate-limit headers) on every answer.
    headers: Object.fromEntries(
      Object.entries((spec.components?.headers ?? {}) as Record<string, { example?: unknown }>).map(
        ([name, header]) => [name.toLowerCase(), String(header.example)],
      ),
    ),
  };
  const file = path.join(cacheDir, "client-server.mjs");
  await writeFile(file, SERVER);
  const child = fork(file, {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, BENCH_ANSWERS: JSON.stringify(answers) },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (message) => resolve(Number(message)));
    child.once("error", reject);
  });
  const body = exampleOf(spec, post.requestBody, `${post.key} request`) as CreateQuoteRequest;
  return { baseUrl: `http://127.0.0.1:${port}${BASE_PATH}`, body, stop: () => child.kill() };
}

async function measure(fn: () => Promise<unknown>, ms: number): Promise<number> {
  let count = 0;
  const started = performance.now();
  const deadline = started + ms;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        await fn();
        count++;
      }
    }),
  );
  return (count / (performance.now() - started)) * 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

type Contestant = "raw fetch" | "raw fetch with a timeout" | "client" | "axios";

/**
 * Raw fetch with what the client does for its per-attempt timeout: an AbortController, a timer, the signal on the
 * request (undici builds a Request with an abort listener for it). The like-for-like baseline of the client's own
 * cost; plain raw fetch stays the target's baseline.
 */
function fetchWithTimeout(url: string, init: RequestInit = {}): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 30_000);
  return fetch(url, { ...init, signal: controller.signal })
    .then((response) => response.json())
    .finally(() => clearTimeout(timer));
}

export default async function clientSuite(): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  const createClient = await loadClient();
  const server = await startServer();
  try {
    const key = "bench-key";
    const { body, baseUrl } = server;
    const client = createClient({ baseUrl, apiKey: key });
    const instance = axios.create({ baseURL: baseUrl, headers: { [API_KEY_HEADER]: key }, timeout: 30_000 });
    const contestants: Record<"GET" | "POST", Record<Contestant, () => Promise<unknown>>> = {
      GET: {
        "raw fetch": () => fetch(`${baseUrl}${GET_PATH}`, { headers: { [API_KEY_HEADER]: key } }).then((r) => r.json()),
        "raw fetch with a timeout": () =>
          fetchWithTimeout(`${baseUrl}${GET_PATH}`, { headers: { [API_KEY_HEADER]: key } }),
        client: () => client.GET(GET_PATH).then((r) => r.data),
        axios: () => instance.get(GET_PATH).then((r) => r.data),
      },
      POST: {
        "raw fetch": () =>
          fetch(`${baseUrl}${POST_PATH}`, {
            method: "POST",
            headers: { [API_KEY_HEADER]: key, "content-type": "application/json" },
            body: JSON.stringify(body),
          }).then((r) => r.json()),
        "raw fetch with a timeout": () =>
          fetchWithTimeout(`${baseUrl}${POST_PATH}`, {
            method: "POST",
            headers: { [API_KEY_HEADER]: key, "content-type": "application/json" },
            body: JSON.stringify(body),
          }),
        client: () => client.POST(POST_PATH, { body }).then((r) => r.data),
        axios: () => instance.post(POST_PATH, body).then((r) => r.data),
      },
    };
    // Sanity: every contestant gets the same JSON.
    for (const [op, calls] of Object.entries(contestants)) {
      const answers = await Promise.all(Object.values(calls).map((call) => call()));
      if (new Set(answers.map((answer) => JSON.stringify(answer))).size !== 1)
        throw new Error(`bench: contestants disagree on ${op}`);
    }
    const rows: Array<{ op: string; rps: Record<Contestant, number> }> = [];
    for (const [op, calls] of Object.entries(contestants)) {
      const entries = Object.entries(calls) as Array<[Contestant, () => Promise<unknown>]>;
      const samples: Record<Contestant, number[]> = {
        "raw fetch": [],
        "raw fetch with a timeout": [],
        client: [],
        axios: [],
      };
      for (const [, fn] of entries) await measure(fn, 300); // warm-up
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, fn] of entries) samples[name].push(await measure(fn, ROUND_MS));
      }
      rows.push({
        op,
        rps: {
          "raw fetch": median(samples["raw fetch"]),
          "raw fetch with a timeout": median(samples["raw fetch with a timeout"]),
          client: median(samples.client),
          axios: median(samples.axios),
        },
      });
    }
    const size = await sizes();
    const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    return [
      `Concurrency ${CONCURRENCY}, ${ROUNDS} interleaved rounds of ${ROUND_MS} ms per contestant, median round; ` +
        "server in a separate process on 127.0.0.1.",
      "",
      "| call | client req/s | raw fetch req/s | axios req/s | " +
        "client ÷ raw fetch (target ≥ 0.90) | client ÷ raw fetch with a timeout | " +
        "client ÷ axios (target ≥ 1.00) |",
      "|---|---:|---:|---:|---:|---:|---:|",
      ...rows.map(
        ({ op, rps }) =>
          `| ${op} | ${fmt(rps.client)} | ${fmt(rps["raw fetch"])} | ${fmt(rps.axios)} | ` +
          `${ratio(rps.client, rps["raw fetch"])} | ${ratio(rps.client, rps["raw fetch with a timeout"])} | ` +
          `${ratio(rps.client, rps.axios)} |`,
      ),
      "",
      "| bundle (esbuild, browser, minified + gzipped) | bytes | ratio |",
      "|---|---:|---:|",
      `| client entry \`createClient\` (openapi-fetch included) | ${fmt(size.client)} | ` +
        `${ratio(size.client, size.axios)} |`,
      `| axios 1.21.1 | ${fmt(size.axios)} | 1.00 |`,
      "",
    ].join("\n");
  } finally {
    server.stop();
  }
}
