// Webhook signatures (published on the service's page Webhooks): `x-obiex-signature` is the hex HMAC-SHA512 of
// the raw body, keyed with the webhook Signature Secret. Checked against vectors computed with OpenSSL over the
// published samples (support/vectors.ts says how), then every form of body, header and secret.
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from "../../src/index.js";
import { webhookSignatureHeaderName } from "../../src/openapi/index.js";
import { loadSpec } from "../support/spec.js";
import { bodyOf, SECRET, VECTORS } from "./support/vectors.js";

const [WITHDRAWAL] = VECTORS;
const RAW = bodyOf(WITHDRAWAL!.file);
const SIGNATURE = WITHDRAWAL!.signature;

/** The same bytes as a string, a Uint8Array (a Node Buffer), a plain Uint8Array and an ArrayBuffer. */
function forms(raw: Buffer): Array<[string, string | Uint8Array | ArrayBuffer]> {
  const copy = new Uint8Array(raw);
  return [
    ["string", raw.toString("utf8")],
    ["Buffer", raw],
    ["Uint8Array", copy],
    ["ArrayBuffer", copy.buffer],
  ];
}

describe("the published samples and their vectors", () => {
  it("reads the header name from the spec", () => {
    expect(WEBHOOK_SIGNATURE_HEADER).toBe(webhookSignatureHeaderName(loadSpec()));
  });

  it.each(VECTORS)("$file is the spec's example $example as one line of JSON", ({ file, example }) => {
    const examples = loadSpec().components?.examples as Record<string, { value: unknown }>;
    const text = bodyOf(file).toString("utf8");
    expect(text).toBe(JSON.stringify(examples[example]!.value));
  });

  it.each(VECTORS)("signs $file as OpenSSL does (lowercase hex)", async ({ file, signature }) => {
    expect(await signWebhook(bodyOf(file), SECRET)).toBe(signature);
  });

  it.each(VECTORS)("verifies OpenSSL's signature of $file", async ({ file, signature }) => {
    expect(await verifyWebhookSignature(bodyOf(file), signature, SECRET)).toBe(true);
  });
});

describe("the raw body", () => {
  it.each(forms(RAW))("as a %s: signs and verifies alike", async (_, body) => {
    expect(await signWebhook(body, SECRET)).toBe(SIGNATURE);
    expect(await verifyWebhookSignature(body, SIGNATURE, SECRET)).toBe(true);
  });

  it("verifies a Uint8Array that is a view into a larger buffer by its own bytes only", async () => {
    const padded = new Uint8Array(RAW.length + 8);
    padded.set(RAW, 4);
    expect(await verifyWebhookSignature(padded.subarray(4, 4 + RAW.length), SIGNATURE, SECRET)).toBe(true);
  });

  it("refuses a body changed in one byte", async () => {
    for (const index of [0, RAW.length >> 1, RAW.length - 1]) {
      const changed = Buffer.from(RAW);
      changed[index] = changed[index]! ^ 0x01;
      expect(await verifyWebhookSignature(changed, SIGNATURE, SECRET), `byte ${index}`).toBe(false);
    }
  });

  it("refuses the same JSON serialised again with other spacing, or with a newline added", async () => {
    const parsed = JSON.parse(RAW.toString("utf8")) as unknown;
    expect(JSON.parse(JSON.stringify(parsed, null, 2))).toEqual(parsed);
    expect(await verifyWebhookSignature(JSON.stringify(parsed, null, 2), SIGNATURE, SECRET)).toBe(false);
    expect(await verifyWebhookSignature(`${RAW.toString("utf8")}\n`, SIGNATURE, SECRET)).toBe(false);
  });

  it("is a TypeError when it is not a string, Uint8Array or ArrayBuffer", async () => {
    await expect(verifyWebhookSignature({} as unknown as string, SIGNATURE, SECRET)).rejects.toThrow(TypeError);
    await expect(signWebhook(JSON.parse(RAW.toString("utf8")) as string, SECRET)).rejects.toThrow(
      "signWebhook: rawBody must be the raw body as a string, Uint8Array or ArrayBuffer",
    );
  });
});

describe("the signature header", () => {
  it("accepts upper-case hex (the case is not shown) and surrounding white space", async () => {
    expect(await verifyWebhookSignature(RAW, SIGNATURE.toUpperCase(), SECRET)).toBe(true);
    expect(await verifyWebhookSignature(RAW, ` ${SIGNATURE}\t`, SECRET)).toBe(true);
  });

  it("refuses a wrong signature of the right length (compared by crypto.subtle.verify)", async () => {
    const last = SIGNATURE.at(-1) === "0" ? "1" : "0";
    const wrong = `${SIGNATURE.slice(0, -1)}${last}`;
    expect(wrong).toHaveLength(128);
    expect(await verifyWebhookSignature(RAW, wrong, SECRET)).toBe(false);
    expect(await verifyWebhookSignature(RAW, await signWebhook(RAW, `${SECRET}x`), SECRET)).toBe(false);
  });

  it.each([
    ["missing", undefined],
    ["null", null],
    ["empty", ""],
    ["white space", "   "],
    ["64 hex digits (a SHA-256 length)", SIGNATURE.slice(0, 64)],
    ["127 hex digits", SIGNATURE.slice(1)],
    ["129 hex digits", `${SIGNATURE}0`],
    ["a non-hex digit", `${SIGNATURE.slice(0, -1)}g`],
    ["a 0x prefix", `0x${SIGNATURE.slice(2)}`],
    ["inner white space", `${SIGNATURE.slice(0, 64)} ${SIGNATURE.slice(64)}`],
    ["an array of values", [SIGNATURE]],
  ] as const)("is false, never a throw, when the header is %s", async (_, header) => {
    expect(await verifyWebhookSignature(RAW, header, SECRET)).toBe(false);
  });
});

describe("the secret", () => {
  it.each([
    ["empty", ""],
    ["missing", undefined],
  ])("is a TypeError when %s, for both functions", async (_, secret) => {
    const message = "the webhook Signature Secret is missing (a non-empty string is required)";
    await expect(verifyWebhookSignature(RAW, SIGNATURE, secret as string)).rejects.toThrow(TypeError);
    await expect(verifyWebhookSignature(RAW, SIGNATURE, secret as string)).rejects.toThrow(
      `verifyWebhookSignature: ${message}`,
    );
    await expect(signWebhook(RAW, secret as string)).rejects.toThrow(`signWebhook: ${message}`);
  });

  it("is the key: another secret's signature is refused", async () => {
    expect(await signWebhook(RAW, "another-secret")).not.toBe(SIGNATURE);
    expect(await verifyWebhookSignature(RAW, SIGNATURE, "another-secret")).toBe(false);
  });
});
