import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_VERSION, type StartedMock, startMock } from "../../src/mock/index.js";
import { planVerification } from "../../src/verify/index.js";
import { closedPort, proxyDeployment, uniformDeployment } from "../support/deployments.js";
import { unmatchedLines } from "../support/abridged.js";
import { expectReportsAgree } from "../support/junit.js";
import { BASE_PATH, loadSpec, repoRoot } from "../support/spec.js";
import { cli } from "./run-cli.js";

const spec = loadSpec();

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.stop());

async function withTempDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "api-contract-verify-"));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The docs' run against the mock (guide "Contract tests and verify"), abridged, without its shell commands ("$ ").
 * Ports, durations and the run's time are masked: another run prints the same lines.
 */
const MOCK_RUN_SAMPLE = readFileSync(path.join(repoRoot, "docs", "samples", "verify-mock-run.txt"), "utf8")
  .split("\n")
  .filter((line) => !line.startsWith("$ "))
  .join("\n");
const maskedRun = (line: string) =>
  line
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:<port>")
    .replace(/\(\d+ ms\)/g, "(<n> ms)")
    .replace(/ in [\d.]+ s\)/g, " in <n> s)");

const linesMatching = (output: string, pattern: RegExp): string[] =>
  output.split("\n").filter((line) => pattern.test(line));

describe("api-contract verify (the command)", () => {
  it("exits 0 against the mock: every case run, a line per case, JUnit, JSON and Markdown agree", async () => {
    await withTempDir(async (dir) => {
      const good = await cli(["verify", "--base-url", mock.baseUrl, "--report-dir", dir], { CONTRACT_API_KEY: "k" });
      expect(good.code, good.output).toBe(0);
      const total = planVerification(spec, {}).length;
      expect(linesMatching(good.output, /^Meets the contract/)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Meets the contract \\(the package's mock ${PACKAGE_VERSION}\\): ${total} passed, 0 failed, 0 skipped \\(`,
          ),
        ),
      ]);
      expect(linesMatching(good.output, /the target is/)).toEqual([
        `  the target is the package's mock ${PACKAGE_VERSION} (X-Api-Contract-Mock): every case runs, unpaced`,
      ]);
      expect(good.output).not.toMatch(/live/);
      // The docs show this run, abridged: each of its lines is one the command printed, in order.
      expect(unmatchedLines(MOCK_RUN_SAMPLE, good.output, maskedRun)).toEqual([]);
      const { report, junit } = await expectReportsAgree(dir);
      expect(report.ok).toBe(true);
      expect(junit.failures + junit.errors).toBe(0);
      expect(linesMatching(good.output, /^\[\s*\d+\/\d+\] [✓✗–] /)).toHaveLength(report.results.length);
      expect(good.output).toContain(`Reports: ${path.join(dir, "verify-report.junit.xml")}`);
    });
  }, 120_000);

  it("exits 1 with a one-line reason when every answer is 401 (the key refused); reports list failures", async () => {
    const broken = await uniformDeployment(401, {});
    try {
      await withTempDir(async (dir) => {
        const bad = await cli(["verify", "--base-url", broken.baseUrl, "--min-interval-ms", "0", "--report-dir", dir], {
          CONTRACT_API_KEY: "k",
        });
        expect(bad.code, bad.output).toBe(1);
        expect(linesMatching(bad.output, /the target is|^Does NOT meet/)).toEqual([
          "  the target is a deployment (its answers do not carry X-Api-Contract-Mock)",
          expect.stringMatching(/^Does NOT meet the contract \(a deployment\): \d+ passed, \d+ failed, \d+ skipped/),
        ]);
        expect(linesMatching(bad.output, /key was refused/)).toEqual([
          expect.stringMatching(
            new RegExp(
              "^api-contract: the API key was refused: " +
                "all \\d+ positive cases that send it were answered 401; check CONTRACT_API_KEY",
            ),
          ),
        ]);
        const { report, junit } = await expectReportsAgree(dir);
        expect(junit.failures).toBe(report.counts.failed);
        expect(junit.failures).toBeGreaterThan(0);
        expect(report.cause).toMatch(/^the API key was refused/);
      });
    } finally {
      await broken.close();
    }
  }, 120_000);

  it("exits 1 when every GET is redirected (301) to the mock: none is followed, each is named", async () => {
    const moved = await proxyDeployment(mock.origin, (request) =>
      request.method === "GET" && !request.url.startsWith("/moved/")
        ? { status: 301, body: "", headers: { location: `/moved${request.url}` } }
        : undefined,
    );
    try {
      const result = await cli(["verify", "--base-url", moved.baseUrl, "--min-interval-ms", "0"], {
        CONTRACT_API_KEY: "k",
      });
      expect(result.code, result.output).toBe(1);
      expect(result.output).toContain("Does NOT meet the contract");
      expect(linesMatching(result.output, /✓ getFiatRates/)).toEqual([]);
      expect(result.output).toContain(
        `answered 301, not its documented success 200 (a redirect to /moved${BASE_PATH}/currencies/fiat-rates: ` +
          `verify does not follow redirects)`,
      );
      expect(moved.seen.filter((s) => s.url.startsWith("/moved/"))).toEqual([]);
    } finally {
      await moved.close();
    }
  }, 120_000);

  it("exits 2 with a one-line reason when the target refuses connections; reports still written", async () => {
    const port = await closedPort();
    await withTempDir(async (dir) => {
      const result = await cli(["verify", "--base-url", `http://127.0.0.1:${port}${BASE_PATH}`, "--report-dir", dir]);
      expect(result.code, result.output).toBe(2);
      expect(linesMatching(result.output, /could not check/)).toEqual([
        `api-contract: could not check http://127.0.0.1:${port}${BASE_PATH}: cannot connect to ` +
          `127.0.0.1:${port}: connection refused (ECONNREFUSED); is the service running there?`,
      ]);
      expect(result.output).toContain("(1 requests in");
      const { report, junit } = await expectReportsAgree(dir);
      expect(report.unchecked).toMatch(/connection refused/);
      expect(junit.errors).toBe(1);
    });
  });

  it("exits 2 with a one-line reason when TLS fails (https to a plain-http server)", async () => {
    const plain = await uniformDeployment(200, {});
    try {
      const url = plain.baseUrl.replace(/^http:/, "https:");
      const result = await cli(["verify", "--base-url", url]);
      expect(result.code, result.output).toBe(2);
      expect(linesMatching(result.output, /could not check/)).toEqual([
        expect.stringMatching(
          new RegExp(
            String.raw`^api-contract: could not check https://127\.0\.0\.1:\d+/v1: ` +
              String.raw`TLS with 127\.0\.0\.1:\d+ failed: .*\(ERR_SSL_\w+\)`,
          ),
        ),
      ]);
      expect(plain.seen).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
