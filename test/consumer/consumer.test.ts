// The consumer test: `npm pack`, install the tarball into fresh projects outside the repo, and use the
// package as another repository would: type-check a consumer under `tsc --strict` (node16 and bundler
// resolution), run the client and the contract validator as ESM and as CJS against a local server, run
// `api-contract mock` and `api-contract verify`, the ./mock entry as a vitest globalSetup would, and the
// ./msw handlers. Two projects: one with the package alone (the mock's optional peer missing), one with
// the optional peers (@stoplight/prism-http, msw, openapi-msw). publint and attw check the same tarball.
import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../src/mock/index.js";
import { API_KEY_HEADER, BASE_PATH, RATE_LIMIT_HEADERS, rateLimitExamples, repoRoot, requestExample, successExample } from "../support/spec.js";

const run = promisify(execFile);
const bin = (name: string) => path.join(repoRoot, "node_modules", ".bin", name);
const { name: PACKAGE, peerDependencies } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  name: string;
  peerDependencies: Record<string, string>;
};
/** The optional peers, at the versions this repository develops with (package-lock.json). */
const lock = JSON.parse(readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as { packages: Record<string, { version: string }> };
const PEERS = Object.keys(peerDependencies).map((peer) => `${peer}@${lock.packages[`node_modules/${peer}`]!.version}`);

let work: string;
let tarball: string;
/** The package alone: what a types- or client-only consumer installs. */
let bare: string;
/** The package with its optional peers. */
let full: string;
let server: { baseUrl: string; close(): Promise<void> };

async function project(name: string, extra: string[]): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(dir);
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ name, version: "0.0.0", private: true }));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball, ...extra], {
    cwd: dir,
    maxBuffer: 32 * 2 ** 20,
  });
  return dir;
}

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
      res.end(JSON.stringify(code === 200 ? (examples[req.url ?? ""] ?? successExample("getFiatRates")) : { error: "busy" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "api-contract-consumer-"));
  // Build dist/ first (what prepack does), then pack without scripts so stdout is only npm's JSON.
  await run("npm", ["run", "-s", "build:dist"], { cwd: repoRoot, maxBuffer: 32 * 2 ** 20 });
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: repoRoot, maxBuffer: 32 * 2 ** 20 });
  tarball = path.join(work, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
  [bare, full] = await Promise.all([project("bare", []), project("full", PEERS)]);
  server = await startDeployment();
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const consumerTs = `
import { createClient, unwrap, ApiError, isQuoteExpired, SideValues, MOCK_BASE_URL, type Quote } from "${PACKAGE}";
import type { paths, components, Invoice } from "${PACKAGE}/types";
import { createBundledContractValidator, contractMiddleware } from "${PACKAGE}/contract";
import { startMock, type StartedMock } from "${PACKAGE}/mock";

export async function main(baseUrl: string = MOCK_BASE_URL): Promise<string> {
  const client = createClient({ baseUrl, apiKey: "consumer-key", retry: false });
  client.use(contractMiddleware(createBundledContractValidator()));
  const { data } = await client.POST("/trades/quote", { body: { sourceId: "USDT", targetId: "NGNX", amount: 10, side: SideValues[1] } });
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
  return [quote ? isQuoteExpired(quote, 0) : "none", first?.currency, invoices.length, op].join(",");
}
`;

/** ./msw is ESM only: an ES module consumer of it (.mts), type-checked next to consumer.ts. */
const consumerMswTs = `
import { createHandlers, createHttp } from "${PACKAGE}/msw";

export const handlers = createHandlers({ baseUrl: "http://127.0.0.1:4010/v1" });
// @ts-expect-error openapi-msw's http only takes the contract's paths
createHttp().get("/nope", () => new Response());
`;

const runtimeCode = (importLine: string) => `${importLine}
(async () => {
  const client = createClient({ baseUrl: process.env.BASE_URL, apiKey: "consumer-key", retry: false });
  client.use(contractMiddleware(createBundledContractValidator()));
  const quote = await unwrap(client.POST("/trades/quote", { body: ${JSON.stringify(requestExample("createQuote"))} }));
  const rates = await unwrap(client.GET("/currencies/fiat-rates"));
  let status = 0;
  try { await unwrap(client.GET("/wallets/USDT")); } catch (e) { status = e instanceof ApiError ? e.status : -1; }
  console.log(JSON.stringify({ expired: isQuoteExpired(quote.data, 0), rates: rates.data.length, status, sides: SideValues, remaining: client.rateLimit?.remaining }));
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
  console.log(JSON.stringify({ status: response.status, limit: response.headers.get("${RATE_LIMIT_HEADERS.limit}"), rates: body.data.length }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

const mswCode = (importLine: string) => `${importLine}
const server = setupServer(...createHandlers());
server.listen({ onUnhandledRequest: "error" });
(async () => {
  const client = createClient({ baseUrl: MOCK_BASE_URL, apiKey: "consumer-key", retry: false });
  const summary = await unwrap(client.GET("/trades/summary/me"));
  const anonymous = await createClient({ baseUrl: MOCK_BASE_URL, retry: false }).GET("/trades/summary/me");
  server.close();
  console.log(JSON.stringify({ volume: summary.data.totalDollarVolume, anonymous: anonymous.response.status }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

/** Runs the installed `api-contract` command in a project, with a time limit; kills it after `untilOutput` is printed when given. */
function command(
  dir: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; untilOutput?: string; onOutput?: (output: string) => Promise<void> } = {},
) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(path.join(dir, "node_modules", ".bin", "api-contract"), args, {
      cwd: dir,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let acting = false;
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
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

/** Runs attw with its JSON written to a file: on a pipe, its exit (1: problems found) cuts the output at 64 KiB. */
async function attw(file: string): Promise<string> {
  const out = path.join(work, "attw.json");
  const handle = await open(out, "w");
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(bin("attw"), [file, "--profile", "node16", "--format", "json"], { stdio: ["ignore", handle.fd, "inherit"] });
      child.on("error", reject);
      child.on("close", () => resolve());
    });
  } finally {
    await handle.close();
  }
  return readFile(out, "utf8");
}

describe("consumer of the packed package", () => {
  it("ships only dist/, the spec, README and package.json", async () => {
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout
      .trim()
      .split("\n")
      .map((f) => f.replace(/^package\//, ""));
    for (const file of [
      "dist/index.js",
      "dist/index.cjs",
      "dist/contract.d.cts",
      "dist/mock.cjs",
      "dist/msw.js",
      "dist/cli.js",
      "generated/openapi.json",
    ])
      expect(files).toContain(file);
    expect(files.filter((f) => !/^(dist\/|generated\/openapi\.json$|package\.json$|README\.md$)/.test(f))).toEqual([]);
  });

  it("passes publint (strict) and attw (node16 profile)", async () => {
    const publint = await run(process.execPath, [path.join(repoRoot, "node_modules", "publint", "src", "cli.js"), "run", tarball, "--strict"]);
    expect(publint.stdout).toContain("All good!");
    const problems = (JSON.parse(await attw(tarball)) as { analysis: { problems: Array<{ resolutionKind?: string; entrypoint?: string }> } }).analysis
      .problems;
    // node10 resolution reads no `exports` (only "." resolves there); ./msw has no CommonJS build (openapi-msw is ESM only).
    expect(problems.filter((p) => p.resolutionKind !== "node10" && !(p.entrypoint === "./msw" && p.resolutionKind === "node16-cjs"))).toEqual([]);
  });

  for (const resolution of ["node16", "bundler"] as const) {
    it(`type-checks under tsc --strict with moduleResolution ${resolution}`, async () => {
      await writeFile(path.join(full, `consumer-${resolution}.ts`), consumerTs);
      await writeFile(path.join(full, `consumer-msw-${resolution}.mts`), consumerMswTs);
      const tsconfig = {
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "ES2022",
          lib: ["ES2022", "DOM"],
          types: [],
          skipLibCheck: false,
          ...(resolution === "node16" ? { module: "node16", moduleResolution: "node16" } : { module: "esnext", moduleResolution: "bundler" }),
        },
        files: [`consumer-${resolution}.ts`, `consumer-msw-${resolution}.mts`],
      };
      await writeFile(path.join(full, `tsconfig.${resolution}.json`), JSON.stringify(tsconfig));
      const result = await run(bin("tsc"), ["-p", `tsconfig.${resolution}.json`], { cwd: full }).catch((e: { stdout: string }) => e);
      expect(result.stdout, result.stdout).toBe("");
    });
  }

  const formats = [
    ["ESM", "mjs", (names: string, entry: string) => `import { ${names} } from "${PACKAGE}${entry}";`],
    ["CJS", "cjs", (names: string, entry: string) => `const { ${names} } = require("${PACKAGE}${entry}");`],
  ] as const;

  for (const [format, extension, load] of formats) {
    it(`runs the client and the contract validator as ${format} against a local server, with the package alone`, async () => {
      const file = `consumer.${extension}`;
      await writeFile(
        path.join(bare, file),
        runtimeCode(
          [
            load("createClient, unwrap, ApiError, isQuoteExpired, SideValues", ""),
            load("createBundledContractValidator, contractMiddleware", "/contract"),
          ].join("\n"),
        ),
      );
      const { stdout } = await run(process.execPath, [file], { cwd: bare, env: { ...process.env, BASE_URL: server.baseUrl }, timeout: 30_000 });
      expect(JSON.parse(stdout)).toEqual({
        expired: false,
        rates: (successExample("getFiatRates").data as unknown[]).length,
        status: 503,
        sides: ["BUY", "SELL"],
        remaining: rateLimitExamples()[RATE_LIMIT_HEADERS.remaining],
      });
      expect(await readdir(path.join(bare, "node_modules", ...PACKAGE.split("/"), "dist"))).toContain(extension === "cjs" ? "index.cjs" : "index.js");
    });

    it(`starts the mock from ./mock as a vitest globalSetup would, as ${format}`, async () => {
      const file = `global-setup.${extension}`;
      await writeFile(path.join(full, file), globalSetupCode(load("startMock", "/mock")));
      const { stdout } = await run(process.execPath, [file], { cwd: full, timeout: 60_000 });
      expect(JSON.parse(stdout)).toEqual({
        status: 200,
        limit: String(rateLimitExamples()[RATE_LIMIT_HEADERS.limit]),
        rates: (successExample("getFiatRates").data as unknown[]).length,
      });
    });
  }

  it("answers the package's client from ./msw handlers, in process (./msw is ESM only, like openapi-msw)", async () => {
    const [, , load] = formats[0];
    await writeFile(
      path.join(full, "msw.mjs"),
      mswCode(
        ['import { setupServer } from "msw/node";', load("createClient, unwrap, MOCK_BASE_URL", ""), load("createHandlers", "/msw")].join("\n"),
      ),
    );
    const { stdout } = await run(process.execPath, ["msw.mjs"], { cwd: full, timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({
      volume: (successExample("getTradesSummary").data as { totalDollarVolume: number }).totalDollarVolume,
      anonymous: 401,
    });
  });

  it("serves the mock with `api-contract mock` under the base path", async () => {
    const port = await findFreePort();
    let answer: { status: number; limit: string | null } | undefined;
    const result = await command(full, ["mock", "--port", String(port), "--quiet"], {
      untilOutput: "Ctrl-C",
      onOutput: async () => {
        const response = await fetch(`http://127.0.0.1:${port}${BASE_PATH}/trades/summary/me`, { headers: { [API_KEY_HEADER]: "k" } });
        answer = { status: response.status, limit: response.headers.get(RATE_LIMIT_HEADERS.limit) };
        await response.arrayBuffer();
      },
    });
    expect(result.output).toContain(`http://127.0.0.1:${port}${BASE_PATH}`);
    expect(answer).toEqual({ status: 200, limit: String(rateLimitExamples()[RATE_LIMIT_HEADERS.limit]) });
  });

  it("says what to install when the mock's optional peer is missing", async () => {
    const result = await command(bare, ["mock", "--port", "0"]);
    expect(result.code).toBe(1);
    expect(result.output).toContain("npm install --save-dev @stoplight/prism-http");
  });

  it("verifies a deployment with `api-contract verify`: exit 0 for the mock, 1 for one that refuses everything", async () => {
    const port = await findFreePort();
    let verified: { code: number | null; output: string } | undefined;
    await command(full, ["mock", "--port", String(port), "--quiet"], {
      untilOutput: "Ctrl-C",
      onOutput: async () => {
        verified = await command(bare, ["verify", "--base-url", `http://127.0.0.1:${port}${BASE_PATH}`, "--min-interval-ms", "0"], {
          env: { CONTRACT_API_KEY: "k" },
        });
      },
    });
    expect(verified?.output).toContain("Meets the contract");
    expect(verified?.code).toBe(0);
    const refusing = await startDeployment(401);
    try {
      const refused = await command(bare, ["verify", "--base-url", refusing.baseUrl, "--min-interval-ms", "0"], { env: { CONTRACT_API_KEY: "k" } });
      expect(refused.code).toBe(1);
      expect(refused.output).toContain("Does NOT meet the contract");
    } finally {
      await refusing.close();
    }
  });
});
