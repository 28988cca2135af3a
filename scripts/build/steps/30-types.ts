// Generates schema.d.ts from the bundled spec with openapi-typescript.
// --root-types-no-schema-prefix also exports each schema under its own name (Quote, Trade, ...).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { binPath, runNode } from "../../lib/node-cli.js";
import { headerFor } from "../generated-header.js";
import type { BuildContext } from "../index.js";

/** openapi-typescript's declarations of a bundled JSON document (an absolute path). */
export async function typescriptTypes(root: string, documentFile: string): Promise<string> {
  const tmp = await mkdtemp(path.join(tmpdir(), "types-"));
  try {
    const out = path.join(tmp, "schema.d.ts");
    await runNode(
      binPath("openapi-typescript"),
      [documentFile, "-o", out, "--root-types", "--root-types-no-schema-prefix"],
      {
        cwd: root,
      },
    );
    return await readFile(out, "utf8");
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

export default async function types({ root, outDir }: BuildContext): Promise<void> {
  const declarations = await typescriptTypes(root, path.join(outDir, "openapi.json"));
  await writeFile(path.join(outDir, "schema.d.ts"), headerFor("schema.d.ts") + declarations);
}
