// The sandbox (issue 21) as a server and as a store, each figure against a baseline of the same run:
//   - throughput: `api-contract sandbox` (the built dist/cli.js in its own process; every answer checked against
//     the contract by the sandbox itself, a failure would be a 500 and a logged bug) against the mock as `npm start`
//     runs it (Prism), in alternating rounds. A read (Get Fiat Rates) and a write (Create Quote, the sandbox's
//     limits raised so that the bench never meets a 429), at concurrency 1 and 16. Targets (RATIO_TARGETS), for both
//     requests in the same run: the sandbox ≥ 3× the mock at concurrency 1, ≥ 8× at 16.
//   - memory: 10,000 accounts with 20 trades each (Create Quote and Accept Quote through `sandbox.fetch`), built in
//     a process of its own (this file run directly, with --expose-gc), its RSS against the same process before,
//     and the time of a snapshot, its JSON and a restore; then `api-contract sandbox --state` on that state: its
//     restart time, and a GET's latency while another process reads the state's export back to back, and while
//     one puts the state back (PUT /_sandbox/state) back to back, against idle.
//   - stall: a GET's latency while 1 MiB invalid bodies arrive on other connections, against its idle latency.
//   - webhooks (issue 22): deliveries per second to a local receiver against the global fetch sending the same
//     POSTs, and the API's latency while 1,000 webhooks wait on a receiver that never answers, against idle.
// Ratios are the result; absolute figures vary by machine. Not a test: nothing here asserts a time.
// BENCH_SANDBOX_ONLY=throughput runs the throughput part alone (while iterating on the hot path); the report then
// says the other parts were not run.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import autocannon from "autocannon";
import { API_KEY_HEADER, BASE_PATH, WEBHOOK_SIGNATURE_HEADER } from "../../generated/client-meta.js";
import { ROOT } from "../../scripts/lib/paths.js";
import { findFreePort } from "../../src/mock/processes.js";
import { type StartedNodeServer, startNodeServer, startNpmStart } from "../support/npm-start.js";

export const title = "Sandbox: throughput against the mock, memory, stall, webhooks (autocannon)";

const ROUND_S = Number(process.env.BENCH_SANDBOX_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_SANDBOX_ROUNDS ?? 3);
const ACCOUNTS = Number(process.env.BENCH_SANDBOX_ACCOUNTS ?? 10_000);
const THROUGHPUT_ONLY = process.env.BENCH_SANDBOX_ONLY === "throughput";
const TRADES_PER_ACCOUNT = 20;
/** How long the GETs are measured while the state moves: a few whole exports or imports of the memory run's state. */
const MOVING_S = 3 * ROUND_S;
const HUGE_LIMITS = { requestsPerMinute: 1e9, quotesPerHour: 1e9 };
const MIB = 1024 * 1024;
const runFile = promisify(execFile);

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const formatRate = (value: number): string => Math.round(value).toLocaleString("en-US");
const times = (value: number): string => `${value.toFixed(2)}×`;

/** The throughput targets: sandbox req/s ÷ mock req/s, by concurrency, for every workload. */
const RATIO_TARGETS = new Map([
  [1, 3],
  [16, 8],
]);

interface Workload {
  name: string;
  path: string;
  method: "GET" | "POST";
  body?: string;
}

const WORKLOADS: Workload[] = [
  { name: "GET Get Fiat Rates", method: "GET", path: `${BASE_PATH}/currencies/fiat-rates` },
  {
    name: "POST Create Quote",
    method: "POST",
    path: `${BASE_PATH}/trades/quote`,
    body: JSON.stringify({ sourceId: "USDT", targetId: "NGNX", amount: 10, side: "SELL" }),
  },
];

const requestHeaders = (workload: Workload): Record<string, string> => ({
  [API_KEY_HEADER]: "bench",
  accept: "application/json",
  ...(workload.body ? { "content-type": "application/json" } : {}),
});

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

/** One autocannon run; any answer outside 2xx (a sandbox bug answers 500) or a socket error fails the bench. */
async function measure(name: string, url: string, workload: Workload, connections: number, duration: number) {
  const result = await autocannon({
    url,
    connections,
    duration,
    method: workload.method,
    headers: requestHeaders(workload),
    ...(workload.body ? { body: workload.body } : {}),
  });
  if (result.non2xx || result.errors)
    throw new Error(`${name}, ${workload.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    max: result.latency.max,
  };
}

interface Target {
  name: string;
  origin: string;
}

/**
 * Alternating rounds over the targets for one workload and concurrency: the median round of each, and every
 * round's samples (target by target) for the spread of a ratio.
 */
async function compare(targets: Target[], workload: Workload, connections: number) {
  for (const target of targets) await measure(target.name, target.origin + workload.path, workload, connections, 2);
  const rounds = targets.map(() => [] as Sample[]);
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, target] of targets.entries())
      rounds[i]!.push(await measure(target.name, target.origin + workload.path, workload, connections, ROUND_S));
  const medians = rounds.map((samples) => ({
    rps: median(samples.map((s) => s.rps)),
    p50: median(samples.map((s) => s.p50)),
    p99: median(samples.map((s) => s.p99)),
    mean: median(samples.map((s) => s.mean)),
    max: median(samples.map((s) => s.max)),
  }));
  return { medians, rounds };
}

/** The servers of the run, each in its own process. */
interface Servers {
  sandbox: string;
  mock: string;
}

/** Throughput rows: the sandbox and the mock for each workload and concurrency, the ratio against its target. */
async function throughput(servers: Servers): Promise<{ rows: string[]; missed: string[] }> {
  const rows: string[] = [];
  const missed: string[] = [];
  const targets: Target[] = [
    { name: "sandbox", origin: servers.sandbox },
    { name: "`npm start` (the mock)", origin: servers.mock },
  ];
  for (const workload of WORKLOADS)
    for (const [connections, target] of RATIO_TARGETS) {
      const { medians, rounds } = await compare(targets, workload, connections);
      const [sandbox, mock] = medians as [Sample, Sample];
      const ratio = sandbox.rps / mock.rps;
      const roundRatios = rounds[0]!.map((sample, round) => sample.rps / rounds[1]![round]!.rps);
      const spread = `${Math.min(...roundRatios).toFixed(2)}–${Math.max(...roundRatios).toFixed(2)}×`;
      const cell = (sample: Sample) => `${formatRate(sample.rps)} (${sample.p50} / ${sample.p99})`;
      if (ratio < target) missed.push(`${workload.name} at concurrency ${connections}`);
      rows.push(
        `| ${workload.name} | ${connections} | ${cell(sandbox)} | ${cell(mock)} | ${times(ratio)} (${spread}) | ` +
          `≥ ${target}× ${ratio >= target ? "✓" : "✗"} |`,
      );
    }
  return { rows, missed };
}

/** The journal's target: throughput with --state ÷ in memory, by concurrency (none at 1). */
const JOURNAL_TARGETS = new Map<number, number | undefined>([
  [1, undefined],
  [16, 0.5],
]);

/** Throughput rows of the sandbox with --state (its journal) against the same sandbox in memory. */
async function journalThroughput(inMemory: string, journaled: string): Promise<{ rows: string[]; missed: string[] }> {
  const rows: string[] = [];
  const missed: string[] = [];
  const targets: Target[] = [
    { name: "sandbox --state", origin: journaled },
    { name: "sandbox in memory", origin: inMemory },
  ];
  for (const workload of WORKLOADS)
    for (const [connections, target] of JOURNAL_TARGETS) {
      const { medians } = await compare(targets, workload, connections);
      const [durable, memory] = medians as [Sample, Sample];
      const ratio = durable.rps / memory.rps;
      if (target !== undefined && ratio < target) missed.push(`${workload.name} at concurrency ${connections}`);
      const goal = target === undefined ? "—" : `≥ ${target}× ${ratio >= target ? "✓" : "✗"}`;
      rows.push(
        `| ${workload.name} | ${connections} | ${formatRate(durable.rps)} | ${formatRate(memory.rps)} | ` +
          `${times(ratio)} | ${goal} |`,
      );
    }
  return { rows, missed };
}

/** The --state table with what it measured. */
function journalReport({ rows, missed }: { rows: string[]; missed: string[] }): string[] {
  return [
    "Journal: the same rounds against a second `api-contract sandbox` started with `--state` (every change an " +
      "answer shows written to its journal before the answer, synced within 100 ms; one key, so Create Quote's " +
      "store grows by a quote per request, and a journal line holds the quote added and the store's other parts).",
    "",
    "| request | concurrency | --state req/s | in memory req/s | ratio | target |",
    "|---|---|---|---|---|---|",
    ...rows,
    "",
    missed.length ? `Targets missed in this run: ${missed.join("; ")}.` : "Every journal target met in this run.",
  ];
}

/** How the 1 MiB bodies arrive: as fast as the server answers them on 4 connections, or at a steady pace. */
interface FloodPace {
  name: string;
  connections: number;
  /** Bodies per second over all connections; absent: as fast as answered. */
  perSecond?: number;
}

const FLOOD_PACES: FloodPace[] = [
  { name: "10/s on 1 connection", connections: 1, perSecond: 10 },
  { name: "as fast as answered, 4 connections", connections: 4 },
];

/** A process that POSTs `MIB`-byte bodies that are not JSON (cut short at the very end) to `url`. */
function floodScript(url: string, seconds: number, pace: FloodPace): string {
  const autocannonPath = createRequire(import.meta.url).resolve("autocannon");
  const options = {
    url,
    connections: pace.connections,
    duration: seconds,
    method: "POST",
    headers: requestHeaders(WORKLOADS[1]!),
    ...(pace.perSecond ? { overallRate: pace.perSecond } : {}),
  };
  return [
    `const autocannon = require(${JSON.stringify(autocannonPath)});`,
    `const opening = '{"sourceId":"';`,
    `const body = opening + "x".repeat(${MIB} - opening.length - 1) + '"';`,
    'console.log("flood; Ctrl-C");',
    `autocannon({ ...${JSON.stringify(options)}, body }, (error, result) => {`,
    "  if (error) throw error;",
    "  console.log(JSON.stringify({ total: result.requests.total, errors: result.errors, " +
      "statuses: result.statusCodeStats, bytes: Buffer.byteLength(body) }));",
    "});",
  ].join("\n");
}

interface FloodResult {
  total: number;
  errors: number;
  statuses: Record<string, { count: number }>;
  bytes: number;
}

/** The first line a process printed that is a JSON object (its result), once it printed it. */
async function jsonLine(server: StartedNodeServer, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = server
      .output()
      .split("\n")
      .find((text) => text.startsWith("{"));
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`bench: no result within ${timeoutMs} ms:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A GET's latency at `origin` while a flood process sends 1 MiB bodies to `floodUrl` at `pace`. */
async function latencyUnderFlood(origin: string, floodUrl: string, pace: FloodPace, work: string) {
  const [read] = WORKLOADS as [Workload];
  const script = path.join(work, `flood-${Date.now()}.cjs`);
  await writeFile(script, floodScript(floodUrl, ROUND_S + 2, pace));
  const flood = await startNodeServer([script], { name: "flood" });
  await new Promise((resolve) => setTimeout(resolve, 1000)); // let the flood reach its pace
  const loaded = await measure("under the flood", origin + read.path, read, 1, ROUND_S);
  const result = JSON.parse(await jsonLine(flood, 60_000)) as FloodResult;
  await flood.stop();
  return { loaded, flood: result };
}

/** The stall table: the sandbox's idle GET, then its GET under each pace of the flood (bodies answered 400). */
async function stall(origin: string, work: string): Promise<string[]> {
  const [read, write] = WORKLOADS as [Workload, Workload];
  const idle = await measure("idle", origin + read.path, read, 1, ROUND_S);
  const rows = [
    "| 1 MiB bodies arriving | GET mean / p99 (ms) | mean ÷ idle mean | GET req/s | 1 MiB bodies answered/s |",
    "|---|---|---|---|---|",
    `| none (idle) | ${idle.mean.toFixed(2)} / ${idle.p99} | — | ${formatRate(idle.rps)} | — |`,
  ];
  for (const pace of FLOOD_PACES) {
    const { loaded, flood } = await latencyUnderFlood(origin, origin + write.path, pace, work);
    if (flood.bytes !== MIB || flood.errors || (flood.statuses["400"]?.count ?? 0) !== flood.total)
      throw new Error(`bench: not every 1 MiB body was answered 400: ${JSON.stringify(flood)}`);
    rows.push(
      `| ${pace.name} | ${loaded.mean.toFixed(2)} / ${loaded.p99} | ${times(loaded.mean / idle.mean)} | ` +
        `${formatRate(loaded.rps)} | ${formatRate(flood.total / (ROUND_S + 2))} |`,
    );
  }
  return rows;
}

const WEBHOOKS = Number(process.env.BENCH_SANDBOX_WEBHOOKS ?? 1000);
const WEBHOOK_SECRET = "bench-webhook-secret";
const DEPOSIT = { currency: "USDT", network: "TRX", amount: 25 };

/** A receiver in its own process: answers every POST 204 once its body is read (the floor of a real one). */
function receiverScript(port: number): string {
  return [
    'const http = require("node:http");',
    "http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {",
    '  req.on("data", () => {});',
    '  req.on("end", () => { res.writeHead(204); res.end(); });',
    `}).listen(${port}, "127.0.0.1", () => console.log("receiver; Ctrl-C to stop"));`,
  ].join("\n");
}

/** A receiver that never answers: it takes each connection and reads it, and writes nothing. */
function silentReceiverScript(port: number): string {
  return [
    'const net = require("node:net");',
    'net.createServer((socket) => socket.on("data", () => {}).on("error", () => {}))',
    `  .listen(${port}, "127.0.0.1", () => console.log("silent receiver; Ctrl-C to stop"));`,
  ].join("\n");
}

/** Starts a script's server on a free port in its own process. */
async function startScript(work: string, name: string, script: (port: number) => string) {
  const port = await findFreePort();
  const file = path.join(work, `${name}-${port}.cjs`);
  await writeFile(file, script(port));
  const server = await startNodeServer([file], { name });
  return { url: `http://127.0.0.1:${port}/hooks`, stop: server.stop };
}

/**
 * Deliveries per second: WEBHOOKS deposits to an account whose webhookUrl is a local receiver, timed until the
 * outbox has settled (every webhook signed, POSTed and answered), against the same number of POSTs of one webhook's
 * bytes and headers sent by the global fetch at once (the floor: no outbox, no signing).
 */
async function webhookDeliveries(receiverUrl: string): Promise<{ sandbox: number; fetch: number }> {
  const { createSandbox } = await import("../../src/sandbox/index.js");
  const sandbox = createSandbox({ limits: HUGE_LIMITS });
  sandbox.putAccount("hooks", { balances: {}, webhookUrl: receiverUrl, webhookSecret: WEBHOOK_SECRET });
  let at = performance.now();
  for (let index = 0; index < WEBHOOKS; index++) sandbox.deposit({ apiKey: "hooks", ...DEPOSIT });
  await sandbox.webhooks.settled();
  const sandboxRate = WEBHOOKS / ((performance.now() - at) / 1000);
  const webhooks = await sandbox.webhooks.list("hooks");
  const delivered = webhooks.filter((webhook) => webhook.status === "delivered").length;
  if (delivered !== WEBHOOKS) throw new Error(`bench: ${delivered} of ${WEBHOOKS} webhooks delivered`);
  const one = webhooks[0] as unknown as { body: string; signature: string };
  const headers = { "content-type": "application/json", [WEBHOOK_SIGNATURE_HEADER]: one.signature };
  at = performance.now();
  const answers = await Promise.all(
    Array.from({ length: WEBHOOKS }, () => fetch(receiverUrl, { method: "POST", headers, body: one.body })),
  );
  const fetchRate = WEBHOOKS / ((performance.now() - at) / 1000);
  if (answers.some((answer) => answer.status !== 204)) throw new Error("bench: the receiver refused a POST");
  return { sandbox: sandboxRate, fetch: fetchRate };
}

/** The webhook outbox's state over the control API: how many of `apiKey`'s webhooks are pending. */
async function pendingWebhooks(origin: string, apiKey: string): Promise<number> {
  const answer = await fetch(`${origin}/_sandbox/webhooks?apiKey=${apiKey}`);
  const webhooks = (await answer.json()) as Array<{ status: string; attempts: unknown[] }>;
  return webhooks.filter((webhook) => webhook.status === "pending" && webhook.attempts.length === 1).length;
}

/**
 * The API's latency over HTTP (one GET at a time) while WEBHOOKS webhooks wait on a receiver that never answers
 * (each attempt an open connection, for the sandbox's delivery timeout), against its idle latency just before.
 */
async function latencyWhilePending(origin: string, silentUrl: string) {
  const [read] = WORKLOADS as [Workload];
  const idle = await measure("idle", origin + read.path, read, 1, ROUND_S);
  const put = await fetch(`${origin}/_sandbox/accounts/silent`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ balances: {}, webhookUrl: silentUrl, webhookSecret: WEBHOOK_SECRET }),
  });
  if (!put.ok) throw new Error(`bench: PUT the silent account answered ${put.status}`);
  for (let index = 0; index < WEBHOOKS; index++) {
    const made = await fetch(`${origin}/_sandbox/deposits`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ apiKey: "silent", ...DEPOSIT }),
    });
    if (made.status !== 201) throw new Error(`bench: a deposit answered ${made.status}: ${await made.text()}`);
  }
  const before = await pendingWebhooks(origin, "silent");
  const loaded = await measure("webhooks pending", origin + read.path, read, 1, ROUND_S);
  const after = await pendingWebhooks(origin, "silent");
  return { idle, loaded, before, after };
}

/** The webhook rows: deliveries per second, and the API's latency while webhooks wait on a silent receiver. */
async function webhookRows(origin: string, work: string): Promise<string[]> {
  const receiver = await startScript(work, "receiver", receiverScript);
  const silent = await startScript(work, "silent-receiver", silentReceiverScript);
  try {
    const rounds: Array<{ sandbox: number; fetch: number }> = [];
    for (let round = 0; round < ROUNDS; round++) rounds.push(await webhookDeliveries(receiver.url));
    const pending = await latencyWhilePending(origin, silent.url);
    const sandboxRate = median(rounds.map((round) => round.sandbox));
    const fetchRate = median(rounds.map((round) => round.fetch));
    const spread = (values: number[]) => `${formatRate(Math.min(...values))}–${formatRate(Math.max(...values))}`;
    return [
      "| deliveries to a local receiver | webhooks/s (median; spread) | the global fetch, same POSTs at once | ratio |",
      "|---|---|---|---|",
      `| ${formatRate(WEBHOOKS)} deposits, one account | ${formatRate(sandboxRate)} ` +
        `(${spread(rounds.map((round) => round.sandbox))}) | ${formatRate(fetchRate)} ` +
        `(${spread(rounds.map((round) => round.fetch))}) | ${times(sandboxRate / fetchRate)} |`,
      "",
      "| API over HTTP, one GET at a time | GET mean / p99 (ms) | GET req/s | mean ÷ idle mean | webhooks pending " +
        "(one attempt in flight) before / after |",
      "|---|---|---|---|---|",
      `| idle | ${pending.idle.mean.toFixed(2)} / ${pending.idle.p99} | ${formatRate(pending.idle.rps)} | — | — |`,
      `| ${formatRate(WEBHOOKS)} webhooks waiting on a receiver that never answers | ` +
        `${pending.loaded.mean.toFixed(2)} / ${pending.loaded.p99} | ${formatRate(pending.loaded.rps)} | ` +
        `${times(pending.loaded.mean / pending.idle.mean)} | ${pending.before} / ${pending.after} |`,
    ];
  } finally {
    await receiver.stop();
    await silent.stop();
  }
}

interface MemoryReport {
  accounts: number;
  trades: number;
  buildMs: number;
  rssBefore: number;
  rssAfter: number;
  heapAfter: number;
  snapshotMs: number;
  stringifyMs: number;
  jsonBytes: number;
  parseMs: number;
  restoreMs: number;
}

/** Runs the memory part in a fresh process (this file with --expose-gc), so that its RSS is the sandbox's alone. */
async function memory(work: string): Promise<string[]> {
  const self = fileURLToPath(import.meta.url);
  const statePath = path.join(work, "memory-state.json");
  // A heap limit above the default: the state, its copy, its JSON and the parsed copy coexist for a moment.
  const args = ["--expose-gc", "--max-old-space-size=8192", "--import", "tsx", self, "memory", statePath];
  const server = await startNodeServer(args, {
    name: "the memory run",
    timeoutMs: 30 * 60_000,
  });
  await server.stop();
  const report = JSON.parse(await jsonLine(server, 0)) as MemoryReport;
  const mb = (bytes: number) => (bytes / MIB).toFixed(1);
  const perAccount = (report.rssAfter - report.rssBefore) / report.accounts / 1024;
  const restart = await restartTimes(work, statePath);
  const moving = await latencyWhileStateMoves(work, statePath);
  return [
    "| accounts × trades | built in (s) | RSS before → after (MiB) | heap after (MiB) | per account (KiB) | " +
      "snapshot() (ms) | JSON (MiB; stringify, parse ms) | restore() (ms) |",
    "|---|---|---|---|---|---|---|---|",
    `| ${formatRate(report.accounts)} × ${report.trades} | ${(report.buildMs / 1000).toFixed(1)} | ` +
      `${mb(report.rssBefore)} → ${mb(report.rssAfter)} | ${mb(report.heapAfter)} | ${perAccount.toFixed(1)} | ` +
      `${Math.round(report.snapshotMs)} | ${mb(report.jsonBytes)}; ${Math.round(report.stringifyMs)}, ` +
      `${Math.round(report.parseMs)} | ${Math.round(report.restoreMs)} |`,
    "",
    `Restart: \`api-contract sandbox --state\` on the state file of these ${formatRate(report.accounts)} accounts ` +
      `(${mb(report.jsonBytes)} MiB, as the sandbox writes it), from its start until it listens; against the same ` +
      "command without a state file.",
    "",
    "| restart | with the state (ms) | without (ms) | target |",
    "|---|---|---|---|",
    `| ${formatRate(report.accounts)} × ${report.trades} | ${Math.round(restart.withState)} | ` +
      `${Math.round(restart.without)} | < 1,000 ms ${restart.withState < 1_000 ? "✓" : "✗"} |`,
    "",
    `Export and import: the same sandbox (--state), one GET at a time (Get Fiat Rates), alone (${ROUND_S} s), ` +
      `while another process reads \`GET /_sandbox/state\` whole, one export after another (${MOVING_S} s), and ` +
      "while one puts the state file's text back with `PUT /_sandbox/state`, one import after another (each " +
      "journaled: the state file written whole again and synced, and until it is, an answer that changes anything, " +
      `as each GET does its keyless limit window, waits: the journal's rule; ${MOVING_S} s).`,
    "",
    "| GET | mean / p99 / max (ms) | mean ÷ idle mean | GET req/s | exports or imports (MiB/s) |",
    "|---|---|---|---|---|",
    `| idle | ${moving.idle.mean.toFixed(2)} / ${moving.idle.p99} / ${moving.idle.max} | — | ` +
      `${formatRate(moving.idle.rps)} | — |`,
    movingRow("while the state is exported", moving.idle, moving.exporting),
    movingRow("while the state is imported", moving.idle, moving.importing),
  ];
}

/** A row of the export and import table: the GETs' latency while the state moves, and the moves made. */
function movingRow(name: string, idle: Sample, { loaded, moves, mibPerSecond }: StateMoves): string {
  return (
    `| ${name} | ${loaded.mean.toFixed(2)} / ${loaded.p99} / ${loaded.max} | ${times(loaded.mean / idle.mean)} | ` +
    `${formatRate(loaded.rps)} | ${moves} (${mibPerSecond.toFixed(0)}) |`
  );
}

/** Reads `GET <origin>/_sandbox/state` whole, one export after another, until stopped; prints moves and bytes. */
const exportReaderScript = (origin: string) =>
  [
    "let [made, bytes, stop] = [0, 0, false];",
    'process.on("SIGTERM", () => { stop = true; });',
    "(async () => {",
    '  console.log("reading; Ctrl-C");',
    "  while (!stop) {",
    `    const answer = await fetch(${JSON.stringify(`${origin}/_sandbox/state`)});`,
    '    if (answer.status !== 200) throw new Error("export answered " + answer.status);',
    "    bytes += (await answer.arrayBuffer()).byteLength;",
    "    made++;",
    "  }",
    "  console.log(JSON.stringify({ moves: made, bytes }));",
    "})();",
  ].join("\n");

/**
 * Puts `statePath`'s text (read once, before the first) back with `PUT <origin>/_sandbox/state`, one after another,
 * until stopped; prints moves and bytes.
 */
const importWriterScript = (origin: string, statePath: string) =>
  [
    `const text = require("node:fs").readFileSync(${JSON.stringify(statePath)});`,
    "let [made, bytes, stop] = [0, 0, false];",
    'process.on("SIGTERM", () => { stop = true; });',
    "(async () => {",
    '  console.log("writing; Ctrl-C");',
    "  while (!stop) {",
    `    const answer = await fetch(${JSON.stringify(`${origin}/_sandbox/state`)}, {`,
    '      method: "PUT", headers: { "content-type": "application/json" }, body: text,',
    "    });",
    "    if (answer.status !== 204)",
    '      throw new Error("import answered " + answer.status + ": " + (await answer.text()));',
    "    bytes += text.length;",
    "    made++;",
    "  }",
    "  console.log(JSON.stringify({ moves: made, bytes }));",
    "})();",
  ].join("\n");

/** The GETs' latency while another process moves the state (exports or imports it) back to back. */
interface StateMoves {
  loaded: Sample;
  moves: number;
  mibPerSecond: number;
}

/** The GETs' latency at `origin` while the process of `script` (its file in `work`) moves the state. */
async function latencyWhileMoving(work: string, origin: string, name: string, script: string): Promise<StateMoves> {
  const [read] = WORKLOADS as [Workload];
  const file = path.join(work, `${name}.cjs`);
  await writeFile(file, script);
  const mover = await startNodeServer([file], { name: `the state's ${name}` });
  const started = performance.now();
  const loaded = await measure(name, origin + read.path, read, 1, MOVING_S);
  await mover.stop();
  const seconds = (performance.now() - started) / 1000;
  const { moves, bytes } = JSON.parse(await jsonLine(mover, 0)) as { moves: number; bytes: number };
  return { loaded, moves, mibPerSecond: bytes / MIB / seconds };
}

/**
 * A GET's latency on the sandbox started with the memory run's state, idle, while another process reads the
 * state's export back to back (each export made in chunks, a turn of the event loop between them: state-export.ts),
 * and while one puts the state back (each read and checked a store at a time: state-import.ts, state-check.ts).
 */
async function latencyWhileStateMoves(work: string, statePath: string) {
  const [read] = WORKLOADS as [Workload];
  const config = path.join(work, "export-config.json");
  await writeFile(config, JSON.stringify({ limits: HUGE_LIMITS }));
  const port = await findFreePort();
  const cli = [path.join("dist", "cli.js"), "sandbox", "--port", String(port), "--quiet", "--config", config];
  const sandbox = await startNodeServer(["--max-old-space-size=8192", ...cli, "--state", statePath], {
    name: "api-contract sandbox --state (export, import)",
    timeoutMs: 5 * 60_000,
  });
  try {
    const origin = `http://127.0.0.1:${port}`;
    const idle = await measure("idle", origin + read.path, read, 1, ROUND_S);
    const exporting = await latencyWhileMoving(work, origin, "exporting", exportReaderScript(origin));
    const importing = await latencyWhileMoving(work, origin, "importing", importWriterScript(origin, statePath));
    failOnBugs(sandbox);
    return { idle, exporting, importing };
  } finally {
    await sandbox.stop();
  }
}

/** How long `api-contract sandbox` takes from its start until it listens, with `--state statePath` and without. */
async function restartTimes(work: string, statePath: string): Promise<{ withState: number; without: number }> {
  const config = path.join(work, "restart-config.json");
  await writeFile(config, JSON.stringify({ limits: HUGE_LIMITS }));
  const cli = [path.join("dist", "cli.js"), "sandbox", "--port", "0", "--quiet", "--config", config];
  const withState = await timeToListen([...cli, "--state", statePath]);
  const without = await timeToListen(cli);
  return { withState, without };
}

/** Milliseconds from spawning `node args` until it prints the line that says it listens (then it is stopped). */
async function timeToListen(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ["--max-old-space-size=8192", ...args], { cwd: ROOT });
  let output = "";
  const listening = await new Promise<number>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
      if (output.includes("Ctrl-C")) resolve(performance.now() - started);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.once("exit", (code) => reject(new Error(`bench: the sandbox exited (${code}) before listening: ${output}`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  return listening;
}

/** Throws when the sandbox logged a bug (an answer that failed the contract) or anything else unexpected. */
function failOnBugs(sandbox: StartedNodeServer): void {
  const bugs = sandbox
    .output()
    .split("\n")
    .filter((text) => text.trim() && !/^(Sandbox of| {2}control API:|Ctrl-C|sandbox state)/.test(text));
  if (bugs.length) throw new Error(`bench: the sandbox logged bugs:\n${bugs.join("\n")}`);
}

/** The throughput table with what it measured. */
function throughputReport({ rows, missed }: { rows: string[]; missed: string[] }): string[] {
  return [
    `Throughput: ${ROUNDS} alternating rounds of ${ROUND_S} s per target, workload and concurrency (median round, ` +
      "after a 2 s warm-up), keep-alive; each cell req/s (p50 / p99 latency in ms; autocannon records whole ms, 0 " +
      "is under 1 ms).",
    "The sandbox is `api-contract sandbox` (dist/cli.js as `npx` runs it, built first; its own process, limits " +
      "raised by --config), " +
      "checking every answer against the contract; the mock is `npm start` (Prism). autocannon and both servers " +
      "share the machine's two cores. The ratio is of the median rounds; in brackets, the lowest and highest " +
      "ratio of a round to the mock's round beside it.",
    "",
    "| request | concurrency | sandbox | `npm start` (the mock) | sandbox ÷ mock (rounds) | target |",
    "|---|---|---|---|---|---|",
    ...rows,
    "",
    missed.length
      ? `Targets missed in this run: ${missed.join("; ")}.`
      : "Every target met in this run (≥ 3× the mock at concurrency 1, ≥ 8× at 16, GET and POST).",
    "No answer of the servers was outside 2xx, and the sandbox logged no answer that failed the contract.",
    ...(THROUGHPUT_ONLY ? ["", "BENCH_SANDBOX_ONLY=throughput: memory, stall and webhooks not run."] : []),
  ];
}

export default async function run(): Promise<string> {
  const work = await mkdtemp(path.join(tmpdir(), "bench-sandbox-"));
  const stops: Array<() => Promise<void>> = [];
  try {
    const config = path.join(work, "sandbox.json");
    await writeFile(config, JSON.stringify({ limits: HUGE_LIMITS }));
    const sandboxPort = await findFreePort();
    // What `npx api-contract sandbox` runs: the built dist/cli.js, not src under tsx (whose helpers cost per call).
    await runFile("npm", ["run", "-s", "build:dist"], { cwd: ROOT, maxBuffer: 32 * MIB });
    const sandbox = await startNodeServer(
      [path.join("dist", "cli.js"), "sandbox", "--port", String(sandboxPort), "--quiet", "--config", config],
      { name: "api-contract sandbox" },
    );
    stops.push(sandbox.stop);
    const mockPort = await findFreePort();
    stops.push(await startNpmStart(mockPort));
    const origin = `http://127.0.0.1:${sandboxPort}`;
    const servers: Servers = { sandbox: origin, mock: `http://127.0.0.1:${mockPort}` };
    const throughputRows = await throughput(servers);
    const journaledPort = await findFreePort();
    const journaled = await startNodeServer(
      [path.join("dist", "cli.js"), "sandbox", "--port", String(journaledPort), "--quiet", "--config", config].concat([
        "--state",
        path.join(work, "state.json"),
      ]),
      { name: "api-contract sandbox --state" },
    );
    stops.push(journaled.stop);
    const journalRows = await journalThroughput(origin, `http://127.0.0.1:${journaledPort}`);
    failOnBugs(journaled);
    if (THROUGHPUT_ONLY) {
      failOnBugs(sandbox);
      return [...throughputReport(throughputRows), "", ...journalReport(journalRows)].join("\n");
    }
    const stallRows = await stall(servers.sandbox, work);
    const webhookTable = await webhookRows(servers.sandbox, work);
    failOnBugs(sandbox);
    for (const stop of stops.splice(0)) await stop();
    const memoryRows = await memory(work);
    return [
      ...throughputReport(throughputRows),
      "",
      ...journalReport(journalRows),
      "",
      `Memory: ${formatRate(ACCOUNTS)} accounts (putAccount), each with ${TRADES_PER_ACCOUNT} trades (Create Quote ` +
        "then Accept Quote through `sandbox.fetch`, every answer checked), in a process of its own; RSS and heap " +
        "after a full GC.",
      "",
      ...memoryRows,
      "",
      `Stall: one GET at a time (Get Fiat Rates, ${ROUND_S} s), alone and while another process sends 1 MiB bodies ` +
        "that are not JSON (cut short at the very end, so the whole MiB is read and parsed before the sandbox " +
        "refuses it with 400), at a steady pace and as fast as they are answered.",
      "",
      ...stallRows,
      "",
      `Webhooks: ${formatRate(WEBHOOKS)} deposits to an account whose webhookUrl is a receiver in its own process ` +
        "(node:http, 204 to each), in this process through `sandbox.deposit`, timed until " +
        "`sandbox.webhooks.settled()` " +
        `(every webhook signed, POSTed, answered; each checked delivered), ${ROUNDS} rounds; against the global ` +
        "fetch POSTing one webhook's bytes and headers as many times at once. Then, in the sandbox of the throughput " +
        `run, ${formatRate(WEBHOOKS)} deposits (POST /_sandbox/deposits) for an account whose receiver takes the ` +
        "connection and never answers, so each webhook's first attempt stays open until the delivery timeout, and " +
        "the API's latency meanwhile against its idle latency just before.",
      "",
      ...webhookTable,
    ].join("\n");
  } finally {
    for (const stop of stops) await stop();
    await rm(work, { recursive: true, force: true });
  }
}

/** The memory run, in the process `memory()` starts: builds the accounts, measures, prints one JSON line. */
async function memoryRun(): Promise<void> {
  const { createSandbox } = await import("../../src/sandbox/index.js");
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("bench: the memory run needs --expose-gc");
  const sandbox = createSandbox({ clock: { start: Date.UTC(2026, 10, 26) }, limits: HUGE_LIMITS });
  gc();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const send = async (apiKey: string, method: string, route: string, body: unknown) => {
    const response = await sandbox.fetch(
      new Request(`http://sandbox.local${BASE_PATH}${route}`, {
        method,
        headers: { [API_KEY_HEADER]: apiKey, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
    if (!response.ok)
      throw new Error(`bench: ${method} ${route} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { data: { id: string } };
  };
  for (let index = 0; index < ACCOUNTS; index++) {
    const apiKey = `bench-${index}`;
    sandbox.putAccount(apiKey, { balances: { USDT: 1_000_000 } });
    for (let trade = 0; trade < TRADES_PER_ACCOUNT; trade++) {
      const quote = await send(apiKey, "POST", "/trades/quote", {
        sourceId: "USDT",
        targetId: "NGNX",
        amount: 10 + trade,
        side: "SELL",
      });
      await send(apiKey, "POST", `/trades/quote/${quote.data.id}`, {});
    }
  }
  const buildMs = performance.now() - started;
  gc();
  const { rss: rssAfter, heapUsed: heapAfter } = process.memoryUsage();
  let at = performance.now();
  let state: ReturnType<typeof sandbox.snapshot> | undefined = sandbox.snapshot();
  const snapshotMs = performance.now() - at;
  at = performance.now();
  const json = JSON.stringify(state);
  const stringifyMs = performance.now() - at;
  state = undefined; // only the JSON is kept, as a saved state is
  await writeFile(process.argv[3]!, `${json}\n`); // the state file a --state sandbox would have written
  at = performance.now();
  const parsed = JSON.parse(json) as ReturnType<typeof sandbox.snapshot>;
  const parseMs = performance.now() - at;
  const restored = createSandbox({ limits: HUGE_LIMITS });
  at = performance.now();
  restored.restore(parsed);
  const restoreMs = performance.now() - at;
  const jsonBytes = Buffer.byteLength(json);
  const report: MemoryReport = {
    accounts: ACCOUNTS,
    trades: TRADES_PER_ACCOUNT,
    buildMs,
    rssBefore,
    rssAfter,
    heapAfter,
    snapshotMs,
    stringifyMs,
    jsonBytes,
    parseMs,
    restoreMs,
  };
  console.log(JSON.stringify(report));
  console.log("memory bench done; Ctrl-C");
  // Stays alive until the suite stops it (startNodeServer waits for the line above, then stops this process).
  setInterval(() => {}, 60_000);
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "memory") await memoryRun();
