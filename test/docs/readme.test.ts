// The README's TypeScript examples compile against this package (src/), so the first screen cannot rot.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PACKAGE_NAME } from "../../scripts/build/code-samples.js";
import { repoRoot, scratchDir, tscErrors } from "../support/tsc.js";

let scratch: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => {
  scratch = await scratchDir("readme-");
});
afterAll(() => scratch.remove());

it("compiles the README's first-screen example, and a broken copy of it does not", async () => {
  const readme = await readFile(path.join(repoRoot, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const firstScreen = blocks.find((block) => block.includes(`from "${PACKAGE_NAME}"`) && block.includes("createClient"));
  expect(firstScreen, "a ts block importing createClient from the package").toBeDefined();
  const source = `${firstScreen}\nexport {};\n`;
  const broken = source.replace('side: "SELL"', 'side: "HOLD"');
  expect(broken).not.toBe(source);
  const { errors } = await tscErrors(scratch.dir, { "readme.ts": source, "readme-broken.ts": broken });
  expect(
    errors.filter((line) => line.startsWith("readme.ts")),
    errors.join("\n"),
  ).toEqual([]);
  expect(errors.some((line) => line.startsWith("readme-broken.ts"))).toBe(true);
});
