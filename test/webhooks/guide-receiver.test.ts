// The webhooks guide's receiver ("Receiving webhooks": docs/samples/webhooks-receiver.ts and webhooks-server.ts),
// exactly as the site shows it: it compiles with its webhooks-server.ts, and, run in a child process on a real
// server on 127.0.0.1 (started and stopped here), it accepts a published sample signed as the service signs it and
// refuses a tampered body, a re-serialised body, a wrong or missing signature. Without WEBHOOK_SECRET it refuses to
// start. The package name resolves to src/ (tsconfig paths).
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_NAME } from "../../scripts/build/code-samples.js";
import { WEBHOOK_SIGNATURE_HEADER } from "../../src/index.js";
import { repoRoot, scratchDir, tscErrors } from "../support/tsc.js";
import { webhooksSample } from "../support/webhooks-guide.js";
import { bodyOf, SECRET, VECTORS } from "./support/vectors.js";

const RECEIVER = webhooksSample("webhooks-receiver.ts");
const SERVER = webhooksSample("webhooks-server.ts");
/**
 * Starts the guide's handler on 127.0.0.1 (not its webhooks-server.ts, which listens on every interface), run as
 * the guide says to run webhooks-server.ts: with tsx, importing the receiver as "./webhooks-receiver.js" as
 * webhooks-server.ts does.
 */
const DRIVER = `import { createServer } from "node:http";
import { receiveWebhook } from "./webhooks-receiver.js";

const server = createServer(receiveWebhook);
server.listen(0, "127.0.0.1", () => console.log("PORT " + server.address().port));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
`;
const TSX = path.join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs");
const [WITHDRAWAL] = VECTORS;
/** The sample's text and its bytes (TextEncoder gives them an ArrayBuffer of their own, as fetch wants). */
const TEXT = bodyOf(WITHDRAWAL!.file).toString("utf8");
const RAW = new TextEncoder().encode(TEXT);

let scratch: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => {
  scratch = await scratchDir("webhook-receiver-");
  await writeFile(path.join(scratch.dir, "webhooks-receiver.ts"), RECEIVER);
  await writeFile(path.join(scratch.dir, "driver.mts"), DRIVER);
  const paths = { [PACKAGE_NAME]: [path.join(repoRoot, "src", "index.ts")] };
  await writeFile(path.join(scratch.dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { paths } }));
});
afterAll(() => scratch?.remove());

/** Runs the driver with `env` added; its output so far is in `output()`. */
function startDriver(env: Record<string, string>): { child: ChildProcessWithoutNullStreams; output: () => string } {
  const base = { ...process.env };
  delete base.WEBHOOK_SECRET;
  const child = spawn(process.execPath, ["--import", TSX, "driver.mts"], {
    cwd: scratch.dir,
    env: { ...base, ...env },
  });
  let text = "";
  child.stdout.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  return { child, output: () => text };
}

describe("the webhooks guide's receiver", () => {
  it("compiles as written, with its webhooks-server.ts", async () => {
    const files = { "webhooks-receiver.ts": RECEIVER, "webhooks-server.ts": SERVER };
    const { errors } = await tscErrors(scratch.dir, files);
    expect(errors, errors.join("\n")).toEqual([]);
  });

  describe("on a real server", () => {
    let driver: ReturnType<typeof startDriver>;
    let url: string;
    beforeAll(async () => {
      driver = startDriver({ WEBHOOK_SECRET: SECRET });
      const exited = once(driver.child, "exit").then(() => {
        throw new Error(`the receiver exited before listening:\n${driver.output()}`);
      });
      // Data events, not an async iterator: leaving one would destroy the pipe the receiver still logs to.
      const listening = new Promise<string>((resolve) => {
        const onData = () => {
          const port = /PORT (\d+)/.exec(driver.output())?.[1];
          if (port === undefined) return;
          driver.child.stdout.off("data", onData);
          resolve(port);
        };
        driver.child.stdout.on("data", onData);
      });
      url = `http://127.0.0.1:${await Promise.race([listening, exited])}/webhooks`;
    });
    afterAll(async () => {
      if (driver?.child.exitCode !== null) return;
      const exit = once(driver.child, "exit");
      driver.child.kill("SIGTERM");
      await exit;
    });

    const post = (body: string | Uint8Array<ArrayBuffer>, signature?: string) =>
      fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(signature ? { [WEBHOOK_SIGNATURE_HEADER]: signature } : {}),
        },
        body,
      }).then((response) => response.status);

    it("accepts a published sample signed as the service signs it, and parses it only then", async () => {
      expect(await post(RAW, WITHDRAWAL!.signature)).toBe(200);
      const event = JSON.parse(TEXT) as { type: string; status: string; transactionId: string };
      await expect.poll(driver.output).toContain(`${event.type} ${event.status} ${event.transactionId}`);
    });

    it("refuses the sample with one byte changed, or serialised again with other spacing", async () => {
      const tampered = new TextEncoder().encode(TEXT.replace('"amount":10', '"amount":19'));
      expect(tampered.length).toBe(RAW.length);
      expect(await post(tampered, WITHDRAWAL!.signature)).toBe(401);
      const reserialised = JSON.stringify(JSON.parse(TEXT), null, 1);
      expect(await post(reserialised, WITHDRAWAL!.signature)).toBe(401);
    });

    it("refuses a missing signature and another webhook's signature", async () => {
      expect(await post(RAW)).toBe(401);
      expect(await post(RAW, VECTORS[1]!.signature)).toBe(401);
    });
  });

  it("refuses to start without WEBHOOK_SECRET", async () => {
    const driver = startDriver({});
    const [code] = (await once(driver.child, "exit")) as [number | null];
    expect(code).not.toBe(0);
    expect(driver.output()).toContain("WEBHOOK_SECRET is not set");
  });
});
