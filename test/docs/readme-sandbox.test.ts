// The README's section "The sandbox" cannot drift from the sandbox (its register of choices is on the site's page,
// test/docs/register-guide.test.ts): its table of control routes names
// exactly the routes of the control API's OpenAPI document; its ways to start the sandbox in-process and through
// ./msw compile; and its worked flow, run as written (the package name resolved to src/), gets through every
// step against a sandbox started as the README says.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_NAME } from "../../scripts/build/code-samples.js";
import { binPath } from "../../scripts/lib/node-cli.js";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { readmeBlock, resolvedToSource } from "../support/readme.js";
import { repoRoot, scratchDir, tscCleanAndBroken } from "../support/tsc.js";

const run = promisify(execFile);
const readme = () => readFileSync(path.join(repoRoot, "README.md"), "utf8");

describe("README: the sandbox", () => {
  it("lists exactly the routes of the control API's OpenAPI document", () => {
    const document = JSON.parse(readFileSync(path.join(repoRoot, "generated", "sandbox-control.json"), "utf8")) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(document.paths).flatMap(([route, item]) =>
      Object.keys(item)
        .filter((key) => ["get", "put", "post", "delete", "patch"].includes(key))
        .map((method) => `${method.toUpperCase()} ${route}`),
    );
    const section = readme().slice(readme().indexOf("### The control API"), readme().indexOf("### The worked flow"));
    const listed = [...section.matchAll(/^\| `([A-Z, `]+?) (\/_sandbox\S*)` \|/gm)].flatMap(([, methods, route]) =>
      methods!.split(/`?, `?/).map((method) => `${method} ${route}`),
    );
    expect(listed.sort()).toEqual(documented.sort());
  });
});

describe("README: the ways to start the sandbox", () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>;
  beforeAll(async () => {
    scratch = await scratchDir("readme-sandbox-ts-");
  });
  afterAll(() => scratch?.remove());

  it("in-process and through ./msw compile as written, each on its own, and a wrong option does not", async () => {
    const blocks = {
      "in-process": readmeBlock("ts", "// In-process: the package's client hands its requests to sandbox.fetch"),
      msw: readmeBlock("ts", "// Through MSW"),
    };
    for (const [name, block] of Object.entries(blocks)) {
      const source = `${block}\nexport {};\n`;
      const broken = source.replace("quotesPerHour: 3", 'quotesPerHour: "3"');
      const checked = await tscCleanAndBroken(scratch.dir, name, source, broken, ["sandbox", "msw"]);
      expect(checked.clean, checked.all).toEqual([]);
      expect(checked.broken, checked.all).not.toEqual([]);
    }
  }, 180_000);

  it("through ./msw runs as written: the client's request reaches the sandbox through MSW", async () => {
    const probe = [
      'const rates = await api.GET("/currencies/fiat-rates");',
      'console.log(JSON.stringify([rates.response.status, rates.response.headers.get("x-api-contract-sandbox")]));',
      "server.close();",
    ].join("\n");
    const file = path.join(scratch.dir, "through-msw.mts");
    await writeFile(file, `${resolvedToSource(readmeBlock("ts", "// Through MSW"))}\n${probe}\n`);
    const { stdout } = await run(process.execPath, [binPath("tsx"), file], { cwd: scratch.dir, timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual([200, expect.stringMatching(/^\d+\.\d+\.\d+/)]);
  }, 90_000);
});

describe("README: the worked flow, run as written", () => {
  let sandbox: StartedSandbox;
  let scratch: Awaited<ReturnType<typeof scratchDir>>;
  beforeAll(async () => {
    scratch = await scratchDir("readme-sandbox-");
    // As the README starts it: a quote limit of 3 an hour (its `sandbox.json`).
    sandbox = await startSandbox({ port: 0, config: { limits: { quotesPerHour: 3 } } });
  });
  afterAll(async () => {
    await sandbox?.stop();
    await scratch?.remove();
  });

  it("rates → quote → accept → wallets → history → expired after the clock moves → 429", async () => {
    const source = resolvedToSource(readmeBlock("js", "// sandbox-flow.mjs"));
    expect(source).not.toContain(`"${PACKAGE_NAME}`);
    const file = path.join(scratch.dir, "sandbox-flow.mjs");
    await writeFile(file, source);
    const { stdout } = await run(process.execPath, [binPath("tsx"), file], {
      env: { ...process.env, SANDBOX_URL: sandbox.baseUrl },
      timeout: 60_000,
    });
    const outcome = JSON.parse(stdout) as Record<string, unknown>;
    const [expiredStatus, expiredMessage] = outcome.expired as [number, string];
    expect(outcome).toMatchObject({ usdt: 90, swaps: ["CREDIT", "DEBIT"], limited: [429, "0"] });
    expect(outcome.received).toBeGreaterThan(0);
    expect(expiredStatus).toBe(REFUSAL_STATUS.quoteExpired);
    expect(expiredMessage).toMatch(/expired/i);
  }, 90_000);
});
