// The docs site: `npm run docs` builds it into site/ (after the Redoc page of generated/docs), offline;
// `tsx scripts/docs-site.ts --out <dir>` builds it elsewhere (the browser test builds it into a scratch folder).
// VitePress renders docs/ (guides, their samples from docs/samples/, search by its local minisearch index);
// before it runs, this script writes what docs/ does not keep in git: the TypeScript reference (TypeDoc with
// typedoc-plugin-markdown, one page per export of the package's entry points, into docs/typescript/) and the
// two Redoc pages (docs/public/api/: generated/docs/index.html as built; docs/public/control-api/: the control
// API's document, generated/sandbox-control.json, rendered the same way).
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Application } from "typedoc";
import { build } from "vitepress";
import { renderRedoc } from "./build/steps/50-docs.js";
import { GENERATED_DIR, ROOT, SITE_DIR } from "./lib/paths.js";

const DOCS_SRC = path.join(ROOT, "docs");

/** The package's entry points (package.json "exports", as tsup.config.ts builds them) by their source file. */
export const ENTRY_POINTS = [
  "index.ts",
  "types.ts",
  "contract/index.ts",
  "mock/index.ts",
  "sandbox/index.ts",
  "msw/index.ts",
];

async function typescriptReference(): Promise<void> {
  const out = path.join(DOCS_SRC, "typescript");
  await rm(out, { recursive: true, force: true });
  const app = await Application.bootstrapWithPlugins({
    entryPoints: ENTRY_POINTS.map((file) => path.join(ROOT, "src", file)),
    tsconfig: path.join(ROOT, "tsconfig.json"),
    plugin: ["typedoc-plugin-markdown", "typedoc-vitepress-theme"],
    out,
    docsRoot: DOCS_SRC,
    readme: "none",
    // Doc comments say "<ms>" and "{ … }": escaped, or Vue reads them as tags and bindings.
    sanitizeComments: true,
    // tsc checks the sources (npm run typecheck); TypeDoc only reads them.
    skipErrorChecking: true,
    excludePrivate: true,
    excludeInternal: true,
    logLevel: "Warn",
  } as Parameters<typeof Application.bootstrapWithPlugins>[0]);
  const project = await app.convert();
  if (!project) throw new Error("docs site: TypeDoc could not convert the entry points");
  await app.generateOutputs(project);
}

async function redocPages(): Promise<void> {
  const publicDir = path.join(DOCS_SRC, "public");
  await mkdir(path.join(publicDir, "control-api"), { recursive: true });
  await mkdir(path.join(publicDir, "api"), { recursive: true });
  await cp(path.join(GENERATED_DIR, "docs", "index.html"), path.join(publicDir, "api", "index.html"));
  const control = JSON.parse(await readFile(path.join(GENERATED_DIR, "sandbox-control.json"), "utf8"));
  const html = await renderRedoc(ROOT, control, "openapi-sandbox/");
  await writeFile(path.join(publicDir, "control-api", "index.html"), html);
}

/** Builds the site into `outDir`; resolves with the time it took in ms. */
async function buildSite(outDir: string): Promise<number> {
  const started = performance.now();
  await Promise.all([typescriptReference(), redocPages()]);
  await build(DOCS_SRC, {
    onAfterConfigResolve: (config) => {
      config.outDir = outDir;
    },
  });
  return performance.now() - started;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { out: { type: "string", default: SITE_DIR } } });
  const outDir = path.resolve(values.out);
  try {
    const ms = await buildSite(outDir);
    console.log(`docs site: ${outDir} in ${(ms / 1000).toFixed(1)} s`);
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  }
}
