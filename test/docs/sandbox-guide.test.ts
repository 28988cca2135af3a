// The sandbox guide (docs/guide/sandbox.md) cannot drift from the sandbox: its table of control routes, which the
// build writes, names exactly the routes of the control API's OpenAPI document; it names every method of the
// sandbox object, as that document's description does; its ways to start the sandbox
// in-process and through ./msw (docs/samples/sandbox-in-process.ts, sandbox-msw.ts) compile, each on its own, and a
// wrong option does not (test/docs/site-code-samples.test.ts runs both to their end); and its worked flow
// (docs/samples/sandbox-flow.ts), run as written (the package name resolved to src/), gets through every step
// against a sandbox started as the page says.
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_NAME } from "../../scripts/build/code-samples.js";
import { markersOf } from "../../scripts/build/guide-tables.js";
import { binPath } from "../../scripts/lib/node-cli.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { resolvedToSource } from "../support/readme.js";
import { successExample } from "../support/spec.js";
import { repoRoot, scratchDir, tscCleanAndBroken } from "../support/tsc.js";

const run = promisify(execFile);
const sample = (name: string) => readFile(path.join(repoRoot, "docs", "samples", name), "utf8");

describe("the sandbox guide", () => {
  it("lists exactly the routes of the control API's OpenAPI document (between its markers)", async () => {
    const document = JSON.parse(await readFile(path.join(repoRoot, "generated", "sandbox-control.json"), "utf8")) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(document.paths).flatMap(([route, item]) =>
      Object.keys(item)
        .filter((key) => ["get", "put", "post", "delete", "patch"].includes(key))
        .map((method) => `${method.toUpperCase()} ${route}`),
    );
    const page = await readFile(path.join(repoRoot, "docs", "guide", "sandbox.md"), "utf8");
    const { start, end } = markersOf("control-routes");
    expect(page.indexOf(start)).toBeGreaterThan(-1);
    const table = page.slice(page.indexOf(start), page.indexOf(end));
    const listed = [...table.matchAll(/^\| `([A-Z, `]+?) (\/_sandbox\S*)` \|/gm)].flatMap(([, methods, route]) =>
      methods!.split(/`?, `?/).map((method) => `${method} ${route}`),
    );
    expect(listed.sort()).toEqual(documented.sort());
  });
});

describe("the sandbox guide: the ways to start the sandbox", () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>;
  beforeAll(async () => {
    scratch = await scratchDir("sandbox-guide-ts-");
  });
  afterAll(() => scratch?.remove());

  it("names every method of the sandbox object beside the routes, as the control API's document does", async () => {
    // Every member but fetch (the API itself) is a control route's in-process twin: a new one fails here first.
    const methods = [
      "clock",
      "accountClock",
      "putAccount",
      "getAccount",
      "deleteAccount",
      "setRates",
      "settings",
      "putSettings",
      "snapshot",
      "accountState",
      "restoreAccount",
      "restore",
      "choices",
      "deposit",
      "settleWithdrawal",
      "webhooks",
    ];
    expect(Object.keys(createSandbox()).sort()).toEqual([...methods, "fetch"].sort());
    const page = await readFile(path.join(repoRoot, "docs", "guide", "sandbox.md"), "utf8");
    const paragraph = page.slice(page.indexOf("In-process, the same as methods"), page.indexOf("Its errors are"));
    const document = JSON.parse(await readFile(path.join(repoRoot, "generated", "sandbox-control.json"), "utf8")) as {
      info: { description: string };
    };
    const described = document.info.description.slice(0, document.info.description.indexOf("Money moves"));
    for (const text of [paragraph, described]) {
      expect(methods.filter((method) => !new RegExp(`\`${method}[\`.(]`).test(text))).toEqual([]);
    }
  });

  it("in-process and through ./msw compile as written, each on its own, and a wrong option does not", async () => {
    const samples = { "in-process": "sandbox-in-process.ts", msw: "sandbox-msw.ts" };
    for (const [name, file] of Object.entries(samples)) {
      const source = await sample(file);
      const broken = source.replace("quotesPerHour: 3", 'quotesPerHour: "3"');
      const checked = await tscCleanAndBroken(scratch.dir, name, source, broken, ["sandbox", "msw"]);
      expect(checked.clean, checked.all).toEqual([]);
      expect(checked.broken, checked.all).not.toEqual([]);
    }
  }, 180_000);
});

describe("the sandbox guide: the worked flow, run as written", () => {
  let sandbox: StartedSandbox;
  let scratch: Awaited<ReturnType<typeof scratchDir>>;
  beforeAll(async () => {
    scratch = await scratchDir("sandbox-guide-");
    // As the page starts it: a quote limit of 3 an hour (its `sandbox.json`).
    sandbox = await startSandbox({ port: 0, config: { limits: { quotesPerHour: 3 } } });
  });
  afterAll(async () => {
    await sandbox?.stop();
    await scratch?.remove();
  });

  it("rates → quote → accept → wallets → history → expired after the clock moves → 429", async () => {
    const source = resolvedToSource(await sample("sandbox-flow.ts"));
    expect(source).not.toContain(`"${PACKAGE_NAME}`);
    const file = path.join(scratch.dir, "sandbox-flow.ts");
    await writeFile(file, source);
    const { stdout } = await run(process.execPath, [binPath("tsx"), file], {
      env: { ...process.env, SANDBOX_URL: sandbox.baseUrl },
      timeout: 60_000,
    });
    const outcome = JSON.parse(stdout) as Record<string, unknown>;
    const [expiredStatus, expiredMessage] = outcome.expired as [number, string];
    expect(outcome).toMatchObject({ usdt: 90, swaps: ["CREDIT", "DEBIT"], limited: [429, "0"] });
    // The rates are the contract's documented ones (Get Fiat Rates' example); 10 USDT sold at NGNX's sellRate.
    const documented = (successExample("getFiatRates").data as { currency: string; sellRate: number }[]).find(
      (rate) => rate.currency === "NGNX",
    )!.sellRate;
    expect(outcome.sellRate).toBe(documented);
    // To NGNX's 2 decimals (the exact rounding is quote-rounding.test.ts's).
    expect(outcome.received).toBeCloseTo(10 * documented, 2);
    expect(expiredStatus).toBe(400);
    expect(expiredStatus).toBe(REFUSAL_STATUS.quoteExpired);
    expect(expiredMessage).toMatch(/expired/i);
  }, 90_000);
});
