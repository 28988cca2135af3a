// The README's section "Webhooks in the sandbox" cannot drift from the sandbox: its receiver (sandbox-receiver.mjs)
// takes a webhook signed with its secret and refuses a tampered, re-serialised or otherwise signed one; its
// in-process example compiles (and a wrong option does not); the register entries it names exist; and its worked
// example, run as written (the package name resolved to src/) against a sandbox started as the README says,
// gets through every step: the deposit seen in the wallet, the history, the deposits list and the receiver (after
// a retry), both withdrawals' states received in order, the failed one's funds back, a resend identical.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_NAME } from "../../scripts/build/code-samples.js";
import { binPath } from "../../scripts/lib/node-cli.js";
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from "../../src/index.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { README_WEBHOOKS_OUTCOME, readmeBlock, resolvedToSource } from "../support/readme.js";
import { repoRoot, scratchDir, tscCleanAndBroken } from "../support/tsc.js";

const run = promisify(execFile);
const SECTION = (() => {
  const text = readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const start = text.indexOf("## Webhooks in the sandbox");
  return text.slice(start, text.indexOf("\n## ", start + 1));
})();

/** A README module as the tests run it: the package name resolved to src/index.ts. */
const asWritten = (firstLine: string) => {
  const resolved = resolvedToSource(readmeBlock("js", firstLine));
  expect(resolved).not.toContain(`"${PACKAGE_NAME}`);
  return resolved;
};

let scratch: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => {
  scratch = await scratchDir("readme-sandbox-webhooks-");
  await writeFile(path.join(scratch.dir, "sandbox-receiver.mjs"), asWritten("// sandbox-receiver.mjs"));
  await writeFile(path.join(scratch.dir, "sandbox-webhooks.mjs"), asWritten("// sandbox-webhooks.mjs"));
});
afterAll(() => scratch?.remove());

describe("README: the sandbox's webhook receiver", () => {
  interface Receiver {
    url: string;
    taken(count: number): Promise<Array<{ payload: unknown; raw: string }>>;
    wasDown(): Promise<void>;
    close(): Promise<void>;
  }
  let receiver: Receiver;
  const secret = "whsec-readme";
  const body = JSON.stringify({ type: "DEPOSIT", currency: "USDT", amount: 25.5, status: "CONFIRMED" });
  beforeAll(async () => {
    const { startReceiver } = (await import(pathToFileURL(path.join(scratch.dir, "sandbox-receiver.mjs")).href)) as {
      startReceiver(secret: string, options?: { down?: number }): Promise<Receiver>;
    };
    receiver = await startReceiver(secret, { down: 1 });
  });
  afterAll(() => receiver?.close());

  const post = async (text: string, signature: string | undefined) =>
    (
      await fetch(receiver.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(signature ? { [WEBHOOK_SIGNATURE_HEADER]: signature } : {}),
        },
        body: text,
      })
    ).status;

  it("listens on 127.0.0.1, refuses what its secret did not sign, before being down or taking anything", async () => {
    expect(new URL(receiver.url).hostname).toBe("127.0.0.1");
    const signature = await signWebhook(body, secret);
    expect(await post(body.replace("25.5", "26.5"), signature)).toBe(401);
    expect(await post(JSON.stringify(JSON.parse(body), null, 1), signature)).toBe(401);
    expect(await post(body, await signWebhook(body, "another secret"))).toBe(401);
    expect(await post(body, undefined)).toBe(401);
    // Down for its first genuine webhook, then it takes them, parsed, with their exact text.
    expect(await post(body, signature)).toBe(503);
    await receiver.wasDown();
    expect(await post(body, signature.toUpperCase())).toBe(200);
    expect(await receiver.taken(1)).toEqual([{ payload: JSON.parse(body), raw: body }]);
  });
});

describe("README: the in-process webhooks example", () => {
  it("compiles as written, and a wrong option does not", async () => {
    const source = `${readmeBlock("ts", "// In-process webhooks")}\nexport {};\n`;
    const broken = source.replace("retry: [60_000, 300_000]", "retry: 60_000");
    const checked = await tscCleanAndBroken(scratch.dir, "in-process", source, broken, ["sandbox"]);
    expect(checked.clean, checked.all).toEqual([]);
    expect(checked.broken, checked.all).not.toEqual([]);
  }, 180_000);

  it("runs as written: the callback verifies, is down once, takes the retry after the clock moves 1 min", async () => {
    const source = resolvedToSource(readmeBlock("ts", "// In-process webhooks"));
    expect(source).not.toContain(`"${PACKAGE_NAME}`);
    await writeFile(path.join(scratch.dir, "in-process-run.mts"), source);
    const { stdout } = await run(process.execPath, [binPath("tsx"), "in-process-run.mts"], {
      cwd: scratch.dir,
      timeout: 60_000,
    });
    const outcome = JSON.parse(stdout) as { about: boolean; status: string; attempts: unknown; taken: string[] };
    expect(outcome).toMatchObject({
      about: true,
      status: "delivered",
      attempts: [
        ["2026-01-01T00:00:00.000Z", 503],
        ["2026-01-01T00:01:00.000Z", 200],
      ],
    });
    expect(outcome.taken.map((body) => JSON.parse(body) as unknown)).toEqual([
      expect.objectContaining({ type: "DEPOSIT", status: "CONFIRMED", amount: 25, currency: "USDT" }),
    ]);
  }, 90_000);

  it("names register entries that exist", () => {
    const ids = createSandbox().choices.map((choice) => choice.id);
    // The parenthesis after the link to the register: ids, or prefixes of ids (`webhooks.*`).
    const list = /\(#the-register-of-choices\)\s*\(([^)]*)\)/.exec(SECTION)?.[1] ?? "";
    const named = [...list.matchAll(/`([a-z.-]+?)(\.\*)?`/g)];
    expect(named.length).toBeGreaterThan(3);
    for (const [, name, all] of named)
      expect(all ? ids.some((id) => id.startsWith(`${name}.`)) : ids.includes(name!), name).toBe(true);
  });
});

describe("README: the worked example, run as written", () => {
  let sandbox: StartedSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox?.stop());

  it("deposit → wallet, history, deposits, receiver after a retry → two withdrawals settled → resend", async () => {
    const { stdout } = await run(process.execPath, [binPath("tsx"), "sandbox-webhooks.mjs"], {
      cwd: scratch.dir,
      env: { ...process.env, SANDBOX_URL: sandbox.baseUrl },
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual(README_WEBHOOKS_OUTCOME);
  }, 90_000);
});
