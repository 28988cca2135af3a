// Bundles openapi/ into openapi.yaml and openapi.json (redocly bundle).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { binPath, runNode } from "../../lib/node-cli.js";
import { GENERATED_NOTICE, headerFor } from "../generated-header.js";
import type { BuildContext } from "../index.js";

export default async function bundle({ root, outDir }: BuildContext): Promise<void> {
  const tmp = await mkdtemp(path.join(tmpdir(), "bundle-"));
  try {
    const bundled = path.join(tmp, "openapi.yaml");
    await runNode(binPath("@redocly/cli", "redocly"), ["bundle", "openapi/openapi.yaml", "-o", bundled], { cwd: root });
    const yamlText = await readFile(bundled, "utf8");
    const doc = parse(yamlText) as Record<string, unknown>;
    const withNotice = { openapi: doc.openapi, "x-generated": GENERATED_NOTICE, ...doc };
    await writeFile(
      path.join(outDir, "openapi.yaml"),
      headerFor("openapi.yaml") +
        yamlText.replace(/^openapi: (.*)\n/, `openapi: $1\nx-generated: ${JSON.stringify(GENERATED_NOTICE)}\n`),
    );
    await writeFile(path.join(outDir, "openapi.json"), `${JSON.stringify(withNotice, null, 2)}\n`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
