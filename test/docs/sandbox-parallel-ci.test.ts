// The sandbox guide's recipe "One sandbox for a parallel CI" (docs/samples/sandbox-fixture.ts), run as written (the
// package name resolved to src/): its fixture, imported here, gives each test a key, an account and a clock of its
// own on one sandbox over HTTP on 127.0.0.1, removes the account after the test, and its `advance` moves that key's
// clock alone.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, expect, type TestAPI } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { resolvedToSource } from "../support/readme.js";
import { repoRoot, scratchDir } from "../support/tsc.js";

const START = Date.UTC(2026, 10, 26, 10, 0, 0); // 1795687200000
const server = await startSandbox({ port: 0, quiet: true, config: { clock: { start: START } } });
const scratch = await scratchDir("sandbox-parallel-ci-");
afterAll(async () => {
  await server.stop();
  await scratch.remove();
});

// The fixture module as the guide gives it, pointed at this sandbox.
process.env.SANDBOX_URL = server.origin;
const file = path.join(scratch.dir, "sandbox-fixture.ts");
const fixture = await readFile(path.join(repoRoot, "docs", "samples", "sandbox-fixture.ts"), "utf8");
await writeFile(file, resolvedToSource(fixture));
type Fixtures = { apiKey: string; advance: (ms: number) => Promise<number> };
const { test } = (await import(file)) as { test: TestAPI<Fixtures> };

const keysSeen: string[] = [];

const quote = (apiKey: string) =>
  fetch(`${server.baseUrl}/trades/quote`, {
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    body: JSON.stringify({ sourceId: "USDT", targetId: "NGNX", amount: 1, side: "SELL" }),
  }).then((response) => response.json());

test("gives a test its own funded account, whose clock its advance moves alone", async ({ apiKey, advance }) => {
  keysSeen.push(apiKey);
  expect(server.sandbox.getAccount(apiKey)?.balances.USDT).toBe(1000);
  expect((await quote(apiKey)).data.expiryDate).toBe("2026-11-26T10:00:30.000Z");
  expect(await advance(30_000)).toBe(1795687230000);
  expect([server.sandbox.clock.now(), server.sandbox.accountClock(apiKey).now()]).toEqual([START, 1795687230000]);
});

test("gives the next test another key, at the sandbox's time, the last one's account removed", async ({ apiKey }) => {
  expect(keysSeen).toHaveLength(1);
  expect(apiKey).not.toBe(keysSeen[0]);
  expect(apiKey).toMatch(/^test-[0-9a-f-]{36}$/);
  expect(server.sandbox.getAccount(keysSeen[0]!)).toBeUndefined();
  expect((await quote(apiKey)).data.expiryDate).toBe("2026-11-26T10:00:30.000Z");
});
