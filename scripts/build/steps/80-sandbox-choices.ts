// The register of the sandbox's choices as a table (scripts/build/sandbox-choices.ts), as the site's page of the
// register shows it (docs/guide/register.md).
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { headerFor } from "../generated-header.js";
import type { BuildContext } from "../index.js";
import { choicesTable } from "../sandbox-choices.js";

const SOURCE = "src/sandbox/choices.ts";

export default async function sandboxChoices({ outDir }: BuildContext): Promise<void> {
  await writeFile(
    path.join(outDir, "sandbox-choices.md"),
    `${headerFor("sandbox-choices.md", SOURCE)}\n${choicesTable()}\n`,
  );
}
