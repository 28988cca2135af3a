// The README's TypeScript examples compile against this package (src/), so the first screen cannot rot.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PACKAGE_NAME } from "../../scripts/lib/code-samples.mjs";

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let dir: string;

beforeAll(async () => {
  await mkdir(path.join(root, "test-output", "docs"), { recursive: true });
  dir = await mkdtemp(path.join(root, "test-output", "docs", "readme-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function tscErrors(files: Record<string, string>): Promise<string[]> {
  for (const [name, source] of Object.entries(files)) await writeFile(path.join(dir, name), source);
  const tsconfig = {
    compilerOptions: {
      target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2022", "DOM"], strict: true,
      skipLibCheck: true, noEmit: true, types: ["node"],
      paths: {
        [PACKAGE_NAME]: [path.join(root, "src", "index.ts")],
        [`${PACKAGE_NAME}/contract`]: [path.join(root, "src", "contract", "index.ts")],
      },
    },
    files: Object.keys(files),
  };
  await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
  const output = await run(process.execPath, [tsc, "-p", path.join(dir, "tsconfig.json"), "--pretty", "false"], { cwd: dir })
    .then(({ stdout }) => stdout)
    .catch((err: { stdout?: string }) => err.stdout ?? String(err));
  return output.split("\n").filter((line) => /error TS\d+/.test(line));
}

it("compiles the README's first-screen example, and a broken copy of it does not", async () => {
  const readme = await readFile(path.join(root, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const firstScreen = blocks.find((block) => block.includes(`from "${PACKAGE_NAME}"`) && block.includes("createClient"));
  expect(firstScreen, "a ts block importing createClient from the package").toBeDefined();
  const source = `${firstScreen}\nexport {};\n`;
  const broken = source.replace('side: "SELL"', 'side: "HOLD"');
  expect(broken).not.toBe(source);
  const errors = await tscErrors({ "readme.ts": source, "readme-broken.ts": broken });
  expect(errors.filter((line) => line.startsWith("readme.ts")), errors.join("\n")).toEqual([]);
  expect(errors.some((line) => line.startsWith("readme-broken.ts"))).toBe(true);
});
