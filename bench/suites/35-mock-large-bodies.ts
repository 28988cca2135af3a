// What one request can cost the mock: a GET's latency while large invalid bodies are posted at the same
// time, against the same GET with nothing else going on, both measured in this run on the mock as
// `npm start` runs it. Each posted body is just under the mock's body limit (1 MiB): the documented
// request example of Resend Webhooks with its array filled with numbers where strings are expected, so
// that every item is a violation (about 500,000 of them). The ratio is what those bodies cost the others.
import { readFile } from "node:fs/promises";
import { API_KEY_HEADER, BASE_PATH } from "../../generated/client-meta.js";
import { BUNDLE_JSON } from "../../scripts/lib/paths.js";
import { DEFAULT_MAX_BODY_BYTES } from "../../src/mock/index.js";
import { findFreePort } from "../../src/mock/processes.js";
import { jsonMedia, listOperations, namedExamples, type OpenApiDocument } from "../../src/openapi/index.js";
import { startNpmStart } from "../support/npm-start.js";

export const title = "Mock: a GET's latency while large invalid bodies are posted";

const POSTERS = Number(process.env.BENCH_BODIES_POSTERS ?? 4);
const GETS = Number(process.env.BENCH_BODIES_GETS ?? 100);
/** The loaded phase ends after GETS requests or this long, whichever comes first. */
const LOADED_S = Number(process.env.BENCH_BODIES_SECONDS ?? 20);

const quantile = (values: number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;
const ms = (value: number) => value.toFixed(1);
const reported = (count: number) =>
  count === Infinity ? "more violations than fit in sl-violations" : `${count} violation(s)`;

/** The operation's documented request example with its first array filled with numbers, just under `bytes`. */
function invalidBody(spec: OpenApiDocument, operationId: string, bytes: number): { path: string; text: string } {
  const operation = listOperations(spec).find((op) => op.operationId === operationId);
  const example = operation && namedExamples(spec, jsonMedia(operation.requestBody))[0]?.value;
  const field =
    example && typeof example === "object"
      ? Object.entries(example).find(([, value]) => Array.isArray(value))?.[0]
      : undefined;
  if (!operation || !field) throw new Error(`bench: ${operationId} has no request example with an array`);
  const count = Math.floor((bytes - 64) / 2); // "0," per item
  return { path: operation.path, text: JSON.stringify({ ...(example as object), [field]: new Array(count).fill(0) }) };
}

async function timedGet(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`bench: GET answered ${response.status}`);
  return performance.now() - started;
}

export default async function run(): Promise<string> {
  const spec = JSON.parse(await readFile(BUNDLE_JSON, "utf8")) as OpenApiDocument;
  const relative = listOperations(spec).find((op) => op.method === "GET" && !op.path.includes("{"))?.path;
  if (!relative) throw new Error("bench: no GET operation without path parameters");
  const body = invalidBody(spec, "resendWebhooks", DEFAULT_MAX_BODY_BYTES);
  const port = await findFreePort();
  const stopMock = await startNpmStart(port);
  const base = `http://127.0.0.1:${port}${BASE_PATH}`;
  const headers = { [API_KEY_HEADER]: "bench", accept: "application/json" };
  try {
    for (let i = 0; i < 20; i++) await timedGet(base + relative, headers); // warm-up
    const alone: number[] = [];
    for (let i = 0; i < GETS; i++) alone.push(await timedGet(base + relative, headers));

    let posting = true;
    const posts: Array<{ status: number; ms: number; violations: number }> = [];
    const poster = async () => {
      while (posting) {
        const started = performance.now();
        const response = await fetch(base + body.path, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: body.text,
        });
        await response.arrayBuffer();
        const header = response.headers.get("sl-violations") ?? "[]";
        // Prism's violations cut to fit a header start with "Too many violations!": more than fit.
        const violations = header.startsWith("[") ? (JSON.parse(header) as unknown[]).length : Infinity;
        posts.push({ status: response.status, ms: performance.now() - started, violations });
      }
    };
    const posters = Array.from({ length: POSTERS }, poster);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the posters' first bodies are on their way
    const loaded: number[] = [];
    const deadline = performance.now() + LOADED_S * 1000;
    while (loaded.length < GETS && performance.now() < deadline) loaded.push(await timedGet(base + relative, headers));
    posting = false;
    await Promise.all(posters);

    const rows = [
      ["median", 0.5],
      ["p90", 0.9],
      ["max", 1],
    ].map(([name, q]) => {
      const [a, l] = [quantile(alone, q as number), quantile(loaded, q as number)];
      return `| ${name} | ${ms(a)} | ${ms(l)} | ${(l / a).toFixed(1)}× |`;
    });
    const statuses = [...new Set(posts.map((p) => p.status))].join(", ");
    return [
      `GET ${BASE_PATH}${relative}, one at a time: ${alone.length} alone, then ${loaded.length} while ${POSTERS} ` +
        `clients post`,
      `${(body.text.length / 2 ** 20).toFixed(2)} MiB invalid bodies to ${BASE_PATH}${body.path} without pause ` +
        `(${posts.length} posted,`,
      `answered ${statuses}, each in ${ms(
        quantile(
          posts.map((p) => p.ms),
          0.5,
        ),
      )} ms (median), reporting at most`,
      `${reported(Math.max(0, ...posts.map((p) => p.violations)))}). The mock and this bench share the machine's two ` +
        `cores.`,
      "",
      "| GET latency | alone (ms) | while bodies are posted (ms) | ratio |",
      "|---|---|---|---|",
      ...rows,
    ].join("\n");
  } finally {
    await stopMock();
  }
}
