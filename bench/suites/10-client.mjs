// Client throughput: requests per second for a GET and a POST against a local node:http server (in its own
// process), for this package's client (src/, bundled with esbuild for this run), raw fetch (the physical limit:
// one fetch + res.json() per call) and an axios 1.21.1 instance (what the service's hand-written SDK uses).
// Rounds are interleaved and the median round is reported. Also: minified + gzipped size of the client entry
// (openapi-fetch included) next to axios, both bundled by esbuild for the browser.
import { fork } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import axios from "axios";
import * as esbuild from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const title = "Client: requests per second against raw fetch and axios, and bundle size";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 1000);
const CONCURRENCY = 8;

async function bundle(entry, options = {}) {
  const result = await esbuild.build({
    ...(entry ? { entryPoints: [entry] } : {}),
    bundle: true,
    write: false,
    logLevel: "silent",
    format: "esm",
    ...options,
  });
  return result.outputFiles[0].text;
}

async function loadClientModule() {
  const outfile = path.join(root, "node_modules", ".cache", "bench", "client.mjs");
  await mkdir(path.dirname(outfile), { recursive: true });
  await writeFile(outfile, await bundle(path.join(root, "src", "index.ts"), { platform: "node", target: "node20", packages: "external" }));
  return import(`${pathToFileURL(outfile).href}?t=${Date.now()}`);
}

async function sizes() {
  const stdin = (contents) => ({ stdin: { contents, resolveDir: root, loader: "ts" }, platform: "browser", minify: true, target: "es2022" });
  const client = await bundle(undefined, stdin(`export { createClient } from "./src/index.ts";`));
  const axiosBundle = await bundle(undefined, stdin(`export { default } from "axios";`));
  const gz = (text) => gzipSync(text, { level: 9 }).length;
  return { client: gz(client), axios: gz(axiosBundle) };
}

const SERVER = `
import http from "node:http";
const rates = ${"${RATES}"};
const quote = ${"${QUOTE}"};
const headers = { "content-type": "application/json", ...${"${HEADERS}"} };
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => { res.writeHead(200, headers); res.end(req.method === "POST" ? quote : rates); });
});
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => process.send(server.address().port));
`;

async function startServer() {
  const spec = JSON.parse(await readFile(path.join(root, "generated", "openapi.json"), "utf8"));
  const example = (name) => JSON.stringify(JSON.stringify(spec.components.examples[name].value));
  const file = path.join(root, "node_modules", ".cache", "bench", "client-server.mjs");
  // The documented header examples (the rate-limit headers) on every answer.
  const headers = Object.fromEntries(Object.entries(spec.components.headers).map(([name, header]) => [name.toLowerCase(), String(header.example)]));
  await writeFile(
    file,
    SERVER.replace("${RATES}", example("FiatRates")).replace("${QUOTE}", example("Quote")).replace("${HEADERS}", JSON.stringify(headers)),
  );
  const child = fork(file, { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const port = await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("error", reject);
  });
  const basePath = new URL(spec.servers[0].url.replace(/\{[^}]+\}/g, "host")).pathname.replace(/\/$/, "");
  const keyHeader = Object.values(spec.components.securitySchemes).find((s) => s.type === "apiKey" && s.in === "header").name;
  const body = spec.components.examples.CreateQuoteSellUsdt.value;
  return { baseUrl: `http://127.0.0.1:${port}${basePath}`, keyHeader, body, stop: () => child.kill() };
}

async function measure(fn, ms) {
  let count = 0;
  const deadline = performance.now() + ms;
  const started = performance.now();
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

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export default async function clientSuite() {
  const { createClient } = await loadClientModule();
  const server = await startServer();
  try {
    const key = "bench-key";
    const { body, keyHeader } = server;
    const client = createClient({ baseUrl: server.baseUrl, apiKey: key });
    const instance = axios.create({ baseURL: server.baseUrl, headers: { [keyHeader]: key }, timeout: 30_000 });
    const contestants = {
      GET: {
        "raw fetch": () => fetch(`${server.baseUrl}/currencies/fiat-rates`, { headers: { [keyHeader]: key } }).then((r) => r.json()),
        client: () => client.GET("/currencies/fiat-rates"),
        axios: () => instance.get("/currencies/fiat-rates"),
      },
      POST: {
        "raw fetch": () =>
          fetch(`${server.baseUrl}/trades/quote`, {
            method: "POST",
            headers: { [keyHeader]: key, "content-type": "application/json" },
            body: JSON.stringify(body),
          }).then((r) => r.json()),
        client: () => client.POST("/trades/quote", { body }),
        axios: () => instance.post("/trades/quote", body),
      },
    };
    // Sanity: every contestant gets the same JSON.
    for (const calls of Object.values(contestants)) {
      const [raw, ours, theirs] = await Promise.all([calls["raw fetch"](), calls.client(), calls.axios()]);
      if (JSON.stringify(raw) !== JSON.stringify(ours.data) || JSON.stringify(raw) !== JSON.stringify(theirs.data))
        throw new Error("contestants disagree");
    }
    const rows = [];
    for (const [op, calls] of Object.entries(contestants)) {
      const samples = Object.fromEntries(Object.keys(calls).map((name) => [name, []]));
      for (const fn of Object.values(calls)) await measure(fn, 300); // warm-up
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, fn] of Object.entries(calls)) samples[name].push(await measure(fn, ROUND_MS));
      }
      const rps = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
      rows.push({ op, rps });
    }
    const size = await sizes();
    const fmt = (n) => Math.round(n).toLocaleString("en-US");
    const ratio = (a, b) => (a / b).toFixed(2);
    const lines = [
      `Concurrency ${CONCURRENCY}, ${ROUNDS} interleaved rounds of ${ROUND_MS} ms per contestant, median round; server in a separate process on 127.0.0.1.`,
      "",
      "| call | client req/s | raw fetch req/s | axios req/s | client ÷ raw fetch (target ≥ 0.90) | client ÷ axios (target ≥ 1.00) |",
      "|---|---:|---:|---:|---:|---:|",
      ...rows.map(
        ({ op, rps }) =>
          `| ${op} | ${fmt(rps.client)} | ${fmt(rps["raw fetch"])} | ${fmt(rps.axios)} | ${ratio(rps.client, rps["raw fetch"])} | ${ratio(rps.client, rps.axios)} |`,
      ),
      "",
      "| bundle (esbuild, browser, minified + gzipped) | bytes | ratio |",
      "|---|---:|---:|",
      `| client entry \`createClient\` (openapi-fetch included) | ${fmt(size.client)} | ${ratio(size.client, size.axios)} |`,
      `| axios 1.21.1 | ${fmt(size.axios)} | 1.00 |`,
      "",
    ];
    return lines.join("\n");
  } finally {
    server.stop();
  }
}
