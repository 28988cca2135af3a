// The webhook helpers stay out of a bundle that imports only the client: `createClient` alone, bundled from the
// package's entry as a consumer's bundler would (tree-shaking, the package's `sideEffects: false`), holds none of
// their code, while a bundle that imports them does (so the marker looked for is theirs).
import { build } from "esbuild";
import { expect, it } from "vitest";
import { repoRoot } from "../support/spec.js";

/** A minified ESM bundle of `import { <names> } from src/index.ts`, its dependencies left out. */
async function bundleOf(names: string): Promise<string> {
  const result = await build({
    stdin: { contents: `export { ${names} } from "./src/index.ts";`, resolveDir: repoRoot, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    packages: "external",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** Strings only the webhook helpers hold: their hash and their error message. */
const WEBHOOK_MARKERS = ["SHA-512", "webhook Signature Secret"];

it("leaves the webhook helpers out of a bundle of createClient alone", async () => {
  const client = await bundleOf("createClient");
  expect(client).toContain("SHA-256"); // the client's own request signing is there
  for (const marker of WEBHOOK_MARKERS) expect(client).not.toContain(marker);
});

it("puts them in a bundle that imports them", async () => {
  const webhooks = await bundleOf("verifyWebhookSignature, signWebhook");
  for (const marker of WEBHOOK_MARKERS) expect(webhooks).toContain(marker);
  expect(webhooks).not.toContain("SHA-256");
});
