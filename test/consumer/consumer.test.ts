// The consumer test: `npm pack`, install the tarball into a fresh project outside the repo, type-check a consumer
// under `tsc --strict` (moduleResolution node16 and bundler), and run it as ESM and as CJS against a local server.
// publint and attw check the same tarball.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJson, startServer, type TestServer } from "../client/support/server.js";
import { basePath, rateLimitHeaders, repoRoot, requestExample, spec, successExample } from "../client/support/spec.js";

const run = promisify(execFile);
const bin = (name: string) => path.join(repoRoot, "node_modules", ".bin", name);
const PACKAGE = "@trading-wallet-settlement/api-contract";

let work: string;
let tarball: string;
let project: string;
let server: TestServer;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "api-contract-consumer-"));
  // Build dist/ first (what prepack does), then pack without scripts so stdout is only npm's JSON.
  await run("npm", ["run", "-s", "build:dist"], { cwd: repoRoot, maxBuffer: 32 * 2 ** 20 });
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: repoRoot, maxBuffer: 32 * 2 ** 20 });
  tarball = path.join(work, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
  project = path.join(work, "consumer");
  await run("mkdir", ["-p", project]);
  await writeFile(path.join(project, "package.json"), JSON.stringify({ name: "consumer", version: "0.0.0", private: true }));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball], { cwd: project });
  server = await startServer((req, res) => {
    if (req.url === `${basePath}/trades/quote`) return sendJson(res, 200, successExample("createQuote"));
    if (req.url === `${basePath}/wallets/USDT`) return sendJson(res, 503, { error: "busy" });
    return sendJson(res, 200, successExample("getFiatRates"));
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const consumerTs = `
import { createClient, unwrap, ApiError, isQuoteExpired, SideValues, MOCK_BASE_URL, type Quote } from "${PACKAGE}";
import type { paths, components, Invoice } from "${PACKAGE}/types";
import { createBundledContractValidator, contractMiddleware } from "${PACKAGE}/contract";

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
  return [quote ? isQuoteExpired(quote, 0) : "none", first?.currency, invoices.length, op].join(",");
}
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

describe("consumer of the packed package", () => {
  it("ships only dist/, the spec, README and package.json", async () => {
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout
      .trim()
      .split("\n")
      .map((f) => f.replace(/^package\//, ""));
    expect(files).toContain("dist/index.js");
    expect(files).toContain("dist/index.cjs");
    expect(files).toContain("dist/contract.d.cts");
    expect(files).toContain("generated/openapi.json");
    expect(files.filter((f) => !/^(dist\/|generated\/openapi\.json$|package\.json$|README\.md$)/.test(f))).toEqual([]);
  });

  it("passes publint (strict) and attw (node16 profile)", async () => {
    const publint = await run(process.execPath, [path.join(repoRoot, "node_modules", "publint", "src", "cli.js"), "run", tarball, "--strict"]);
    expect(publint.stdout).toContain("All good!");
    const attw = await run(bin("attw"), [tarball, "--profile", "node16", "--format", "json"], { maxBuffer: 32 * 2 ** 20 }).catch(
      (e: { stdout: string }) => e,
    );
    const problems = (JSON.parse(attw.stdout) as { analysis: { problems: Array<{ resolutionKind?: string }> } }).analysis.problems;
    expect(problems.filter((p) => p.resolutionKind !== "node10")).toEqual([]);
  });

  for (const resolution of ["node16", "bundler"] as const) {
    it(`type-checks under tsc --strict with moduleResolution ${resolution}`, async () => {
      await writeFile(path.join(project, `consumer-${resolution}.ts`), consumerTs);
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
        files: [`consumer-${resolution}.ts`],
      };
      await writeFile(path.join(project, `tsconfig.${resolution}.json`), JSON.stringify(tsconfig));
      const result = await run(bin("tsc"), ["-p", `tsconfig.${resolution}.json`], { cwd: project }).catch((e: { stdout: string }) => e);
      expect(result.stdout).toBe("");
    });
  }

  for (const [format, file, importLine] of [
    [
      "ESM",
      "consumer.mjs",
      `import { createClient, unwrap, ApiError, isQuoteExpired, SideValues } from "${PACKAGE}";\nimport { createBundledContractValidator, contractMiddleware } from "${PACKAGE}/contract";`,
    ],
    [
      "CJS",
      "consumer.cjs",
      `const { createClient, unwrap, ApiError, isQuoteExpired, SideValues } = require("${PACKAGE}");\nconst { createBundledContractValidator, contractMiddleware } = require("${PACKAGE}/contract");`,
    ],
  ] as const) {
    it(`runs as ${format} against a local server`, async () => {
      await writeFile(path.join(project, file), runtimeCode(importLine));
      const { stdout } = await run(process.execPath, [file], { cwd: project, env: { ...process.env, BASE_URL: server.baseUrl }, timeout: 30_000 });
      expect(JSON.parse(stdout)).toEqual({
        expired: false,
        rates: (successExample("getFiatRates").data as unknown[]).length,
        status: 503,
        sides: spec.components.schemas.Side.enum,
        remaining: rateLimitHeaders.remaining.example,
      });
      expect(await readdir(path.join(project, "node_modules", ...PACKAGE.split("/"), "dist"))).toContain(
        file.endsWith(".cjs") ? "index.cjs" : "index.js",
      );
    });
  }
});
