// The consumer test: `npm pack`, install the tarball into fresh projects outside the repo, and use the
// package as another repository would, on every Node and TypeScript version of test/consumer/matrix.ts:
// - per Node (20, 22, 24; binaries from the npm registry, test/consumer/toolchain.ts): the client, ./types and
//   the contract validator as ESM and as CJS against a local server, ./mock as a vitest globalSetup (ESM, CJS),
//   a vitest suite of the consumer's own (the client guide's globalSetup starting the mock; the ./msw handlers of
//   the mock (the guide's test file) and of the sandbox, also with the lowest msw and openapi-msw their peer ranges
//   allow; and on msw 3, where Node has its engines (22, 24, 26), without openapi-msw, which supports msw 2 only:
//   the guide's test file as msw 3 takes it, the sandbox's handlers, createHttp saying what it needs),
//   `npx api-contract mock` stopped with kill -TERM, every operation through the client against
//   `api-contract mock`, and `api-contract verify` against that mock, a proxy that breaks one field, and a
//   server that refuses everything; ./sandbox as ESM and CJS, and `npx api-contract sandbox` (the package
//   alone: no Prism) running the sandbox guide's worked flow and the webhooks guide's example (a node:http
//   receiver on 127.0.0.1 in the consumer's project, verifying each signature with the package's
//   verifyWebhookSignature);
// - per TypeScript version (5.9, 7) and module resolution (bundler, nodenext): `tsc --strict` on a consumer,
//   which must pass, next to deliberately wrong calls, which must fail on exactly their lines; the same for a
//   consumer of ./msw on msw 3.
// Projects: one with the package alone (the mock's optional peer missing), shared by every Node; one with the
// optional peers (@stoplight/prism-http, msw, openapi-msw) and vitest as npm picks them when it runs on that Node (the
// versions this repository develops with, or older ones where their engines exclude that Node), one with the lowest
// msw and openapi-msw, and one with msw 3 (test/consumer/matrix.ts) and no other peer, each shared by the
// Nodes npm resolves the same packages for. publint and attw check the same tarball. Cells run concurrently,
// each Node's as soon as its project is installed; its processes (npm, api-contract) find it first on PATH.
import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  API_KEY_HEADER,
  BASE_PATH,
  jsonMedia,
  listSpecOperations,
  loadSpec,
  parameterExample,
  RATE_LIMIT_HEADERS,
  rateLimitExamples,
  repoRoot,
  requestExample,
  successExample,
  successKey,
} from "../support/spec.js";
import { WEBHOOK_SIGNATURE_HEADER } from "../../generated/client-meta.js";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { isRunning } from "../support/processes.js";
import { docsSample } from "../support/docs-samples.js";
import { WEBHOOKS_GUIDE_OUTCOME, webhooksSample } from "../support/webhooks-guide.js";
import { multipartMedia } from "../../src/openapi/index.js";
import ts from "typescript";
import { MSW_3, NODE_VERSIONS, RESOLUTIONS, TYPESCRIPT_VERSIONS } from "./matrix.js";
import { ensureNode, ensureTypeScript, type Tool } from "./toolchain.js";

const run = promisify(execFile);
const bin = (name: string) => path.join(repoRoot, "node_modules", ".bin", name);
const { name: PACKAGE, peerDependencies } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  name: string;
  peerDependencies: Record<string, string>;
};
/**
 * The optional peers: their peer range capped at the version this repository develops with (package-lock.json),
 * each alternative of it (msw: ^2.10.5 || ^3.0.0 becomes ^2.10.5 <=2.12.9 || ^3.0.0 <=2.12.9, so msw 2.12.9).
 * npm picks the newest version in it whose engines accept the Node it runs on: the locked one on Node 24.
 */
const lock = JSON.parse(readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version: string }>;
};
const locked = (name: string) => lock.packages[`node_modules/${name}`]!.version;
const capped = (range: string, cap: string) =>
  range
    .split("||")
    .map((alternative) => `${alternative.trim()} <=${cap}`)
    .join(" || ");
const PEERS = Object.entries(peerDependencies).map(([peer, range]) => `${peer}@${capped(range, locked(peer))}`);
/** What `api-contract verify` prints when the one case broken by the proxy below fails, and it alone. */
const FIAT_RATES_CASE_FAILED = /^Failed \(1\):\n {2}✗ getFiatRates: GET \/currencies\/fiat-rates → 200\n/m;
/** The version of `peer` installed in the project at `dir`. */
const versionIn = (dir: string, peer: string) =>
  (JSON.parse(readFileSync(path.join(dir, "node_modules", peer, "package.json"), "utf8")) as { version: string })
    .version;
/** The optional peers ./msw needs. */
const MSW_PEERS = ["msw", "openapi-msw"];
/** The consumer's own test runner, capped the same way: vitest 5 needs Node 22.12+, so Node 20 gets vitest 4. */
const CONSUMER_VITEST = `vitest@>=4.0.0 <=${locked("vitest")}`;
/**
 * Its vite, capped too: vite 8.4.0 (2026-11-26) lists an optional dependency the registry does not hold
 * (napi-windows-process-start-time, 404), which npm leaves out of the lock and `npm ci` then reports missing.
 */
const CONSUMER_VITE = `vite@>=6.0.0 <=${locked("vite")}`;

/** One Node of the matrix: its binary, an environment with it first on PATH, and its project with the peers. */
interface NodeCell {
  node: Tool;
  env: NodeJS.ProcessEnv;
  full: string;
  peers: string[];
  /** The vitest version npm picked for the consumer's own tests on this Node. */
  vitest: string;
  /** A project with the lowest msw and openapi-msw their peer ranges allow (and the same vitest). */
  mswLowest: string;
  /** A project with msw 3 (MSW_3) and no other peer, where this Node meets msw 3's engines (and the same vitest). */
  msw3?: string;
}

let work: string;
let tarball: string;
/** The package alone: what a types- or client-only consumer installs. */
let bare: string;
/** Set up in the background once the tarball exists; each Node's tests start as soon as its own is ready. */
const nodeSetups = new Map<string, Promise<NodeCell>>();
let compilersReady: Promise<Map<string, Tool>>;
let server: { baseUrl: string; close(): Promise<void> };

/**
 * npm in `dir`, on the Node `env`'s PATH finds first (npm's own `#!/usr/bin/env node`), from its cache where it
 * can.
 */
const npm = (dir: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  run("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], {
    cwd: dir,
    env,
    maxBuffer: 32 * 2 ** 20,
  });

async function newProject(name: string): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(dir);
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ name, version: "0.0.0", private: true }));
  return dir;
}

/** The installed projects, by what npm resolved: Nodes it resolves the same packages for share one. */
const installedProjects = new Map<string, Promise<string>>();

/**
 * A project with `specs` as npm resolves them on `env`'s Node: resolved first (lock only, fast), then installed
 * once per outcome; `prepare` runs on a newly installed one. Returns its directory and the resolved lock.
 */
async function installShared(
  name: string,
  specs: string[],
  env: NodeJS.ProcessEnv,
  prepare?: (dir: string) => Promise<void>,
) {
  const dir = await newProject(name);
  await npm(dir, ["install", "--package-lock-only", ...specs], env);
  const { packages } = JSON.parse(await readFile(path.join(dir, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string; resolved?: string }>;
  };
  const resolved = JSON.stringify(Object.entries(packages).filter(([location]) => location !== ""));
  let installed = installedProjects.get(resolved);
  if (!installed) {
    installed = npm(dir, ["ci"], env).then(async () => {
      await prepare?.(dir);
      return dir;
    });
    installedProjects.set(resolved, installed);
  }
  return { dir: await installed, packages };
}

/** A version's numbers, to compare. */
const numbers = (version: string) => version.split(".").map(Number);
const compareVersions = (a: string, b: string) =>
  numbers(a).reduce((order, part, i) => order || part - numbers(b)[i]!, 0);

/** The lowest version a peer range of the form ^x.y.z (or alternatives of it: ^2.10.5 || ^3.0.0) allows. */
function lowestOf(range: string): string {
  const lowest = range.split("||").map((alternative) => /^\^(\d+\.\d+\.\d+)$/.exec(alternative.trim())?.[1]);
  if (lowest.some((version) => version === undefined))
    throw new Error(`peer range ${range}: not of the form ^x.y.z [|| ^x.y.z], so its lowest version is not read here`);
  return (lowest as string[]).sort(compareVersions)[0]!;
}

/** Whether Node `version` meets msw 3's engines (MSW_3.node, of the form >=x.y.z). */
function runsMsw3(version: string): boolean {
  const minimum = /^>=(\d+\.\d+\.\d+)$/.exec(MSW_3.node)?.[1];
  if (minimum === undefined) throw new Error(`MSW_3.node ${MSW_3.node}: not of the form >=x.y.z`);
  return compareVersions(version, minimum) >= 0;
}

async function setUpNode(node: Tool): Promise<NodeCell> {
  const { version } = node;
  const env = { ...process.env, PATH: `${path.dirname(node.bin)}${path.delimiter}${process.env.PATH ?? ""}` };
  // `api-contract` and npm start through `#!/usr/bin/env node`: that must find this Node.
  const { stdout } = await run("node", ["--version"], { env });
  if (stdout.trim() !== `v${version}`) throw new Error(`node on PATH is ${stdout.trim()}, not v${version}`);
  // npm running on this Node picks the versions (engines); installing is the slow part, so only once per outcome.
  const [{ dir: full, packages }, { dir: mswLowest }, msw3] = await Promise.all([
    installShared(`full-${version}`, [tarball, ...PEERS, CONSUMER_VITEST, CONSUMER_VITE], env, writeFullRunFiles),
    installShared(
      `msw-lowest-${version}`,
      [
        tarball,
        ...MSW_PEERS.map((peer) => `${peer}@${lowestOf(peerDependencies[peer]!)}`),
        CONSUMER_VITEST,
        CONSUMER_VITE,
      ],
      env,
    ),
    runsMsw3(version)
      ? installShared(`msw3-${version}`, [tarball, `msw@${MSW_3.version}`, CONSUMER_VITEST, CONSUMER_VITE], env)
      : undefined,
  ]);
  const peers = Object.keys(peerDependencies).map((peer) => `${peer}@${packages[`node_modules/${peer}`]?.version}`);
  const vitest = String(packages["node_modules/vitest"]?.version);
  const cell = { node, env, full, peers, vitest, mswLowest, msw3: msw3?.dir };
  console.info(
    `consumer test, Node ${describeTool(node)}: peers ${peers.join(", ")} installed in ${path.basename(cell.full)}`,
  );
  return cell;
}

const describeTool = (tool: Tool) => {
  const size = tool.bytes ? `, ${(tool.bytes / 2 ** 20).toFixed(0)} MiB` : "";
  return `${tool.version} (${tool.source}${size}, ${(tool.ms / 1000).toFixed(1)} s)`;
};

/** A deployment: the documented examples for quotes and rates, 503 for the wallet; or `status` for everything. */
async function startDeployment(status?: number): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const examples: Record<string, unknown> = { [`${BASE_PATH}/trades/quote`]: successExample("createQuote") };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const code = status ?? (req.url === `${BASE_PATH}/wallets/USDT` ? 503 : 200);
      const reset = String(Math.ceil(Date.now() / 1000) + 60);
      res.writeHead(code, {
        "content-type": "application/json",
        ...Object.fromEntries(Object.entries(rateLimitExamples()).map(([name, value]) => [name, String(value)])),
        [RATE_LIMIT_HEADERS.reset]: reset,
      });
      res.end(
        JSON.stringify(
          code === 200 ? (examples[req.url ?? ""] ?? successExample("getFiatRates")) : { message: "Service busy" },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The field startBreakingProxy breaks: Get Fiat Rates' first buyRate, a number, sent as a string. */
const BROKEN_POINTER = "/data/0/buyRate";

/**
 * A deployment that breaks the contract in one field: the mock at `target` (its base URL) behind a proxy of
 * this test's own that passes every request and answer through, except Get Fiat Rates' 200, whose
 * BROKEN_POINTER it turns into a string.
 */
async function startBreakingProxy(target: string): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const hopByHop = new Set([
    "host",
    "connection",
    "keep-alive",
    "transfer-encoding",
    "content-length",
    "content-encoding",
  ]);
  const server = http.createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = Object.entries(req.headers).flatMap(([name, value]) =>
        hopByHop.has(name) || typeof value !== "string" ? [] : [[name, value] as [string, string]],
      );
      const upstream = await fetch(`${target}${(req.url ?? "").slice(BASE_PATH.length)}`, {
        method: req.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      let body = Buffer.from(await upstream.arrayBuffer());
      if (
        upstream.status === 200 &&
        req.method === "GET" &&
        req.url?.split("?")[0] === `${BASE_PATH}/currencies/fiat-rates`
      ) {
        const json = JSON.parse(body.toString("utf8")) as { data: Array<Record<string, unknown>> };
        const [, , index, field] = BROKEN_POINTER.split("/");
        const item = json.data[Number(index)]!;
        item[field!] = String(item[field!]);
        body = Buffer.from(JSON.stringify(json));
      }
      const answerHeaders: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!hopByHop.has(name)) answerHeaders[name] = value;
      });
      res.writeHead(upstream.status, answerHeaders);
      res.end(body);
    } catch (error) {
      res.writeHead(502, { "content-type": "text/plain" }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const consumerTs = `
import { createClient, unwrap, ApiError, isQuoteExpired, SideValues, MOCK_BASE_URL, type Quote } from "${PACKAGE}";
import { signWebhook, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER, type WebhookPayload } from "${PACKAGE}";
import type { paths, components, Invoice, DepositWebhook } from "${PACKAGE}/types";
import { createBundledContractValidator, contractMiddleware } from "${PACKAGE}/contract";
import { startMock, type StartedMock } from "${PACKAGE}/mock";
import { createSandbox, type Sandbox, type SandboxOptions } from "${PACKAGE}/sandbox";

const sandboxOptions: SandboxOptions = { clock: { start: 0 }, limits: { quotesPerHour: 3 } };
export const sandbox: Sandbox = createSandbox(sandboxOptions);
export const sandboxClient = createClient({ baseUrl: "http://sandbox.test/v1", fetch: (r) => sandbox.fetch(r) });

export async function main(baseUrl: string = MOCK_BASE_URL): Promise<string> {
  const client = createClient({ baseUrl, apiKey: "consumer-key", retry: false });
  client.use(contractMiddleware(createBundledContractValidator()));
  const { data } = await client.POST("/trades/quote", {
    body: { sourceId: "USDT", targetId: "NGNX", amount: 10, side: SideValues[1] },
  });
  const quote: Quote | undefined = data?.data;
  const rates = await unwrap(client.GET("/currencies/fiat-rates"));
  const first: components["schemas"]["FiatRate"] | undefined = rates.data[0];
  const invoices: Invoice[] = [];
  type Ops = keyof paths;
  const op: Ops = "/invoices/me";
  // @ts-expect-error a path outside the contract
  void (() => client.GET("/nope"));
  const mock: StartedMock = await startMock({ port: 0 });
  await mock.stop();
  return [quote ? isQuoteExpired(quote, 0) : "none", first?.currency, invoices.length, op, ApiError.name].join(",");
}

/** A webhook receiver's check: the raw body (string, Buffer or ArrayBuffer), the header value as Node gives it. */
export async function receive(raw: string | Uint8Array, header: string | string[] | undefined): Promise<string> {
  if (!(await verifyWebhookSignature(raw, header, "webhook-secret"))) return WEBHOOK_SIGNATURE_HEADER;
  const event = JSON.parse(new TextDecoder().decode(typeof raw === "string" ? new TextEncoder().encode(raw) : raw));
  const deposit: DepositWebhook | undefined = (event as WebhookPayload).type === "DEPOSIT" ? event : undefined;
  return [deposit?.status, await signWebhook(raw, "webhook-secret")].join(",");
}
`;

/** ./msw is ESM only: an ES module consumer of it (.mts), type-checked next to consumer.ts. */
const consumerMswTs = `
import { createHandlers, createHttp, createSandboxHandlers } from "${PACKAGE}/msw";
import { createSandbox } from "${PACKAGE}/sandbox";

export const handlers = createHandlers({ baseUrl: "http://127.0.0.1:4010/v1" });
export const sandboxHandlers = createSandboxHandlers(createSandbox(), { baseUrl: "http://127.0.0.1:4020/v1" });
// @ts-expect-error openapi-msw's http only takes the contract's paths
createHttp().get("/nope", () => new Response());
`;

/**
 * The negative control: each line marked WRONG must fail to compile, and nothing else may. A compiler that
 * read no types (or none of these files) would pass consumer.ts; it cannot produce exactly these errors.
 */
const WRONG = "// WRONG:";
const negativeTs = `
import { createClient } from "${PACKAGE}";
import type { components } from "${PACKAGE}/types";
import { startMock } from "${PACKAGE}/mock";
import { createSandbox } from "${PACKAGE}/sandbox";

const client = createClient({ baseUrl: "http://127.0.0.1:4010/v1" });
const quote = { sourceId: "USDT", targetId: "NGNX", amount: 10 } as const;
export const wrongPath = client.GET("/nope", {}); ${WRONG} a path outside the contract
export const wrongEnum = client.POST("/trades/quote", { body: { ...quote, side: "HOLD" } }); ${WRONG} not a Side
export const missingParameter = client.POST("/trades/quote/{quoteId}", { body: {} }); ${WRONG} no path parameter
export const wrongSchema: components["schemas"]["FiatRate"]["buyRate"] = "1.5"; ${WRONG} a number in the contract
export const wrongOption = startMock({ port: "4010" }); ${WRONG} port is a number
export const wrongLimit = createSandbox({ limits: { quotesPerHour: "3" } }); ${WRONG} a limit is a number
`;
const negativeMswTs = `
import { createHttp } from "${PACKAGE}/msw";

export const wrongHandler = createHttp().get("/nope", () => new Response()); ${WRONG} a path outside the contract
`;

const runtimeCode = (importLines: string) => `${importLines}
(async () => {
  const client = createClient({ baseUrl: process.env.BASE_URL, apiKey: "consumer-key", retry: false });
  client.use(contractMiddleware(createBundledContractValidator()));
  const quote = await unwrap(client.POST("/trades/quote", { body: ${JSON.stringify(requestExample("createQuote"))} }));
  const rates = await unwrap(client.GET("/currencies/fiat-rates"));
  let status = 0;
  try { await unwrap(client.GET("/wallets/USDT")); } catch (e) { status = e instanceof ApiError ? e.status : -1; }
  console.log(JSON.stringify({
    node: process.version,
    expired: isQuoteExpired(quote.data, 0),
    rates: rates.data.length,
    status,
    sides: SideValues,
    remaining: client.rateLimit?.remaining,
    typesExports: Object.keys(typesEntry).length,
    webhook: [
      WEBHOOK_SIGNATURE_HEADER,
      await verifyWebhookSignature("{}", await signWebhook("{}", "webhook-secret"), "webhook-secret"),
      await verifyWebhookSignature("{ }", await signWebhook("{}", "webhook-secret"), "webhook-secret"),
    ],
  }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

/** A vitest globalSetup module (setup returns teardown), run with node as vitest would call it. */
const globalSetupCode = (importLine: string) => `${importLine}
async function setup() {
  const mock = await startMock();
  process.env.API_BASE_URL = mock.baseUrl;
  return () => mock.stop();
}
(async () => {
  const teardown = await setup();
  const response = await fetch(process.env.API_BASE_URL + "/currencies/fiat-rates");
  const body = await response.json();
  await teardown();
  const limit = response.headers.get("${RATE_LIMIT_HEADERS.limit}");
  console.log(JSON.stringify({ node: process.version, status: response.status, limit, rates: body.data.length }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

/**
 * Every operation as a consumer calls it through the package's client: path and required query parameters
 * and the body from the spec's examples, and the documented success status it must get.
 */
const OPERATION_CALLS = listSpecOperations().map((op) => {
  const parameters = (where: "path" | "query") =>
    Object.fromEntries(
      op.parameters
        .filter((p) => p.in === where && p.required === true)
        .map((p) => [String(p.name), parameterExample(loadSpec(), p)]),
    );
  return {
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    params: { path: parameters("path"), query: parameters("query") },
    body: op.requestBody ? requestExample(op.operationId) : undefined,
    // A multipart/form-data body (Upload Invoice Document) is sent as FormData, one part per field.
    multipart:
      op.requestBody !== undefined && !jsonMedia(op.requestBody) && multipartMedia(op.requestBody) !== undefined,
    status: Number(successKey(op)),
  };
});

/** Calls every operation through the client, each answer checked by the contract middleware (a violation throws). */
const allOperationsCode = (importLines: string) => `${importLines}
const calls = ${JSON.stringify(OPERATION_CALLS.map(({ status, ...call }) => call))};
(async () => {
  const client = createClient({ baseUrl: process.env.BASE_URL, apiKey: "consumer-key", retry: false });
  client.use(contractMiddleware(createBundledContractValidator()));
  const statuses = {};
  const toFormData = (fields) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return form;
  };
  for (const { operationId, method, path, params, body, multipart } of calls) {
    const serializer = multipart ? { bodySerializer: toFormData } : {};
    const { response } = await client[method](path, { params, body, ...serializer });
    statuses[operationId] = response.status;
  }
  console.log(JSON.stringify(statuses));
})().catch((e) => { console.error(e); process.exit(1); });
`;

const SUMMARY_EXAMPLE = successExample("getTradesSummary") as { data: { totalDollarVolume: number } };
/** The titles of a test file's top-level tests, in order: the consumer's vitest run must report each as passed. */
const testTitles = (code: string) => [...code.matchAll(/^it\("([^"]+)"/gm)].map(([, title]) => title);
/** What the consumer's vitest run must report for `files`: every test of each passed. */
const allPassed = (files: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(files).map(([file, code]) => [file, testTitles(code).map((title) => [title, "passed"])]),
  );
/**
 * The client guide's recipes of "Using it from another repo" (docs/samples/): 1, the vitest globalSetup
 * (client-vitest-global-setup.ts); 3, a test file on ./msw (client-msw-test.ts: the documented answers, a quote
 * not expired, an override, a 429 on request, a 401 without a key). The consumer saves them under the names their
 * first lines give.
 */
const GUIDE_GLOBAL_SETUP = docsSample("client-vitest-global-setup.ts");
const GUIDE_MSW_TEST = docsSample("client-msw-test.ts");
/** A test of the consumer's on the mock that globalSetup started, at the base URL it provides. */
const mockVitestCode = `import { expect, inject, it } from "vitest";
import { createClient, unwrap } from "${PACKAGE}";

it("reaches the mock the guide's globalSetup started", async () => {
  const api = createClient({ baseUrl: inject("apiBaseUrl"), apiKey: "test", retry: false });
  const summary = await unwrap(api.GET("/trades/summary/me"));
  expect(summary.data.totalDollarVolume).toBe(${SUMMARY_EXAMPLE.data.totalDollarVolume});
});
`;

/** The quote the consumer's sandbox programs ask for: 10 USDT sold for NGNX. */
const SANDBOX_QUOTE = { sourceId: "USDT", targetId: "NGNX", amount: 10, side: "SELL" };

/** A URL in a test file that is type-checked, not run. */
const UNUSED_URL = "http://127.0.0.1:9/v1/currencies/fiat-rates";
/** What msw names the option for requests no handler takes: msw 3 renamed it (and ignores the old name). */
type UnhandledOption = "onUnhandledRequest" | "onUnhandledFrame";

/**
 * A test file of the consumer's on the sandbox through ./msw's createSandboxHandlers (msw/node's setupServer):
 * a quote accepted once, the control API, a path the contract lacks (the sandbox's 404), and a request to
 * `elsewhere` (a real server) refused by MSW: so the option `unhandled` took effect.
 */
const sandboxMswTestCode = (unhandled: UnhandledOption, elsewhere: string) => `import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createClient, unwrap } from "${PACKAGE}";
import { createSandboxHandlers } from "${PACKAGE}/msw";
import { createSandbox } from "${PACKAGE}/sandbox";

const baseUrl = "http://127.0.0.1:4020/v1";
const sandbox = createSandbox({ clock: { start: Date.UTC(2026, 0, 1) } });
const server = setupServer(...createSandboxHandlers(sandbox, { baseUrl }));
beforeAll(() => server.listen({ ${unhandled}: "error" }));
afterAll(() => server.close());

it("trades through the sandbox's handlers: a quote accepted once, the balance moved", async () => {
  sandbox.putAccount("consumer-key", { balances: { USDT: 50 } });
  const api = createClient({ baseUrl, apiKey: "consumer-key", retry: false });
  const quote = await unwrap(api.POST("/trades/quote", { body: ${JSON.stringify(SANDBOX_QUOTE)} }));
  const accept = () => api.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: quote.data.id } } });
  const statuses = [(await accept()).response.status, (await accept()).response.status];
  expect(statuses).toEqual([200, ${REFUSAL_STATUS.quoteAccepted}]);
  expect(sandbox.getAccount("consumer-key")?.balances.USDT).toBe(40);
});

it("hands the control API and unknown paths to the sandbox; MSW refuses a request elsewhere", async () => {
  const clock = await fetch("http://127.0.0.1:4020/_sandbox/clock");
  expect(clock.status).toBe(200);
  expect((await fetch(baseUrl + "/no/such/path")).status).toBe(404);
  await expect(fetch(${JSON.stringify(elsewhere)})).rejects.toThrow();
});
`;

/** ./msw's createHttp on msw 3: openapi-msw is not installed (npm refuses it next to msw 3). */
const createHttpWithoutOpenapiMswCode = `import { expect, it } from "vitest";
import { createHttp, MockUnavailableError } from "${PACKAGE}/msw";

it("createHttp says it needs openapi-msw, which supports msw 2 only", () => {
  expect(() => createHttp()).toThrow(MockUnavailableError);
  expect(() => createHttp()).toThrow(/openapi-msw 2 supports msw 2 only/);
});
`;

/**
 * The client guide's ./msw test file as a consumer on msw 3 writes it: msw 3 calls the option onUnhandledRequest
 * onUnhandledFrame (the old name is ignored, so unhandled requests would only warn), and createHttp is msw 2's
 * (openapi-msw supports msw 2 only), so the test that overrides an answer does it with msw's own `http` and
 * `HttpResponse`, the path and body the guide's. Throws when the guide's file no longer has what it replaces.
 */
function guideMswTestOnMsw3(): string {
  const replaced = (text: string, from: string | RegExp, to: (...match: string[]) => string) => {
    const next = text.replace(from, to);
    if (next === text) throw new Error(`the guide's api.test.mts: no ${String(from)} to change for msw 3`);
    return next;
  };
  let text = replaced(GUIDE_MSW_TEST, 'onUnhandledRequest: "error"', () => 'onUnhandledFrame: "error"');
  text = replaced(
    text,
    `import { createHandlers, createHttp } from "${PACKAGE}/msw";`,
    () => `import { http, HttpResponse } from "msw";\nimport { createHandlers } from "${PACKAGE}/msw";`,
  );
  // `const http = createHttp();`, then `server.use(`, `http.get("<path>", ({ response }) =>`,
  // `response(200).json(<body>),`, `),` and `);` on lines of their own (as Biome formats it): msw's http.get with
  // the full URL, answering HttpResponse.json(<body>).
  const override = new RegExp(
    [
      String.raw`^ {2}const http = createHttp\(\).*`,
      String.raw` {2}server\.use\(`,
      String.raw` {4}http\.get\("([^"]+)", .*`,
      String.raw` +response\(200\)\.json\((.*)\),`,
      String.raw` {4}\),`,
      String.raw` {2}\);$`,
    ].join("\n"),
    "m",
  );
  text = replaced(text, override, (_, path, body) =>
    [`  server.use(http.get(\`\${MOCK_BASE_URL}${path}\`, () =>`, `    HttpResponse.json(${body})));`].join("\n"),
  );
  if (/createHttp|onUnhandledRequest/.test(text)) throw new Error(`the guide's api.test.mts on msw 3:\n${text}`);
  return text;
}

/** A consumer of ./msw on msw 3, type-checked with the test files above: the handlers are msw 3's HttpHandlers. */
const consumerMsw3Ts = `
import type { HttpHandler } from "msw";
import { setupServer } from "msw/node";
import { createHandlers, createSandboxHandlers, MOCK_IDENTITY_HEADER } from "${PACKAGE}/msw";
import { createSandbox } from "${PACKAGE}/sandbox";

export const handlers: HttpHandler[] = [
  ...createHandlers({ baseUrl: "http://127.0.0.1:4010/v1", now: () => 0 }),
  ...createSandboxHandlers(createSandbox(), { baseUrl: "http://127.0.0.1:4020/v1" }),
];
export const server = setupServer(...handlers);
export const header: string = MOCK_IDENTITY_HEADER;
`;
const negativeMsw3Ts = `
import { setupServer } from "msw/node";
import { createHandlers, createSandboxHandlers } from "${PACKAGE}/msw";

export const wrongBaseUrl = createHandlers({ baseUrl: 4010 }); ${WRONG} a base URL is a string
export const wrongSandbox = createSandboxHandlers({}); ${WRONG} not a sandbox: no fetch
setupServer().listen({ onUnhandledRequest: "error" }); ${WRONG} msw 2's name: msw 3 calls it onUnhandledFrame
`;

/** What tsc --strict checks in the consumer project: the guide's globalSetup and a test on it among them. */
const TYPE_FILES = {
  "consumer.ts": consumerTs,
  "consumer-msw.mts": consumerMswTs,
  "negative.ts": negativeTs,
  "negative-msw.mts": negativeMswTs,
  "vitest.global-setup.ts": GUIDE_GLOBAL_SETUP,
  "mock.test.ts": mockVitestCode,
  "api.test.mts": GUIDE_MSW_TEST,
  "sandbox-msw.test.mts": sandboxMswTestCode("onUnhandledRequest", UNUSED_URL),
};
/** What tsc --strict checks in the project with msw 3: ./msw's consumer and test files as msw 3 takes them. */
const msw3TypeFiles = () => ({
  "consumer-msw3.mts": consumerMsw3Ts,
  "negative-msw3.mts": negativeMsw3Ts,
  "api.test.mts": guideMswTestOnMsw3(),
  "sandbox-msw.test.mts": sandboxMswTestCode("onUnhandledFrame", UNUSED_URL),
  "create-http.test.mts": createHttpWithoutOpenapiMswCode,
});

const formats = [
  [
    "ESM",
    "mjs",
    (names: string, entry: string) => `import { ${names} } from "${PACKAGE}${entry}";`,
    `import * as typesEntry from "${PACKAGE}/types";`,
  ],
  [
    "CJS",
    "cjs",
    (names: string, entry: string) => `const { ${names} } = require("${PACKAGE}${entry}");`,
    `const typesEntry = require("${PACKAGE}/types");`,
  ],
] as const;

/** The sandbox in-process, as a consumer's test without any server uses it: a quote accepted once. */
const sandboxCode = (importLines: string) => `${importLines}
(async () => {
  const sandbox = createSandbox({ clock: { start: Date.UTC(2026, 0, 1) } });
  sandbox.putAccount("consumer-key", { balances: { USDT: 50 } });
  const client = createClient({ baseUrl: "http://sandbox.test/v1", apiKey: "consumer-key", retry: false,
    fetch: (request) => sandbox.fetch(request) });
  const quote = await unwrap(client.POST("/trades/quote", { body: ${JSON.stringify(SANDBOX_QUOTE)} }));
  const accept = () => client.POST("/trades/quote/{quoteId}", { params: { path: { quoteId: quote.data.id } } });
  const statuses = [(await accept()).response.status, (await accept()).response.status];
  const usdt = sandbox.getAccount("consumer-key").balances.USDT;
  console.log(JSON.stringify({ node: process.version, statuses, usdt }));
})().catch((e) => { console.error(e); process.exit(1); });
`;
/**
 * The sandbox guide's worked flow (docs/samples/sandbox-flow.ts), its types stripped (Node 20 runs no TypeScript),
 * and the config the guide starts the sandbox with.
 */
const SANDBOX_FLOW = ts.transpileModule(
  readFileSync(path.join(repoRoot, "docs", "samples", "sandbox-flow.ts"), "utf8"),
  {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  },
).outputText;
const SANDBOX_FLOW_CONFIG = { limits: { quotesPerHour: 3 } };
/** The webhooks guide's sandbox example (docs/samples/): its receiver and the flows that send to it. */
const GUIDE_SANDBOX_WEBHOOKS = ["webhooks-sandbox-receiver.mjs", "webhooks-sandbox-flow.mjs"];

/** The consumer programs for the package alone. */
function writeBareRunFiles(dir: string): Promise<unknown> {
  return Promise.all([
    ...formats.flatMap(([, extension, load, loadTypes]) => {
      const imports = [
        load("createClient, unwrap, ApiError, isQuoteExpired, SideValues", ""),
        load("signWebhook, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER", ""),
        load("createBundledContractValidator, contractMiddleware", "/contract"),
        loadTypes,
      ];
      const sandboxImports = [load("createClient, unwrap", ""), load("createSandbox", "/sandbox")];
      return [
        writeFile(path.join(dir, `consumer.${extension}`), runtimeCode(imports.join("\n"))),
        writeFile(path.join(dir, `sandbox.${extension}`), sandboxCode(sandboxImports.join("\n"))),
      ];
    }),
    writeFile(path.join(dir, "sandbox-flow.mjs"), SANDBOX_FLOW),
    writeFile(path.join(dir, "sandbox.json"), JSON.stringify(SANDBOX_FLOW_CONFIG)),
    ...GUIDE_SANDBOX_WEBHOOKS.map((file) => writeFile(path.join(dir, file), webhooksSample(file))),
  ]);
}

/** The consumer programs for a project with the peers: written once, before any test runs in it. */
async function writeFullRunFiles(dir: string): Promise<void> {
  const [, , loadEsm] = formats[0];
  const allOperations = [
    loadEsm("createClient", ""),
    loadEsm("createBundledContractValidator, contractMiddleware", "/contract"),
  ];
  await Promise.all([
    ...formats.map(([, extension, load]) =>
      writeFile(path.join(dir, `global-setup.${extension}`), globalSetupCode(load("startMock", "/mock"))),
    ),
    writeFile(path.join(dir, "all-operations.mjs"), allOperationsCode(allOperations.join("\n"))),
    ...Object.entries(TYPE_FILES).map(([file, text]) => writeFile(path.join(dir, file), text)),
  ]);
}

/** Swallows a rejection here: the promise is awaited (and its error reported) where it is used. */
const handled = <T>(promise: Promise<T>) => {
  promise.catch(() => {});
  return promise;
};

beforeAll(async () => {
  const started = performance.now();
  work = await mkdtemp(path.join(tmpdir(), "api-contract-consumer-"));
  // The toolchain is looked up (and downloaded, the first time) while dist/ builds.
  const nodeTools = NODE_VERSIONS.map((version) => handled(ensureNode(version)));
  compilersReady = handled(
    Promise.all(TYPESCRIPT_VERSIONS.map(async (version) => [version, await ensureTypeScript(version)] as const)).then(
      (entries) => new Map(entries),
    ),
  );
  // Build dist/ first (what prepack does), then pack without scripts so stdout is only npm's JSON.
  await run("npm", ["run", "-s", "build:dist"], { cwd: repoRoot, maxBuffer: 32 * 2 ** 20 });
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], {
    cwd: repoRoot,
    maxBuffer: 32 * 2 ** 20,
  });
  tarball = path.join(work, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
  NODE_VERSIONS.forEach((version, index) => {
    nodeSetups.set(version, handled(nodeTools[index]!.then(setUpNode)));
  });
  bare = await newProject("bare");
  await npm(bare, ["install", tarball]);
  await writeBareRunFiles(bare);
  server = await startDeployment();
  console.info(
    `consumer test: packed, and the package alone installed, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}, 300_000);

afterAll(async () => {
  // Every setup settled (used or not) before the directory goes.
  await Promise.allSettled(nodeSetups.values());
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/**
 * Runs the installed `api-contract` command in a project on `env`'s Node, with a time limit; kills it after
 * `untilOutput` is printed when given.
 */
function command(
  dir: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; untilOutput?: string; onOutput?: (output: string) => Promise<void> },
) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(path.join(dir, "node_modules", ".bin", "api-contract"), args, {
      cwd: dir,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let acting = false;
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (options.untilOutput && !acting && output.includes(options.untilOutput)) {
        acting = true;
        options.onOutput?.(output).then(
          () => child.kill("SIGTERM"),
          (error: unknown) => {
            child.kill("SIGTERM");
            reject(error);
          },
        );
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * Runs the consumer's own vitest (the one installed in `project`) on `files`, written to `project`/`subdir`, on the
 * cell's Node. Returns its exit code, its output when it failed, and each file's [test title, status] pairs.
 */
async function consumerVitest(cell: NodeCell, project: string, subdir: string, files: Record<string, string>) {
  const dir = path.join(project, subdir);
  await mkdir(dir, { recursive: true });
  await Promise.all(Object.entries(files).map(([file, text]) => writeFile(path.join(dir, file), text)));
  const results = path.join(dir, "results.json");
  const vitest = await run(
    cell.node.bin,
    [
      path.join(project, "node_modules", "vitest", "vitest.mjs"),
      "run",
      "--root",
      dir,
      "--reporter",
      "json",
      "--outputFile",
      results,
      // A budget, not a speed check: on a loaded 2-core machine, with the other cells running, a test whose first
      // request compiles the contract's validator can outlast vitest's default 5 s.
      "--testTimeout",
      "60000",
    ],
    { cwd: dir, env: cell.env, timeout: 180_000 },
  ).then(
    () => ({ code: 0, output: "" }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  );
  const report = await readFile(results, "utf8").then(
    (text) =>
      JSON.parse(text) as {
        testResults: Array<{
          name: string;
          message?: string;
          assertionResults: Array<{ title: string; status: string; failureMessages?: string[] }>;
        }>;
      },
    () => undefined,
  );
  if (vitest.code !== 0) {
    // The JSON reporter prints nothing of a failure: what failed, and why, is in its report.
    const failures = (report?.testResults ?? []).flatMap((file) => [
      ...(file.message ? [`${path.basename(file.name)}: ${file.message}`] : []),
      ...file.assertionResults
        .filter(({ status }) => status !== "passed")
        .map(
          ({ title, status, failureMessages }) =>
            `${path.basename(file.name)} > ${title}: ${status}\n${failureMessages?.join("\n") ?? ""}`,
        ),
    ]);
    return { code: vitest.code, output: [vitest.output, ...failures].join("\n"), byFile: undefined };
  }
  const byFile = Object.fromEntries(
    (report?.testResults ?? []).map((file) => [
      path.basename(file.name),
      file.assertionResults.map(({ title, status }) => [title, status]),
    ]),
  );
  return { ...vitest, byFile };
}

/** The base URL `api-contract mock` says it listens on (it is started with --port 0: a free port). */
const listeningOn = (output: string) => /listening on (http:\/\/127\.0\.0\.1:\d+\S*)/.exec(output)?.[1];

/** Runs attw with its JSON written to a file: on a pipe, its exit (1: problems found) cuts the output at 64 KiB. */
async function attw(file: string): Promise<string> {
  const out = path.join(work, "attw.json");
  const handle = await open(out, "w");
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(bin("attw"), [file, "--profile", "node16", "--format", "json"], {
        stdio: ["ignore", handle.fd, "inherit"],
      });
      child.on("error", reject);
      child.on("close", () => resolve());
    });
  } finally {
    await handle.close();
  }
  return readFile(out, "utf8");
}

// Budgets, not speed checks: each cell's child process has its own limit (tsc 240 s, vitest 180 s, a command 180 s),
// which names what hung; the test's own limit sits above them. A loaded 2-core machine runs the cells several at a
// time: tsc 5.9 alone took 44-48 s there, past vitest's 60 s default, and over 120 s with a mutation run beside it.
const CELL_TIMEOUT_MS = 420_000;
const TSC_TIMEOUT_MS = 240_000;

/**
 * tsc --strict (skipLibCheck off: the package's declarations are checked too) on `files` in `dir` with the given
 * resolution, through a tsconfig.json of that name written there. Returns the exit code, the output, and the
 * sorted `file:line`s that have errors and that are marked WRONG (they must be the same).
 */
async function typeCheck(
  tsc: Tool,
  dir: string,
  tsconfig: string,
  { files, resolution }: { files: Record<string, string>; resolution: (typeof RESOLUTIONS)[number] },
) {
  await writeFile(
    path.join(dir, tsconfig),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        lib: ["ES2022", "DOM"],
        types: [],
        skipLibCheck: false,
        module: resolution.module,
        moduleResolution: resolution.moduleResolution,
      },
      files: Object.keys(files),
    }),
  );
  const result = await run(process.execPath, [tsc.bin, "-p", tsconfig, "--pretty", "false"], {
    cwd: dir,
    timeout: TSC_TIMEOUT_MS,
  }).then(
    (ok) => ({ ...ok, code: 0 }),
    (error: { stdout: string; stderr: string; code: number }) => error,
  );
  const errorLines = [...result.stdout.matchAll(/^(\S+?)\((\d+),\d+\): error TS\d+/gm)].map(
    ([, file, line]) => `${file}:${line}`,
  );
  const wrongLines = Object.entries(files).flatMap(([file, text]) =>
    text.split("\n").flatMap((line, index) => (line.includes(WRONG) ? [`${file}:${index + 1}`] : [])),
  );
  return {
    code: result.code,
    output: result.stdout + result.stderr,
    errorLines: [...new Set(errorLines)].sort(),
    wrongLines: wrongLines.sort(),
  };
}

describe("consumer of the packed package", { concurrent: true, timeout: CELL_TIMEOUT_MS }, () => {
  // The slowest cells (tsc 5.9) first: with a few tests at a time, they should not be the last to start.
  describe.each(TYPESCRIPT_VERSIONS)("with TypeScript %s", (version) => {
    let tsc: Tool;
    let dir: string;
    let msw3: string;
    beforeAll(async () => {
      tsc = (await compilersReady).get(version)!;
      console.info(`consumer test, TypeScript ${describeTool(tsc)}`);
      // The types come from the projects of the newest Node: with the peers (msw 2, openapi-msw), and with msw 3.
      const newest = await nodeSetups.get(NODE_VERSIONS.at(-1)!)!;
      dir = newest.full;
      msw3 = newest.msw3!;
    }, 300_000);

    it.for(RESOLUTIONS)(
      "type-checks a consumer with tsc --strict, moduleResolution $moduleResolution (module $module); wrong calls fail",
      async (resolution, { expect }) => {
        const result = await typeCheck(tsc, dir, `tsconfig.ts${version}-${resolution.moduleResolution}.json`, {
          files: TYPE_FILES,
          resolution,
        });
        expect(result.wrongLines).toHaveLength(7);
        expect(result.code, result.output).not.toBe(0);
        expect(result.errorLines, result.output).toEqual(result.wrongLines);
      },
    );

    it.for(RESOLUTIONS)(
      `type-checks a consumer of ./msw on msw ${MSW_3.version} (no openapi-msw), moduleResolution $moduleResolution; ` +
        "wrong calls fail",
      async (resolution, { expect }) => {
        // A directory per compiler and resolution: the files are written here, by the test, not at install.
        const files = msw3TypeFiles();
        const own = path.join(msw3, `types-ts${version}-${resolution.moduleResolution}`);
        await mkdir(own, { recursive: true });
        await Promise.all(Object.entries(files).map(([file, text]) => writeFile(path.join(own, file), text)));
        const result = await typeCheck(tsc, own, "tsconfig.json", { files, resolution });
        expect(result.wrongLines).toHaveLength(3);
        expect(result.code, result.output).not.toBe(0);
        expect(result.errorLines, result.output).toEqual(result.wrongLines);
      },
    );
  });

  it("ships only dist/, the spec, README and package.json", async ({ expect }) => {
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout
      .trim()
      .split("\n")
      .map((f) => f.replace(/^package\//, ""));
    for (const file of [
      "dist/index.js",
      "dist/index.cjs",
      "dist/types.cjs",
      "dist/contract.d.cts",
      "dist/mock.cjs",
      "dist/sandbox.js",
      "dist/sandbox.cjs",
      "dist/sandbox.d.cts",
      "dist/msw.js",
      "dist/cli.js",
      "generated/openapi.json",
    ])
      expect(files).toContain(file);
    expect(files.filter((f) => !/^(dist\/|generated\/openapi\.json$|package\.json$|README\.md$)/.test(f))).toEqual([]);
  });

  it("passes publint (strict) and attw (node16 profile)", async ({ expect }) => {
    const publint = await run(process.execPath, [
      path.join(repoRoot, "node_modules", "publint", "src", "cli.js"),
      "run",
      tarball,
      "--strict",
    ]);
    expect(publint.stdout).toContain("All good!");
    const problems = (
      JSON.parse(await attw(tarball)) as {
        analysis: { problems: Array<{ resolutionKind?: string; entrypoint?: string }> };
      }
    ).analysis.problems;
    // node10 resolution reads no `exports` (only "." resolves there); ./msw has no CommonJS build (openapi-msw is ESM
    // only).
    expect(
      problems.filter(
        (p) => p.resolutionKind !== "node10" && !(p.entrypoint === "./msw" && p.resolutionKind === "node16-cjs"),
      ),
    ).toEqual([]);
  });

  describe.each(NODE_VERSIONS)("on Node %s", (version) => {
    let cell: NodeCell;
    beforeAll(async () => {
      cell = await nodeSetups.get(version)!;
    }, 300_000);
    const onThisNode = { node: `v${version}` };

    it("installs the optional peers npm picks on this Node", async ({ expect, annotate }) => {
      const { peers, full } = cell;
      await annotate(`${peers.join(", ")} (installed in ${path.basename(full)})`);
      for (const peer of Object.keys(peerDependencies))
        expect(await readdir(path.join(full, "node_modules", ...peer.split("/")))).toContain("package.json");
    });

    for (const [format, extension] of formats) {
      const alone = "against a local server, with the package alone";
      it(`runs the client, ./types and the contract validator as ${format} ${alone}`, async ({ expect }) => {
        const { stdout } = await run(cell.node.bin, [`consumer.${extension}`], {
          cwd: bare,
          env: { ...cell.env, BASE_URL: server.baseUrl },
          timeout: 120_000,
        });
        expect(JSON.parse(stdout)).toEqual({
          ...onThisNode,
          expired: false,
          rates: (successExample("getFiatRates").data as unknown[]).length,
          status: 503,
          sides: ["BUY", "SELL"],
          remaining: rateLimitExamples()[RATE_LIMIT_HEADERS.remaining],
          typesExports: 0,
          webhook: [WEBHOOK_SIGNATURE_HEADER, true, false],
        });
        expect(await readdir(path.join(bare, "node_modules", ...PACKAGE.split("/"), "dist"))).toContain(
          extension === "cjs" ? "index.cjs" : "index.js",
        );
      });

      it(`runs the sandbox from ./sandbox in-process as ${format}, with the package alone`, async ({ expect }) => {
        const { stdout } = await run(cell.node.bin, [`sandbox.${extension}`], {
          cwd: bare,
          env: cell.env,
          timeout: 120_000,
        });
        // Accepted once (200), refused the second time; 10 USDT gone from 50.
        const outcome = JSON.parse(stdout) as { statuses: number[] };
        expect(outcome).toEqual({ ...onThisNode, statuses: [200, REFUSAL_STATUS.quoteAccepted], usdt: 40 });
      });

      it(`starts the mock from ./mock as a vitest globalSetup would, as ${format}`, async ({ expect }) => {
        const { stdout } = await run(cell.node.bin, [`global-setup.${extension}`], {
          cwd: cell.full,
          env: cell.env,
          timeout: 120_000,
        });
        expect(JSON.parse(stdout)).toEqual({
          ...onThisNode,
          status: 200,
          limit: String(rateLimitExamples()[RATE_LIMIT_HEADERS.limit]),
          rates: (successExample("getFiatRates").data as unknown[]).length,
        });
      });
    }

    it(
      "runs a vitest suite of the consumer's own: the client guide's globalSetup starts the mock from ./mock; " +
        "the guide's ./msw test file (documented answers, an override, a 429 on request, 401 without a key); " +
        "the sandbox through ./msw",
      async ({ expect, annotate }) => {
        await annotate(`${cell.peers.filter((peer) => peer.includes("msw")).join(", ")}, vitest ${cell.vitest}`);
        const sandboxMswTest = sandboxMswTestCode("onUnhandledRequest", `${server.baseUrl}/currencies/fiat-rates`);
        // One directory per Node: Nodes that share a project would otherwise share vitest's cache files.
        const { code, output, byFile } = await consumerVitest(cell, cell.full, `vitest-node${version}`, {
          "mock.test.ts": mockVitestCode,
          "vitest.global-setup.ts": GUIDE_GLOBAL_SETUP,
          "api.test.mts": GUIDE_MSW_TEST,
          "sandbox-msw.test.mts": sandboxMswTest,
          "vitest.config.mjs": 'export default { test: { globalSetup: ["./vitest.global-setup.ts"] } };\n',
        });
        expect(code, output).toBe(0);
        expect(byFile).toEqual({
          "mock.test.ts": testTitles(mockVitestCode).map((title) => [title, "passed"]),
          "api.test.mts": testTitles(GUIDE_MSW_TEST).map((title) => [title, "passed"]),
          "sandbox-msw.test.mts": testTitles(sandboxMswTest).map((title) => [title, "passed"]),
        });
        expect([mockVitestCode, GUIDE_MSW_TEST, sandboxMswTest].map((code) => testTitles(code).length)).toEqual([
          1, 3, 2,
        ]);
        expect(GUIDE_GLOBAL_SETUP).toContain("startMock()");
      },
    );

    it(
      "runs the client guide's ./msw test file and the sandbox through ./msw with the lowest msw and openapi-msw " +
        "their peer ranges allow",
      async ({ expect, annotate }) => {
        const installed = MSW_PEERS.map((peer) => `${peer}@${versionIn(cell.mswLowest, peer)}`);
        await annotate(`${installed.join(", ")}, vitest ${cell.vitest}`);
        expect(installed).toEqual(MSW_PEERS.map((peer) => `${peer}@${lowestOf(peerDependencies[peer]!)}`));
        const files = {
          "api.test.mts": GUIDE_MSW_TEST,
          "sandbox-msw.test.mts": sandboxMswTestCode("onUnhandledRequest", `${server.baseUrl}/currencies/fiat-rates`),
        };
        const { code, output, byFile } = await consumerVitest(cell, cell.mswLowest, `vitest-node${version}`, files);
        expect(code, output).toBe(0);
        expect(byFile).toEqual(allPassed(files));
      },
    );

    // msw 3's engines leave Node 20 out: the cell of Node 20 has no msw 3 project (runsMsw3), so no such test.
    if (runsMsw3(version))
      it(
        "runs the client guide's ./msw test file as msw 3 takes it and the sandbox through ./msw on msw " +
          `${MSW_3.version} ` +
          `(Node ${MSW_3.node}), without openapi-msw; createHttp says it needs msw 2`,
        async ({ expect, annotate }) => {
          const dir = cell.msw3!;
          const msw = JSON.parse(readFileSync(path.join(dir, "node_modules", "msw", "package.json"), "utf8")) as {
            version: string;
            engines: { node: string };
          };
          await annotate(`msw@${msw.version}, vitest ${cell.vitest}`);
          expect([msw.version, msw.engines.node]).toEqual([MSW_3.version, MSW_3.node]);
          // npm refuses openapi-msw 2.0.0 next to msw 3 (its peer range is msw ^2.10.5); nothing else brings it.
          expect(await readdir(path.join(dir, "node_modules"))).not.toContain("openapi-msw");
          const files = {
            "api.test.mts": guideMswTestOnMsw3(),
            "sandbox-msw.test.mts": sandboxMswTestCode("onUnhandledFrame", `${server.baseUrl}/currencies/fiat-rates`),
            "create-http.test.mts": createHttpWithoutOpenapiMswCode,
          };
          const { code, output, byFile } = await consumerVitest(cell, dir, `vitest-node${version}`, files);
          expect(code, output).toBe(0);
          expect(byFile).toEqual(allPassed(files));
          expect(testTitles(files["api.test.mts"])).toEqual(testTitles(GUIDE_MSW_TEST));
        },
      );

    // One mock for the client and both commands: Prism's start is the slow part of these tests.
    it(
      "serves every operation to the package's client with `api-contract mock` under the base path; " +
        "`api-contract verify` exits 0 for it, 1 naming the violation for a deployment that breaks one field, " +
        "1 for one that refuses everything",
      async ({ expect }) => {
        const env = { ...cell.env, CONTRACT_API_KEY: "k" };
        const reports = path.join(bare, `verify-reports-${cell.node.version}`);
        let answer: { baseUrl?: string; status: number; limit: string | null } | undefined;
        let statuses: unknown;
        let verified: { code: number | null; output: string } | undefined;
        let deviant: { code: number | null; output: string } | undefined;
        await command(cell.full, ["mock", "--port", "0", "--quiet"], {
          env: cell.env,
          untilOutput: "Ctrl-C",
          onOutput: async (output) => {
            const baseUrl = String(listeningOn(output));
            const response = await fetch(`${baseUrl}/trades/summary/me`, { headers: { [API_KEY_HEADER]: "k" } });
            answer = { baseUrl, status: response.status, limit: response.headers.get(RATE_LIMIT_HEADERS.limit) };
            await response.arrayBuffer();
            const { stdout } = await run(cell.node.bin, ["all-operations.mjs"], {
              cwd: cell.full,
              env: { ...cell.env, BASE_URL: baseUrl },
              timeout: 120_000,
            });
            statuses = JSON.parse(stdout);
            verified = await command(
              bare,
              ["verify", "--base-url", baseUrl, "--min-interval-ms", "0", "--report-dir", reports],
              { env },
            );
            const breaking = await startBreakingProxy(baseUrl);
            try {
              deviant = await command(bare, ["verify", "--base-url", breaking.baseUrl, "--min-interval-ms", "0"], {
                env,
              });
            } finally {
              await breaking.close();
            }
          },
        });
        expect(answer).toEqual({
          baseUrl: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:\\d+${BASE_PATH}$`)),
          status: 200,
          limit: String(rateLimitExamples()[RATE_LIMIT_HEADERS.limit]),
        });
        // Every operation, through the installed client and contract middleware, gets its documented success.
        expect(statuses).toEqual(
          Object.fromEntries(OPERATION_CALLS.map(({ operationId, status }) => [operationId, status])),
        );
        expect(verified?.output).toContain("Meets the contract");
        expect(verified?.code).toBe(0);
        // What a CI system reads: JUnit XML beside the JSON and Markdown reports.
        expect((await readdir(reports)).sort()).toEqual([
          "verify-report.json",
          "verify-report.junit.xml",
          "verify-report.md",
        ]);
        expect(await readFile(path.join(reports, "verify-report.junit.xml"), "utf8")).toMatch(
          /<testsuites[\s\S]*<testcase[\s\S]*<\/testsuites>/,
        );
        // One field broken in one answer: exit 1, that case alone failed, the violation named by its JSON pointer.
        expect(deviant?.code, deviant?.output).toBe(1);
        expect(deviant?.output).toContain("Does NOT meet the contract");
        expect(deviant?.output).toMatch(FIAT_RATES_CASE_FAILED);
        expect(deviant?.output).toContain(
          `[body-schema] body ${BROKEN_POINTER}: GET /currencies/fiat-rates 200: ${BROKEN_POINTER} must be number`,
        );
        const refusing = await startDeployment(401);
        try {
          const refused = await command(bare, ["verify", "--base-url", refusing.baseUrl, "--min-interval-ms", "0"], {
            env,
          });
          expect(refused.code).toBe(1);
          expect(refused.output).toContain("Does NOT meet the contract");
        } finally {
          await refusing.close();
        }
      },
    );

    it("`npx api-contract mock` in the background stops, and all it started, on kill -TERM <npx's pid>", async ({
      expect,
    }) => {
      // npx runs the command in a shell that dies of the forwarded SIGTERM without passing it on.
      const npx = spawn("npx", ["--offline", "api-contract", "mock", "--port", "0", "--quiet"], {
        cwd: cell.full,
        env: cell.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      npx.stdout.on("data", (chunk: Buffer) => (output += chunk));
      npx.stderr.on("data", (chunk: Buffer) => (output += chunk));
      // Output pipes close once every process holding them, the mock included, has exited.
      const closed = new Promise<void>((resolve) => npx.once("close", () => resolve()));
      let mockPid: number | undefined;
      try {
        await expect.poll(() => listeningOn(output), { timeout: 60_000, interval: 100 }).toBeDefined();
        const url = `${listeningOn(output)}/currencies/fiat-rates`;
        mockPid = Number(/\(pid (\d+)\)/.exec(output)?.[1]);
        expect(mockPid).not.toBe(npx.pid);
        expect((await fetch(url)).status).toBe(200);
        npx.kill("SIGTERM");
        await closed; // the pipes never closing fails the test at its time limit
        // Closing its pipes is part of the mock's exit; the process itself is gone a moment later.
        await expect.poll(() => isRunning(mockPid!), { timeout: 30_000 }).toBe(false);
        expect(output).toMatch(/api-contract mock: stopping: the process that started it \(pid \d+\) has exited/);
        await expect(fetch(url)).rejects.toThrow();
      } finally {
        npx.kill("SIGKILL");
        if (mockPid && isRunning(mockPid)) process.kill(mockPid, "SIGKILL");
      }
    });

    it("`npx api-contract sandbox` (the package alone) runs the guide's and README's flows, stops on SIGTERM", async ({
      expect,
    }) => {
      const readyFile = path.join(bare, `sandbox-ready-${version}.txt`);
      const args = ["--port", "0", "--quiet", "--config", "sandbox.json", "--ready-file", readyFile];
      const npx = spawn("npx", ["--offline", "api-contract", "sandbox", ...args], {
        cwd: bare,
        env: cell.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      npx.stdout.on("data", (chunk: Buffer) => (output += chunk));
      npx.stderr.on("data", (chunk: Buffer) => (output += chunk));
      const closed = new Promise<void>((resolve) => npx.once("close", () => resolve()));
      let sandboxPid: number | undefined;
      try {
        await expect
          .poll(() => readFile(readyFile, "utf8").catch(() => ""), { timeout: 60_000, interval: 100 })
          .toMatch(/\n$/);
        const baseUrl = (await readFile(readyFile, "utf8")).trim();
        sandboxPid = Number(/\(pid (\d+)\)/.exec(output)?.[1]);
        const { stdout } = await run(cell.node.bin, ["sandbox-flow.mjs"], {
          cwd: bare,
          env: { ...cell.env, SANDBOX_URL: baseUrl },
          timeout: 120_000,
        });
        const outcome = JSON.parse(stdout) as { expired: [number, string] };
        expect(outcome).toMatchObject({ usdt: 90, swaps: ["CREDIT", "DEBIT"], limited: [429, "0"] });
        expect(outcome.expired[0]).toBe(REFUSAL_STATUS.quoteExpired);
        expect(outcome.expired[1]).toMatch(/expired/i);
        // Money in and out with a receiver of the consumer's own: the deposit's webhook (after a retry), both
        // withdrawals' states in order, a resend identical; every one verified by verifyWebhookSignature.
        const webhooks = await run(cell.node.bin, ["webhooks-sandbox-flow.mjs"], {
          cwd: bare,
          env: { ...cell.env, SANDBOX_URL: baseUrl },
          timeout: 120_000,
        });
        expect(JSON.parse(webhooks.stdout)).toEqual(WEBHOOKS_GUIDE_OUTCOME);
        npx.kill("SIGTERM");
        await closed;
        await expect.poll(() => isRunning(sandboxPid!), { timeout: 30_000 }).toBe(false);
        await expect(fetch(`${baseUrl}/currencies/fiat-rates`)).rejects.toThrow();
      } finally {
        npx.kill("SIGKILL");
        if (sandboxPid && isRunning(sandboxPid)) process.kill(sandboxPid, "SIGKILL");
      }
    });

    it("`api-contract verify` against a fresh `api-contract sandbox` runs every case and flow, confirming", async ({
      expect,
    }) => {
      const reports = path.join(bare, `verify-sandbox-reports-${cell.node.version}`);
      let verified: { code: number | null; output: string } | undefined;
      await command(bare, ["sandbox", "--port", "0", "--quiet"], {
        env: cell.env,
        untilOutput: "Ctrl-C",
        onOutput: async (output) => {
          const args = ["verify", "--base-url", String(listeningOn(output)), "--report-dir", reports];
          verified = await command(bare, args, { env: { ...cell.env, CONTRACT_API_KEY: "consumer-verify" } });
        },
      });
      expect(verified?.code, verified?.output).toBe(0);
      const report = JSON.parse(await readFile(path.join(reports, "verify-report.json"), "utf8")) as {
        target: string;
        counts: { passed: number; failed: number; skipped: number };
        flows: Array<{ flow: string; outcome: string; reason?: string }>;
        choices: Array<{ id: string; verdict: string; reason?: string }>;
      };
      expect(report.target).toBe("sandbox");
      expect(report.counts).toEqual({ passed: 118, failed: 0, skipped: 0 });
      expect(report.flows.filter((flow) => flow.outcome !== "passed")).toEqual([]);
      expect(report.flows).toHaveLength(41);
      expect(report.choices.filter((choice) => choice.verdict !== "confirmed")).toEqual([]);
      expect(report.choices).toHaveLength(53);
    });

    it("says what to install when the mock's optional peer is missing", async ({ expect }) => {
      const result = await command(bare, ["mock", "--port", "0"], { env: cell.env });
      expect(result.code).toBe(1);
      expect(result.output).toContain("npm install --save-dev @stoplight/prism-http");
    });
  });
});
