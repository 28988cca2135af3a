// Mock latency and throughput with autocannon 9.0.0, at concurrency 1 and 16, against the mock as
// `npm start` runs it (scripts/start-mock.ts in its own process: the front on the public port, then
// Prism), and against that same Prism reached directly on its internal port (the baseline, measured
// in the same run: the cost of the front is the ratio).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { API_KEY_HEADER, BASE_PATH } from "../../generated/client-meta.js";
import { binPath } from "../../scripts/lib/node-cli.js";
import { BUNDLE_JSON, ROOT } from "../../scripts/lib/paths.js";
import { findFreePort } from "../../src/mock/index.js";
import { listOperations, type OpenApiDocument } from "../../src/openapi/index.js";

export const title = "Mock: latency and throughput (autocannon)";

const DURATION_S = Number(process.env.BENCH_MOCK_SECONDS ?? 5);

async function startNpmStart(port: number) {
  const child = spawn(
    process.execPath,
    [binPath("tsx"), path.join(ROOT, "scripts", "start-mock.ts"), "--port", String(port), "--quiet", "--no-docs", "--no-build"],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (c: Buffer) => {
    output += c;
  });
  child.stderr.on("data", (c: Buffer) => {
    output += c;
  });
  const deadline = Date.now() + 45_000;
  while (!output.includes("Ctrl-C")) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`start-mock did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const prismPort = Number(/internal port (\d+)/.exec(output)?.[1]);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { prismPort, stop };
}

export default async function run(): Promise<string> {
  const spec = JSON.parse(readFileSync(BUNDLE_JSON, "utf8")) as OpenApiDocument;
  const basePath = BASE_PATH;
  const keyHeader = API_KEY_HEADER;
  // A representative read: the first GET without path parameters.
  const relative = listOperations(spec).find((op) => op.method === "GET" && !op.path.includes("{"))?.path;
  if (!relative) throw new Error("bench: no GET operation without path parameters");
  const port = await findFreePort();
  const mock = await startNpmStart(port);
  try {
    const targets = [
      { name: "`npm start` (front + Prism)", url: `http://127.0.0.1:${port}${basePath}${relative}` },
      { name: "Prism directly (baseline)", url: `http://127.0.0.1:${mock.prismPort}${basePath}${relative}` },
    ];
    const headers = { [keyHeader]: "bench", accept: "application/json" };
    const rows: string[] = [];
    for (const connections of [1, 16]) {
      const results: Array<{ target: (typeof targets)[number]; r: autocannon.Result }> = [];
      for (const target of targets) {
        const r = await autocannon({ url: target.url, connections, duration: DURATION_S, headers });
        if (r.non2xx || r.errors) throw new Error(`${target.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        results.push({ target, r });
      }
      const baseline = results[1]!.r.requests.average;
      for (const { target, r } of results) {
        rows.push(
          `| ${connections} | ${target.name} | ${r.latency.p50} | ${r.latency.p99} | ${Math.round(r.requests.average).toLocaleString("en-US")} | ${(r.requests.average / baseline).toFixed(2)}× |`,
        );
      }
    }
    return [
      `GET ${basePath}${relative}, ${DURATION_S} s per row, keep-alive; autocannon, the mock and Prism share the machine's cores.`,
      "",
      "| concurrency | target | p50 latency (ms) | p99 latency (ms) | throughput (req/s) | vs Prism directly |",
      "|---|---|---|---|---|---|",
      ...rows,
      "",
      "autocannon records latency in whole milliseconds: a p50 of 0 means under 1 ms.",
      "The front (src/mock/front.ts) answers malformed JSON bodies with the documented response (Prism's own answer lacks the rate-limit headers); its cost is the ratio.",
    ].join("\n");
  } finally {
    await mock.stop();
  }
}
