// No import cycle in src/: a reader follows a module's imports, type-only ones too, and should never come back to
// where they started. The graph: every .ts file of src/ and its imports of other files of src/ (`import`,
// `import type`, `export … from`, `import("…")` calls and types), the `.js` of a specifier read as the `.ts` it is
// compiled from, a folder as its index.ts. A failure names each cycle, from its first file in name order. The
// graph's reading and the cycles' naming are checked first on files planted in a temporary folder.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/spec.js";

/** Most cycles named: past this many, more names would not help whoever breaks them. */
const MAX_CYCLES = 50;

/** The .ts files under `dir`, relative to `root`, `/`-separated, sorted. */
function tsFiles(root: string, dir: string): string[] {
  return readdirSync(path.join(root, dir))
    .flatMap((name) => {
      const file = `${dir}/${name}`;
      if (statSync(path.join(root, file)).isDirectory()) return tsFiles(root, file);
      return file.endsWith(".ts") ? [file] : [];
    })
    .sort();
}

/** The module specifiers `text` imports or re-exports, type-only, dynamic and `import("…")` types included. */
function specifiersOf(file: string, text: string): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteralLike(first)) specifiers.push(first.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const { literal } = node.argument;
      if (ts.isStringLiteral(literal)) specifiers.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS));
  return specifiers;
}

/** The file of `files` a relative `specifier` of `from` names, or undefined (a package, a file elsewhere). */
function resolve(files: ReadonlySet<string>, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const target = path.posix.join(path.posix.dirname(from), specifier);
  const candidates = [target.replace(/\.js$/, ".ts"), target, `${target}.ts`, `${target}/index.ts`];
  return candidates.find((candidate) => files.has(candidate));
}

/** Each .ts file under `dir` (relative to `root`) with the files under `dir` it imports. */
function importGraph(root: string, dir: string): Map<string, string[]> {
  const files = tsFiles(root, dir);
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const specifiers = specifiersOf(file, readFileSync(path.join(root, file), "utf8"));
      const imported = specifiers.flatMap((specifier) => resolve(known, file, specifier) ?? []);
      return [file, [...new Set(imported)].sort()];
    }),
  );
}

/**
 * Every cycle of `graph` (up to MAX_CYCLES), each once: `a → b → a`, from its first file in name order, which
 * is where the search for it starts (a search from a file goes only through files after it).
 */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const files = [...graph.keys()].sort();
  const cycles: string[] = [];
  for (const start of files) {
    const trail = [start];
    const walk = (file: string): void => {
      for (const next of graph.get(file) ?? []) {
        if (cycles.length >= MAX_CYCLES) return;
        if (next === start) cycles.push([...trail, start].join(" → "));
        else if (next > start && !trail.includes(next)) {
          trail.push(next);
          walk(next);
          trail.pop();
        }
      }
    };
    walk(start);
  }
  return cycles;
}

describe("the import graph and its cycles, on planted files", () => {
  const root = mkdtempSync(path.join(tmpdir(), "import-cycles-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const plant = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  plant("src/a.ts", 'import type { B } from "./b.js";\nexport type A = B | 1;\n');
  plant("src/b.ts", 'export { c } from "./c.js";\nexport type B = import("./a.js").A;\n');
  plant("src/c.ts", 'import { d } from "./d/index.js";\nexport const c = d;\n');
  plant("src/d/index.ts", 'import * as fs from "node:fs";\nexport const d = () => import("../c.js");\n');
  plant("src/e.ts", 'import { c } from "./c.js";\nimport "../outside.js";\nexport const e = c;\n');
  plant("src/self.ts", 'export const self = 1;\nexport { self as again } from "./self.js";\n');
  plant("outside.ts", 'import "./src/e.js";\n');

  it("reads type-only, re-export and dynamic imports, a folder's index, nothing outside the folder", () => {
    expect(Object.fromEntries(importGraph(root, "src"))).toEqual({
      "src/a.ts": ["src/b.ts"],
      "src/b.ts": ["src/a.ts", "src/c.ts"],
      "src/c.ts": ["src/d/index.ts"],
      "src/d/index.ts": ["src/c.ts"],
      "src/e.ts": ["src/c.ts"],
      "src/self.ts": ["src/self.ts"],
    });
  });

  it("names each cycle once, from its first file", () => {
    expect(cyclesOf(importGraph(root, "src"))).toEqual([
      "src/a.ts → src/b.ts → src/a.ts",
      "src/c.ts → src/d/index.ts → src/c.ts",
      "src/self.ts → src/self.ts",
    ]);
    const ring = new Map([
      ["x", ["y", "z"]],
      ["y", ["z"]],
      ["z", ["x"]],
    ]);
    expect(cyclesOf(ring)).toEqual(["x → y → z → x", "x → z → x"]);
  });
});

it("src/ has no import cycle", () => {
  expect(cyclesOf(importGraph(repoRoot, "src"))).toEqual([]);
});
