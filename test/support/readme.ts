// The README's code blocks, read as written there, for the tests that run or compile them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { PACKAGE_NAME } from "../../scripts/build/code-samples.js";
import { repoRoot } from "./spec.js";

const readme = () => readFileSync(path.join(repoRoot, "README.md"), "utf8");

/** `source` with the package's imports (its root and ./sandbox) resolved to src/, as the tests run README code. */
export function resolvedToSource(source: string): string {
  return source
    .replaceAll(
      `from "${PACKAGE_NAME}/sandbox"`,
      `from ${JSON.stringify(path.join(repoRoot, "src", "sandbox", "index.ts"))}`,
    )
    .replaceAll(`from "${PACKAGE_NAME}"`, `from ${JSON.stringify(path.join(repoRoot, "src", "index.ts"))}`);
}

/** The first screen's example: the README's ts block that imports createClient from the package. */
export function firstScreenExample(): string {
  const blocks = [...readme().matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const block = blocks.find((b) => b.includes(`from "${PACKAGE_NAME}"`) && b.includes("createClient"));
  if (block === undefined) throw new Error("README.md: no ts block importing createClient from the package");
  return block;
}
