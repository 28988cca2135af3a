// The docs site's code samples: every sample on a guide is a file of docs/samples/ included with VitePress's
// snippet import (`<<< @/samples/x`), never a block written in the page. The TypeScript ones compile (strict, with
// each TypeScript of the consumer matrix: 5.9 and 7) against this package (src/, as a consumer imports it; a broken
// copy must not) and run to their end: a sample that stops compiling or working fails here.
import { execFile } from "node:child_process";
import { copyFile, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_NAME } from "../../scripts/build/code-samples.js";
import { ensureTypeScript } from "../consumer/toolchain.js";
import { TYPESCRIPT_VERSIONS } from "../consumer/matrix.js";
import { repoRoot, successExample } from "../support/spec.js";
import { packagePaths, scratchDir, tscCleanAndBroken } from "../support/tsc.js";

const run = promisify(execFile);
const DOCS = path.join(repoRoot, "docs");
const SAMPLES = path.join(DOCS, "samples");
/** The package's entry points the samples import, besides its root. */
const SUBPATHS = ["mock", "msw", "sandbox"];

/** The site's hand-written pages (docs/typescript/ is TypeDoc's output), relative to docs/. */
async function pages(): Promise<string[]> {
  const entries = await readdir(DOCS, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => path.relative(DOCS, path.join(entry.parentPath, entry.name)))
    .filter((page) => !page.startsWith(`typescript${path.sep}`) && !page.startsWith("public"));
}

/** The samples a page includes, by file name. */
const includes = (markdown: string) => [...markdown.matchAll(/^<<< @\/samples\/(\S+)$/gm)].map((m) => m[1]!);

const samples = (await readdir(SAMPLES)).sort();
const typescriptSamples = samples.filter((name) => name.endsWith(".ts"));

/** What each TypeScript sample prints when it runs to its end (its last line, JSON). */
const OUTCOMES: Record<string, (printed: any) => void | Promise<void>> = {
  "first-call.ts": (printed) => {
    // The mock answers the documented example: its rates, each of them.
    expect(printed.rates).toBe((successExample("getFiatRates").data as unknown[]).length);
    expect(printed.expired).toBe(false);
  },
  // The clock stands at its start (2026-01-01T00:00:00Z): the quote expires 30 s after it.
  "sandbox-in-process.ts": (printed) => {
    expect(printed).toEqual({ usdt: 100, expiryDate: "2026-01-01T00:00:30.000Z" });
  },
  "sandbox-msw.ts": async (printed) => {
    // The sandbox's identity header names the package's version.
    const { version } = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
    expect(printed).toEqual([200, version]);
  },
  "verify-validator.ts": (printed) => {
    expect(printed).toEqual({ ok: true, drifted: ["/data/totalDollarVolume"], throughTheClient: 200 });
  },
  "webhooks-in-process.ts": (printed) => {
    // The callback verifies, is down once, takes the retry after the clock moves 1 min.
    expect(printed).toMatchObject({
      about: true,
      status: "delivered",
      attempts: [
        ["2026-01-01T00:00:00.000Z", 503],
        ["2026-01-01T00:01:00.000Z", 200],
      ],
    });
    expect(printed.taken.map((body: string) => JSON.parse(body) as unknown)).toEqual([
      expect.objectContaining({ type: "DEPOSIT", status: "CONFIRMED", amount: 25, currency: "USDT" }),
    ]);
  },
};

/**
 * Samples that need more than a run to their end (a server beside them, a receiver they post to): the test file
 * that runs each, by sample name. That file must name the sample.
 */
const RUN_BY: Record<string, string> = {
  // A vitest globalSetup and a vitest test file: the consumer's own vitest suite runs both, on every Node.
  "client-vitest-global-setup.ts": "test/consumer/consumer.test.ts",
  "client-msw-test.ts": "test/consumer/consumer.test.ts",
  // A flow against a running `api-contract sandbox`, and a vitest fixture on one shared sandbox.
  "sandbox-flow.ts": "test/docs/sandbox-guide.test.ts",
  "sandbox-fixture.ts": "test/docs/sandbox-parallel-ci.test.ts",
  // A request handler and the server that serves it: the test runs the handler on a server, posting to it.
  "webhooks-receiver.ts": "test/webhooks/guide-receiver.test.ts",
  "webhooks-server.ts": "test/webhooks/guide-receiver.test.ts",
};

/** Samples that import other samples (`./x.js`): each is compiled with those beside it, as its page puts them. */
const BESIDE: Record<string, string[]> = { "webhooks-server.ts": ["webhooks-receiver.ts"] };

describe("the site's pages", () => {
  it("include their code from docs/samples/, every sample on a page, and write no code block themselves", async () => {
    const found = await pages();
    expect(found).toContain(path.join("guide", "sandbox.md"));
    const included = new Set<string>();
    for (const page of found) {
      const markdown = await readFile(path.join(DOCS, page), "utf8");
      expect(markdown, `${page}: a fenced code block`).not.toMatch(/^\s*(```|~~~)/m);
      for (const name of includes(markdown)) {
        expect(samples, `${page} includes ${name}`).toContain(name);
        included.add(name);
      }
    }
    expect(samples.filter((name) => !included.has(name))).toEqual([]);
  });

  it("has an expected outcome for every TypeScript sample, or a test that runs it", async () => {
    expect(typescriptSamples.length).toBeGreaterThan(0);
    expect([...Object.keys(OUTCOMES), ...Object.keys(RUN_BY)].sort()).toEqual(typescriptSamples);
    for (const [name, testFile] of Object.entries(RUN_BY)) {
      expect(await readFile(path.join(repoRoot, testFile), "utf8"), `${testFile} runs ${name}`).toContain(name);
    }
  });
});

describe.each(typescriptSamples)("the sample %s", (name) => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>;
  let source: string;
  beforeAll(async () => {
    scratch = await scratchDir("site-sample-");
    source = await readFile(path.join(SAMPLES, name), "utf8");
  });
  afterAll(() => scratch?.remove());

  it.each(TYPESCRIPT_VERSIONS)(
    "compiles (strict) with TypeScript %s against the package, and a copy importing a name it lacks does not",
    async (version) => {
      // The first import from the package or from a sample beside it: the broken copy asks it for a name it lacks.
      const imported = new RegExp(`import \\{ (\\w+)([^}]*\\}) from "(${PACKAGE_NAME}|\\./)`);
      expect(source).toMatch(imported);
      const broken = source.replace(
        imported,
        (_, first: string, rest: string, from: string) => `import { ${first}X${rest} from "${from}`,
      );
      for (const other of BESIDE[name] ?? []) await copyFile(path.join(SAMPLES, other), path.join(scratch.dir, other));
      const { bin } = await ensureTypeScript(version);
      const stem = `${path.basename(name, ".ts")}-${version}`;
      const checked = await tscCleanAndBroken(scratch.dir, stem, source, broken, SUBPATHS, bin);
      expect(checked.clean, checked.all).toEqual([]);
      expect(checked.broken, checked.all).not.toEqual([]);
    },
  );

  // A sample of RUN_BY is run by its own test instead.
  if (name in OUTCOMES) {
    it("runs to its end and prints what the page says", async () => {
      await copyFile(path.join(SAMPLES, name), path.join(scratch.dir, name));
      // tsx resolves the package's name through these paths, to src/, as tsc does above.
      const compilerOptions = { paths: packagePaths(...SUBPATHS) };
      await writeFile(path.join(scratch.dir, "tsconfig.json"), JSON.stringify({ compilerOptions }));
      const tsx = path.join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs");
      const { stdout } = await run(process.execPath, ["--import", tsx, name], { cwd: scratch.dir });
      await OUTCOMES[name]!(JSON.parse(stdout.trim().split("\n").at(-1)!));
    });
  }
});
