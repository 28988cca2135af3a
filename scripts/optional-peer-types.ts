// Run by `npm run build:dist` after tsup: puts MARK, a comment that tells TypeScript to ignore the next line,
// above the import of openapi-msw's types in dist/msw.d.ts. openapi-msw is an optional peer that only createHttp
// needs, and npm refuses it next to msw 3 (its peer range is msw ^2.10.5). Without the mark, a consumer on msw 3
// that type-checks its dependencies' declarations (skipLibCheck: false) gets TS2307 "Cannot find module
// 'openapi-msw'" from this package; with it, createHttp is typed `any` there (and throws if called), and fully
// typed wherever openapi-msw is installed.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ROOT } from "./lib/paths.js";

const file = path.join(ROOT, "dist", "msw.d.ts");
const MARK = "// @ts-ignore openapi-msw is an optional peer (createHttp's; msw 2 only): absent next to msw 3";
const lines = (await readFile(file, "utf8")).split("\n");
const imports = lines.flatMap((line, index) => (/^import .* from 'openapi-msw';$/.test(line) ? [index] : []));
if (imports.length !== 1) {
  throw new Error(`${file}: expected one import from 'openapi-msw', found ${imports.length}`);
}
if (lines[imports[0]! - 1] !== MARK) lines.splice(imports[0]!, 0, MARK);
await writeFile(file, lines.join("\n"));
