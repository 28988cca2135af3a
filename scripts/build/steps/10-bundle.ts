// Bundles openapi/ into openapi.yaml and openapi.json (redocly bundle).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { binPath, runNode } from "../../lib/node-cli.js";
import { GENERATED_NOTICE, headerFor } from "../generated-header.js";
import type { BuildContext } from "../index.js";

/** `redocly bundle` of a document (a path relative to `root`): the bundled YAML text. */
export async function redoclyBundle(root: string, source: string): Promise<string> {
  const tmp = await mkdtemp(path.join(tmpdir(), "bundle-"));
  try {
    const bundled = path.join(tmp, "openapi.yaml");
    await runNode(binPath("@redocly/cli", "redocly"), ["bundle", source, "-o", bundled], { cwd: root });
    return await readFile(bundled, "utf8");
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** A bundled document as JSON text, with the notice `x-generated` right after `openapi`. */
export function jsonWithNotice(yamlText: string, notice: string): string {
  const doc = parse(yamlText) as Record<string, unknown>;
  return `${JSON.stringify({ openapi: doc.openapi, "x-generated": notice, ...doc }, null, 2)}\n`;
}

export default async function bundle({ root, outDir }: BuildContext): Promise<void> {
  const yamlText = await redoclyBundle(root, "openapi/openapi.yaml");
  await writeFile(
    path.join(outDir, "openapi.yaml"),
    headerFor("openapi.yaml") +
      yamlText.replace(/^openapi: (.*)\n/, `openapi: $1\nx-generated: ${JSON.stringify(GENERATED_NOTICE)}\n`),
  );
  await writeFile(path.join(outDir, "openapi.json"), jsonWithNotice(yamlText, GENERATED_NOTICE));
}
