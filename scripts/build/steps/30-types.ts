// Generates schema.d.ts from the bundled spec with openapi-typescript.
// --root-types-no-schema-prefix also exports each schema under its own name (Quote, Trade, ...).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { binPath, runNode } from "../../lib/node-cli.js";
import { headerFor } from "../generated-header.js";
import type { BuildContext } from "../index.js";

export default async function types({ root, outDir }: BuildContext): Promise<void> {
  const tmp = await mkdtemp(path.join(tmpdir(), "types-"));
  try {
    const out = path.join(tmp, "schema.d.ts");
    await runNode(
      binPath("openapi-typescript"),
      [path.join(outDir, "openapi.json"), "-o", out, "--root-types", "--root-types-no-schema-prefix"],
      {
        cwd: root,
      },
    );
    await writeFile(path.join(outDir, "schema.d.ts"), headerFor("schema.d.ts") + (await readFile(out, "utf8")));
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
