// pins: webhooks.request, webhooks.destination
// The sandbox signs each webhook as the service does: `x-obiex-signature` is the lowercase hex HMAC-SHA512 of
// the exact bytes sent, keyed with the account's webhook Signature Secret (not its API secret), on a POST with
// Content-Type application/json. A real receiver on 127.0.0.1 checks it with node:crypto on the raw bytes and
// with the package's verifyWebhookSignature, and rejects a tampered body or another secret. The bodies are compact
// JSON, which JSON.stringify gives back byte for byte (register entry `webhooks.request`; the webhooks guide says
// when other bytes survive); the same data in other bytes fails.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyWebhookSignature } from "../../src/webhooks.js";
import { control, newSandbox } from "./support/sandbox.js";
import { deposit, outbox, type Receiver, SECRET, withWebhooks, receiversClosedAfterEach } from "./support/receiver.js";
import { WEBHOOK_SIGNATURE_HEADER } from "../support/spec.js";

/** Starts a receiver, closed after the test. */
const startClosedAfterEach = receiversClosedAfterEach();
let receiver: Receiver | undefined;

const hmac = (raw: Buffer | string, secret: string) => createHmac("sha512", secret).update(raw).digest("hex");

describe("webhook signature", () => {
  it("POSTs JSON with x-obiex-signature over its exact bytes, keyed with the webhook secret", async () => {
    receiver = await startClosedAfterEach();
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", receiver.url);
    const transactionId = await deposit(sandbox, "key-a");
    const [request] = await receiver.received(1);
    const signature = String(request!.headers[WEBHOOK_SIGNATURE_HEADER]);
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/webhooks");
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(signature).toBe(hmac(request!.raw, SECRET));
    expect(await verifyWebhookSignature(request!.raw, signature, SECRET)).toBe(true);
    expect(await verifyWebhookSignature(request!.raw.toString("utf8"), signature, SECRET)).toBe(true);
    const payload = JSON.parse(request!.raw.toString("utf8"));
    expect(payload).toMatchObject({ type: "DEPOSIT", transactionId, currency: "USDT", amount: 25 });
    await sandbox.webhooks.settled();
    const [webhook] = await outbox(sandbox, "key-a");
    expect(webhook).toMatchObject({ body: request!.raw.toString("utf8"), signature, status: "delivered" });
    expect(sandbox.bugs).toEqual([]);
  });

  it("sends compact JSON that JSON.stringify gives back byte for byte; other bytes of the same data fail", async () => {
    receiver = await startClosedAfterEach();
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", receiver.url);
    await deposit(sandbox, "key-a");
    const [request] = await receiver.received(1);
    const raw = request!.raw.toString("utf8");
    const signature = String(request!.headers[WEBHOOK_SIGNATURE_HEADER]);
    // What the webhooks guide says of a JavaScript receiver that re-serialises: against the sandbox, the same bytes.
    expect(raw).toMatch(/^\{"[^ \n]*\}$/);
    expect(JSON.stringify(JSON.parse(raw))).toBe(raw);
    expect(await verifyWebhookSignature(JSON.stringify(JSON.parse(raw)), signature, SECRET)).toBe(true);
    // The forms the webhooks guide lists as other bytes: spaces, 25.0, an escape JSON does not need.
    const others = [
      raw.replace('"type":', '"type": '),
      raw.replace('"amount":25', '"amount":25.0'),
      raw.replace("T", "\\u0054"),
    ];
    const verdicts = await Promise.all(others.map((other) => verifyWebhookSignature(other, signature, SECRET)));
    expect([others.map((other) => JSON.stringify(JSON.parse(other)) === raw), verdicts]).toEqual([
      [true, true, true],
      [false, false, false],
    ]);
  });

  it("rejects a tampered body, a re-serialised body with other bytes, and another secret", async () => {
    receiver = await startClosedAfterEach();
    const sandbox = newSandbox();
    await withWebhooks(sandbox, "key-a", receiver.url);
    await deposit(sandbox, "key-a");
    const [request] = await receiver.received(1);
    const raw = request!.raw;
    const signature = String(request!.headers[WEBHOOK_SIGNATURE_HEADER]);
    const tampered = Buffer.from(raw.toString("utf8").replace('"amount":25', '"amount":2500'));
    expect(tampered.equals(raw)).toBe(false);
    expect(hmac(tampered, SECRET)).not.toBe(signature);
    expect(await verifyWebhookSignature(tampered, signature, SECRET)).toBe(false);
    const reserialised = JSON.stringify(JSON.parse(raw.toString("utf8")), null, 2);
    expect(await verifyWebhookSignature(reserialised, signature, SECRET)).toBe(false);
    expect(await verifyWebhookSignature(raw, signature, "another-secret")).toBe(false);
  });

  it("signs with each account's own secret, never its API secret", async () => {
    receiver = await startClosedAfterEach();
    const sandbox = newSandbox();
    for (const key of ["a", "b"]) {
      const settings = { webhookUrl: receiver.url, webhookSecret: `secret-of-${key}`, apiSecret: `api-secret-${key}` };
      expect((await control(sandbox, "PUT", `/_sandbox/accounts/key-${key}`, settings)).status).toBe(200);
    }
    await deposit(sandbox, "key-a");
    await deposit(sandbox, "key-b");
    const requests = await receiver.received(2);
    const secrets = await Promise.all(
      requests.map(async (request) => {
        const header = String(request.headers[WEBHOOK_SIGNATURE_HEADER]);
        const candidates = ["secret-of-a", "secret-of-b", "api-secret-a", "api-secret-b"];
        const verified = await Promise.all(
          candidates.map((secret) => verifyWebhookSignature(request.raw, header, secret)),
        );
        return candidates.filter((_, at) => verified[at]);
      }),
    );
    const byAccount = requests.map((request) => JSON.parse(request.raw.toString()).address);
    expect(new Set(byAccount).size).toBe(2);
    expect(secrets.flat().sort()).toEqual(["secret-of-a", "secret-of-b"]);
  });

  it("keeps the webhook settings on the account: the URL and whether there is a secret, never the secret", async () => {
    const sandbox = newSandbox();
    const put = await control(sandbox, "PUT", "/_sandbox/accounts/key-a", {
      webhookUrl: "http://127.0.0.1:9/hooks",
      webhookSecret: SECRET,
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ webhookUrl: "http://127.0.0.1:9/hooks", hasWebhookSecret: true });
    const read = await control(sandbox, "GET", "/_sandbox/accounts/key-a");
    expect(read.body).toMatchObject({ webhookUrl: "http://127.0.0.1:9/hooks", hasWebhookSecret: true });
    expect(JSON.stringify(read.body)).not.toContain(SECRET);
    expect(JSON.stringify(sandbox.getAccount("key-a"))).not.toContain(SECRET);
    const saved = sandbox.snapshot();
    const restored = newSandbox();
    restored.restore(saved);
    expect(restored.getAccount("key-a")).toMatchObject({
      webhookUrl: "http://127.0.0.1:9/hooks",
      hasWebhookSecret: true,
    });
  });

  it("refuses a webhook URL that is not http(s), or one without a secret to sign with (400)", async () => {
    const sandbox = newSandbox();
    const noSecret = await control(sandbox, "PUT", "/_sandbox/accounts/key-a", { webhookUrl: "http://127.0.0.1:9/" });
    expect(noSecret.status).toBe(400);
    const ftp = await control(sandbox, "PUT", "/_sandbox/accounts/key-a", {
      webhookUrl: "ftp://127.0.0.1/hooks",
      webhookSecret: SECRET,
    });
    expect(ftp.status).toBe(400);
    expect(() => sandbox.putAccount("key-a", { webhookUrl: "not a url", webhookSecret: SECRET })).toThrow(RangeError);
  });
});
