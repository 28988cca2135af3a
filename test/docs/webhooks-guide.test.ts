// The webhooks guide (docs/guide/webhooks.md) cannot drift from the sandbox: its sandbox receiver
// (webhooks-sandbox-receiver.mjs) takes a webhook signed with its secret and refuses a tampered, re-serialised or
// otherwise signed one; its in-process example (webhooks-in-process.ts) compiles, and a wrong option does not
// (test/docs/site-code-samples.test.ts runs it); the register entries it names exist; its outbox entry has a real
// entry's fields; its worked example (webhooks-sandbox-flow.mjs), run as written (the package name resolved to
// src/) against a sandbox started as the guide says, gets through every step: the deposit seen in the wallet, the
// history, the deposits list and the receiver (after a retry), both withdrawals' states received in order, the
// failed one's funds back, a resend identical. And what it says of re-serialised JSON is what JavaScript does.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_NAME } from "../../scripts/build/code-samples.js";
import { binPath } from "../../scripts/lib/node-cli.js";
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from "../../src/index.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { WEBHOOK_RETRY_DELAYS_MS } from "../../src/sandbox/rules.js";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { resolvedToSource } from "../support/readme.js";
import { scratchDir, tscCleanAndBroken } from "../support/tsc.js";
import { WEBHOOKS_GUIDE_OUTCOME, webhooksGuide, webhooksSample } from "../support/webhooks-guide.js";

const run = promisify(execFile);
/** The text of the guide's section headed `## heading`, up to the next `## ` or the page's end. */
const section = (heading: string) => {
  const text = webhooksGuide();
  const start = text.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
};

/** A sample as the tests run it: the package name resolved to src/index.ts. */
const asWritten = (name: string) => {
  const resolved = resolvedToSource(webhooksSample(name));
  expect(resolved).not.toContain(`"${PACKAGE_NAME}`);
  return resolved;
};

let scratch: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => {
  scratch = await scratchDir("webhooks-guide-");
  for (const name of ["webhooks-sandbox-receiver.mjs", "webhooks-sandbox-flow.mjs"])
    await writeFile(path.join(scratch.dir, name), asWritten(name));
});
afterAll(() => scratch?.remove());

describe("the webhooks guide: the sandbox's webhook receiver", () => {
  interface Receiver {
    url: string;
    taken(count: number): Promise<Array<{ payload: unknown; raw: string }>>;
    wasDown(): Promise<void>;
    close(): Promise<void>;
  }
  let receiver: Receiver;
  const secret = "whsec-guide";
  const body = JSON.stringify({ type: "DEPOSIT", currency: "USDT", amount: 25.5, status: "CONFIRMED" });
  beforeAll(async () => {
    const module = pathToFileURL(path.join(scratch.dir, "webhooks-sandbox-receiver.mjs")).href;
    const { startReceiver } = (await import(module)) as {
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

describe("the webhooks guide: the in-process webhooks example", () => {
  it("compiles as written, and a wrong option does not", async () => {
    const source = `${webhooksSample("webhooks-in-process.ts")}\nexport {};\n`;
    const broken = source.replace("retry: [60_000, 300_000]", "retry: 60_000");
    const checked = await tscCleanAndBroken(scratch.dir, "in-process", source, broken, ["sandbox"]);
    expect(checked.clean, checked.all).toEqual([]);
    expect(checked.broken, checked.all).not.toEqual([]);
  }, 180_000);

  it("names register entries that exist", () => {
    const ids = createSandbox().choices.map((choice) => choice.id);
    // The parenthesis after the link to the register: ids, or prefixes of ids (`webhooks.*`).
    const list = /#the-register-of-choices\)\s*\(([^)]*)\)/.exec(section("Webhooks in the sandbox"))?.[1] ?? "";
    const named = [...list.matchAll(/`([a-z.-]+?)(\.\*)?`/g)];
    expect(named.length).toBeGreaterThan(3);
    for (const [, name, all] of named)
      expect(all ? ids.some((id) => id.startsWith(`${name}.`)) : ids.includes(name!), name).toBe(true);
  });
});

describe("the webhooks guide: the outbox entry", () => {
  it("has the fields of a delivered entry, its body the sandbox's first keys, a retry 1 min after a 503", async () => {
    const sample = JSON.parse(webhooksSample("webhooks-outbox-entry.json")) as {
      body: string;
      attempts: Array<{ at: string; status: number }>;
    };
    const down = [503];
    const sandbox = createSandbox({
      clock: { start: Date.parse("2026-11-27T10:00:00Z") },
      accounts: { "hooks-key": { balances: {}, webhookSecret: "whsec-outbox" } },
      webhooks: { onWebhook: () => down.pop() ?? 200 },
    });
    sandbox.deposit({ apiKey: "hooks-key", currency: "USDT", network: "TRX", amount: 25 });
    await sandbox.webhooks.settled();
    sandbox.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]!);
    await sandbox.webhooks.settled();
    const [real] = await sandbox.webhooks.list("hooks-key");
    expect(Object.keys(sample)).toEqual(Object.keys(real!));
    expect(sample.attempts).toEqual(real!.attempts);
    // The sample's body is cut short ("…"): the keys it shows are the real body's first, in order.
    const keys = (text: string) => [...text.matchAll(/"(\w+)":/g)].map((match) => match[1]);
    const shown = keys(sample.body);
    expect(shown.length).toBeGreaterThan(3);
    expect(keys(real!.body).slice(0, shown.length)).toEqual(shown);
  });
});

describe("the webhooks guide: re-serialised JSON", () => {
  /** A row of the table: what the sender wrote (text, maybe with code), the body sent, what comes back. */
  const ROW = /^\| ([^|`]+(?:`[^`]+`[^|`]*)*) \| `([^`]+)` \| `([^`]+)` \|$/gm;
  /** The table's rows: what the sender wrote, the body sent, and JSON.stringify(JSON.parse(body)) as the page says. */
  const rows = () =>
    [...section("Receiving webhooks").matchAll(ROW)].map(([, form, sent, back]) => ({
      form: form!,
      sent: sent!,
      back: back!,
    }));

  it("gives what JSON.stringify(JSON.parse(body)) gives back for each body, other bytes for all but the first", () => {
    const table = rows();
    expect(table.length).toBeGreaterThan(10);
    for (const { form, sent, back } of table) expect(JSON.stringify(JSON.parse(sent)), form).toBe(back);
    expect(table.map(({ sent, back }) => sent === back)).toEqual(table.map((_, index) => index === 0));
  });

  it("says a body written as JSON.stringify writes it comes back byte for byte: so does any JSON value's", () => {
    expect(section("Receiving webhooks").replace(/\s+/g, " ")).toContain(
      "`JSON.stringify(JSON.parse(body))` gives back the bytes of `body` exactly when",
    );
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const body = JSON.stringify(value);
        return JSON.stringify(JSON.parse(body)) === body;
      }),
    );
  });
});

describe("the webhooks guide: the worked example, run as written", () => {
  let sandbox: StartedSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox?.stop());

  it("deposit: wallet, history, deposits, receiver after a retry; two withdrawals settled; a resend", async () => {
    const { stdout } = await run(process.execPath, [binPath("tsx"), "webhooks-sandbox-flow.mjs"], {
      cwd: scratch.dir,
      env: { ...process.env, SANDBOX_URL: sandbox.baseUrl },
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual(WEBHOOKS_GUIDE_OUTCOME);
  }, 90_000);
});
