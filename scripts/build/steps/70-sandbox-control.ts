// The sandbox's control API document (openapi-sandbox/control.yaml, this package's own API, apart from the
// service's contract): bundled to sandbox-control.json, which the sandbox serves at /_sandbox/openapi.json and
// checks its control answers with, and typed to sandbox-control.d.ts (SandboxAccount, SandboxRates, ...) by the
// same tools as the contract (steps 10 and 30).
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { generatedNotice, headerFor } from "../generated-header.js";
import type { BuildContext } from "../index.js";
import { jsonWithNotice, redoclyBundle } from "./10-bundle.js";
import { typescriptTypes } from "./30-types.js";

const SOURCE_DIR = "openapi-sandbox/";

export default async function sandboxControl({ root, outDir }: BuildContext): Promise<void> {
  const yamlText = await redoclyBundle(root, `${SOURCE_DIR}control.yaml`);
  const jsonFile = path.join(outDir, "sandbox-control.json");
  await writeFile(jsonFile, jsonWithNotice(yamlText, generatedNotice(SOURCE_DIR)));
  const declarations = await typescriptTypes(root, jsonFile);
  await writeFile(
    path.join(outDir, "sandbox-control.d.ts"),
    headerFor("sandbox-control.d.ts", SOURCE_DIR) + declarations,
  );
}
