// The --state journal against SIGKILL: a sandbox in a process of its own (support/journal-child.ts, bundled once) is
// put under load by four clients, each with its key, making quotes (the API) and simulated deposits (the control
// API), and killed with SIGKILL after a number of acknowledged answers drawn at random (so at any moment of a commit:
// mid-write, mid-sync, between answers), 200 times, restarted on the same files each time. After every restart the
// state passed the restore's check (the process listens) and holds every change whose answer a client received.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { repoRoot } from "../support/spec.js";

const KILLS = 200;
const CLIENTS = ["k0", "k1", "k2", "k3"];
let dir: string;
let bundle: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "sandbox-journal-crash-"));
  await mkdir(path.join(repoRoot, "test-output"), { recursive: true });
  bundle = path.join(dir, "journal-child.mjs");
  await build({
    entryPoints: [path.join(repoRoot, "test", "sandbox", "support", "journal-child.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: bundle,
    logLevel: "silent",
    // esbuild's ESM output for Node needs require() for the CommonJS packages it bundles.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
}, 120_000);
/** The sandbox process running now, killed after the test whatever happened. */
let running: ChildProcess | undefined;
afterAll(async () => {
  running?.kill("SIGKILL");
  await rm(dir, { recursive: true, force: true });
});

/** Starts the sandbox on `statePath`; resolves with its process and port once it listens. */
function startChild(statePath: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [bundle, statePath], { stdio: ["ignore", "pipe", "pipe"] });
  running = child;
  let output = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      const port = /^(\d+)\n/.exec(output)?.[1];
      if (port) resolve({ child, port: Number(port) });
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.on("exit", (code) => reject(new Error(`the sandbox exited (${code}) before listening: ${output}`)));
  });
}

interface Acknowledged {
  quotes: Map<string, Set<string>>;
  deposits: Map<string, Set<string>>;
}

/** One client's requests, one at a time, until the process is gone; each answer received counts. */
async function load(port: number, key: string, seen: Acknowledged, onAnswer: () => void): Promise<void> {
  const base = `http://127.0.0.1:${port}`;
  const json = { "content-type": "application/json", "x-api-key": key };
  for (let n = 0; ; n++) {
    try {
      if (n % 2 === 0) {
        const body = JSON.stringify({ sourceId: "USDT", targetId: "NGNX", amount: 1, side: "SELL" });
        const answer = await fetch(`${base}/v1/trades/quote`, { method: "POST", headers: json, body });
        const { data } = (await answer.json()) as { data: { id: string } };
        if (answer.status === 200) seen.quotes.get(key)!.add(data.id);
      } else {
        const body = JSON.stringify({ apiKey: key, currency: "USDT", network: "TRX", amount: 1 });
        const answer = await fetch(`${base}/_sandbox/deposits`, { method: "POST", headers: json, body });
        const { id } = (await answer.json()) as { id: string };
        if (answer.status === 201) seen.deposits.get(key)!.add(id);
      }
      onAnswer();
    } catch {
      return; // killed: a request without an answer acknowledged nothing
    }
  }
}

/** What the restarted sandbox lost of `seen`: each quote and deposit acknowledged and not in its key's store. */
async function lost(port: number, seen: Acknowledged): Promise<string[]> {
  const missing: string[] = [];
  for (const key of CLIENTS) {
    const answer = await fetch(`http://127.0.0.1:${port}/_sandbox/accounts/${key}/state`);
    const store = answer.status === 200 ? ((await answer.json()) as any) : { quotes: [], transactions: [] };
    const quotes = new Set((store.quotes as Array<{ id: string }>).map(({ id }) => id));
    const transactions = new Set((store.transactions as Array<{ id: string }>).map(({ id }) => id));
    for (const id of seen.quotes.get(key)!) if (!quotes.has(id)) missing.push(`${key} quote ${id}`);
    for (const id of seen.deposits.get(key)!) if (!transactions.has(id)) missing.push(`${key} deposit ${id}`);
  }
  return missing;
}

it("keeps every acknowledged change through 200 SIGKILLs under load; each restart passes the state check", async () => {
  const statePath = path.join(dir, "state.json");
  const seen: Acknowledged = {
    quotes: new Map(CLIENTS.map((key) => [key, new Set()])),
    deposits: new Map(CLIENTS.map((key) => [key, new Set()])),
  };
  // After how many acknowledged answers each kill comes: drawn once from a fixed seed.
  const killAfter = fc.sample(fc.integer({ min: 1, max: 40 }), { seed: 20_261_129, numRuns: KILLS });
  const losses: string[] = [];
  for (let kill = 0; kill < KILLS; kill++) {
    const { child, port } = await startChild(statePath);
    losses.push(...(await lost(port, seen)).map((what) => `restart ${kill}: ${what}`));
    let answers = 0;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const onAnswer = () => {
      if (++answers === killAfter[kill]) child.kill("SIGKILL");
    };
    await Promise.all(CLIENTS.map((key) => load(port, key, seen, onAnswer)));
    await exited;
  }
  const { child, port } = await startChild(statePath);
  losses.push(...(await lost(port, seen)).map((what) => `last restart: ${what}`));
  child.kill("SIGKILL");
  expect(losses).toEqual([]);
  // The load was real: each kill came after at least one answer, so at least 200 changes were acknowledged.
  const acknowledged = [...seen.quotes.values(), ...seen.deposits.values()].reduce((sum, ids) => sum + ids.size, 0);
  expect(acknowledged).toBeGreaterThanOrEqual(KILLS);
}, 1_800_000); // a guard against a hang: about 8 min on a loaded 2-core machine, 4 on a quiet one
