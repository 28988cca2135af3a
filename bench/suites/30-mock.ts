// Mock latency and throughput with autocannon, at concurrency 1 and 16: the mock as `npm start` runs it
// (scripts/start-mock.ts in its own process: the mock's own server with Prism's engine in process),
// against Prism alone (its CLI, `prism mock`, on the same mock-only copy of the contract, in its own
// process): the baseline, measured in the same run. The ratio is what the mock's checks cost.
// Rounds alternate between the two and the median round is reported.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { API_KEY_HEADER, BASE_PATH } from "../../generated/client-meta.js";
import { BUNDLE_JSON } from "../../scripts/lib/paths.js";
import { findFreePort } from "../../src/mock/processes.js";
import { deriveMockSpec } from "../../src/mock/spec.js";
import { listOperations, type OpenApiDocument } from "../../src/openapi/index.js";
import { startNpmStart } from "../support/npm-start.js";
import { startPrism } from "../support/prism-cli.js";

export const title = "Mock: latency and throughput against Prism alone (autocannon)";

const ROUND_S = Number(process.env.BENCH_MOCK_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_MOCK_ROUNDS ?? 5);

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export default async function run(): Promise<string> {
  const spec = JSON.parse(await readFile(BUNDLE_JSON, "utf8")) as OpenApiDocument;
  // A representative read: the first GET without path parameters.
  const relative = listOperations(spec).find((op) => op.method === "GET" && !op.path.includes("{"))?.path;
  if (!relative) throw new Error("bench: no GET operation without path parameters");
  const work = await mkdtemp(path.join(tmpdir(), "bench-mock-"));
  const specFile = path.join(work, "openapi.mock.json");
  await writeFile(specFile, JSON.stringify(deriveMockSpec(spec).spec));
  const port = await findFreePort();
  const stopMock = await startNpmStart(port);
  const prism = await startPrism({
    args: (p) => ["mock", specFile, "-h", "127.0.0.1", "-p", String(p), "-v", "error"],
  });
  try {
    const targets = [
      { name: "`npm start` (the mock)", url: `http://127.0.0.1:${port}${BASE_PATH}${relative}` },
      { name: "Prism alone (`prism mock`, baseline)", url: `http://127.0.0.1:${prism.port}${BASE_PATH}${relative}` },
    ];
    const headers = { [API_KEY_HEADER]: "bench", accept: "application/json" };
    const rows: string[] = [];
    const ratios: string[] = [];
    for (const connections of [1, 16]) {
      const samples = targets.map(() => ({ rps: [] as number[], p50: [] as number[], p99: [] as number[] }));
      for (const target of targets) await autocannon({ url: target.url, connections, duration: 1, headers }); // warm-up
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, target] of targets.entries()) {
          const r = await autocannon({ url: target.url, connections, duration: ROUND_S, headers });
          if (r.non2xx || r.errors) throw new Error(`${target.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
          samples[i]!.rps.push(r.requests.average);
          samples[i]!.p50.push(r.latency.p50);
          samples[i]!.p99.push(r.latency.p99);
        }
      }
      const baseline = median(samples[1]!.rps);
      for (const [i, target] of targets.entries()) {
        const s = samples[i]!;
        rows.push(
          `| ${connections} | ${target.name} | ${median(s.p50)} | ${median(s.p99)} | ` +
            `${Math.round(median(s.rps)).toLocaleString("en-US")} | ${(median(s.rps) / baseline).toFixed(2)}× |`,
        );
      }
      ratios.push(`concurrency ${connections}: ${(median(samples[0]!.rps) / baseline).toFixed(2)}×`);
    }
    return [
      `GET ${BASE_PATH}${relative}, ${ROUNDS} alternating rounds of ${ROUND_S} s per target and concurrency (median ` +
        `round), keep-alive;`,
      "autocannon, the mock and Prism share the machine's two cores.",
      "",
      "| concurrency | target | p50 latency (ms) | p99 latency (ms) | throughput (req/s) | vs Prism alone (target " +
        "≥ 0.90) |",
      "|---|---|---|---|---|---|",
      ...rows,
      "",
      `The mock's throughput against Prism alone: ${ratios.join(", ")}.`,
      "autocannon records latency in whole milliseconds: a p50 of 0 means under 1 ms.",
    ].join("\n");
  } finally {
    await stopMock();
    await prism.stop();
    await rm(work, { recursive: true, force: true });
  }
}
