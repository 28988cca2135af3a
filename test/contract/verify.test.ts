// The shipped verification (src/verify; `api-contract verify`) judged on real local servers: it passes
// the mock, fails a deployment that refuses or breaks everything, signs its requests, and the command
// exits accordingly.
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binPath } from "../../scripts/lib/node-cli.js";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { verify } from "../../src/verify/index.js";
import { BASE_PATH, loadSpec, RATE_LIMIT_HEADERS, repoRoot, SIGNING_HEADERS, sharedValidator } from "../support/spec.js";

const spec = loadSpec();
const validator = sharedValidator();

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** A deployment that answers every request with `status` and `body` (and the rate-limit headers). */
async function deployment(status: number, body: unknown): Promise<{ baseUrl: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
      res.writeHead(status, {
        "content-type": "application/json",
        [RATE_LIMIT_HEADERS.limit]: "200",
        [RATE_LIMIT_HEADERS.remaining]: "199",
        [RATE_LIMIT_HEADERS.reset]: String(Math.ceil(Date.now() / 1000) + 60),
      });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.stop());

describe("verify (live rules)", () => {
  it("passes the mock: every positive case it can run passes; the others are skipped with a reason", async () => {
    const report = await verify(spec, validator, { baseUrl: mock.baseUrl, apiKey: "k", minIntervalMs: 0 });
    expect(report.counts.failed, JSON.stringify(report.results.filter((r) => r.outcome === "failed"))).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.counts.passed).toBeGreaterThan(0);
    for (const skipped of report.results.filter((r) => r.outcome === "skipped")) expect(skipped.reason, skipped.case).toMatch(/\S/);
    // A path parameter without a real value is skipped, not guessed; given one, the case runs.
    expect(report.results.find((r) => r.operationId === "getCollectionCustomer")?.reason).toContain("--param id=");
    const withParam = await verify(spec, validator, { baseUrl: mock.baseUrl, apiKey: "k", minIntervalMs: 0, params: { id: "cus-1" } });
    expect(withParam.results.find((r) => r.operationId === "getCollectionCustomer" && r.kind === "positive")?.outcome).toBe("passed");
  });

  it.each([
    [401, "a revoked key"],
    [404, "nothing there"],
    [418, "a teapot"],
  ])("fails a deployment that answers every request with %i (%s)", async (status) => {
    const broken = await deployment(status, {});
    try {
      const report = await verify(spec, validator, { baseUrl: broken.baseUrl, apiKey: "k", minIntervalMs: 0 });
      expect(report.ok).toBe(false);
      const positives = report.results.filter((r) => r.kind === "positive" && r.outcome !== "skipped");
      expect(positives.length).toBeGreaterThan(0);
      for (const r of positives) expect(r.outcome, r.case).toBe("failed");
    } finally {
      await broken.close();
    }
  });

  it("fails a deployment whose 200 breaks the contract, and one that cannot be reached", async () => {
    const broken = await deployment(200, { message: "ok" });
    try {
      expect((await verify(spec, validator, { baseUrl: broken.baseUrl, minIntervalMs: 0 })).ok).toBe(false);
    } finally {
      await broken.close();
    }
    const unreachable = await verify(spec, validator, { baseUrl: broken.baseUrl, minIntervalMs: 0, timeoutMs: 2000 });
    expect(unreachable.ok).toBe(false);
    expect(unreachable.results.find((r) => r.outcome === "failed")?.reason).toMatch(/^no answer/);
  });

  it("signs every request when given a secret", async () => {
    const server = await deployment(401, {});
    try {
      await verify(spec, validator, { baseUrl: server.baseUrl, apiKey: "k", apiSecret: "verify-secret", minIntervalMs: 0 });
      expect(server.seen.length).toBeGreaterThan(0);
      for (const seen of server.seen) {
        const timestamp = String(seen.headers[SIGNING_HEADERS.timestamp]);
        expect(seen.headers[SIGNING_HEADERS.signature], seen.url).toBe(
          createHmac("sha256", "verify-secret").update(`${seen.method}${seen.url}${timestamp}`).digest("hex"),
        );
      }
    } finally {
      await server.close();
    }
  });
});

function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [binPath("tsx"), path.join(repoRoot, "src", "cli.ts"), ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("api-contract verify (the command)", () => {
  it("exits 0 against the mock and 1 against a deployment that refuses everything", async () => {
    const good = await cli(["verify", "--base-url", mock.baseUrl, "--min-interval-ms", "0"], { CONTRACT_API_KEY: "k" });
    expect(good.output).toContain("Meets the contract");
    expect(good.code, good.output).toBe(0);
    const broken = await deployment(401, {});
    try {
      const bad = await cli(["verify", "--base-url", broken.baseUrl, "--min-interval-ms", "0"], { CONTRACT_API_KEY: "k" });
      expect(bad.output).toContain("Does NOT meet the contract");
      expect(bad.code).toBe(1);
    } finally {
      await broken.close();
    }
  }, 120_000);

  it("refuses a base URL without the base path, and unknown options, with exit 2", async () => {
    const noBase = await cli(["verify", "--base-url", "http://127.0.0.1:9"]);
    expect(noBase.code).toBe(2);
    expect(noBase.output).toContain(`ending in ${BASE_PATH}`);
    const unknown = await cli(["verify", "--nope"]);
    expect(unknown.code).toBe(2);
  });
});
