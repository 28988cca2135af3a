// Properties of the webhook signature helpers, for any body and secret: a body signed with a secret verifies with
// it, in every form of the same bytes and in either hex case; with another secret, or with one byte of the body
// changed, it does not. A signature is always 128 lowercase hex digits, and node:crypto (an implementation
// independent of Web Crypto) computes the same one.
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhookSignature } from "../../src/index.js";

/** Any bytes, or any text (UTF-8 encoded: lone surrogates become U+FFFD, as TextEncoder does). */
const body = fc.oneof(fc.uint8Array({ maxLength: 512 }), fc.string({ unit: "binary", maxLength: 256 }));
const secret = fc.string({ unit: "grapheme", minLength: 1, maxLength: 64 });
/** fast-check's seed: FUZZ_SEED reproduces a run (the mutation run fixes it); printed in each test's name. */
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const bytesOf = (value: string | Uint8Array): Uint8Array =>
  typeof value === "string" ? new TextEncoder().encode(value) : value;

describe("sign, then verify", () => {
  it(`verifies what it signed, in each body form and hex case; node:crypto agrees (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(body, secret, async (raw, key) => {
        const signature = await signWebhook(raw, key);
        expect(signature).toMatch(/^[0-9a-f]{128}$/);
        const bytes = bytesOf(raw);
        expect(signature).toBe(createHmac("sha512", key).update(bytes).digest("hex"));
        expect(await verifyWebhookSignature(raw, signature, key)).toBe(true);
        expect(await verifyWebhookSignature(new Uint8Array(bytes).buffer, signature.toUpperCase(), key)).toBe(true);
      }),
      { seed },
    );
  });

  it(`refuses it under another secret (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(body, secret, secret, async (raw, key, other) => {
        fc.pre(other !== key);
        expect(await verifyWebhookSignature(raw, await signWebhook(raw, key), other)).toBe(false);
      }),
      { seed },
    );
  });

  it(`refuses it when one byte of the body changed (seed ${seed})`, async () => {
    const nonEmpty = fc.uint8Array({ minLength: 1, maxLength: 512 });
    await fc.assert(
      fc.asyncProperty(nonEmpty, secret, fc.nat(), fc.integer({ min: 1, max: 255 }), async (raw, key, at, flip) => {
        const changed = new Uint8Array(raw);
        const index = at % raw.length;
        changed[index] = changed[index]! ^ flip;
        expect(await verifyWebhookSignature(changed, await signWebhook(raw, key), key)).toBe(false);
      }),
      { seed },
    );
  });
});
