// The README's first example compiles against this package (src/), so the first screen cannot rot (a broken copy
// must not); and pasted as it is into a module of a fresh shell (no API_KEY set), it runs to its end against the
// mock: a newcomer who copies it and runs `npm start` gets rates, a quote and a trade, not a 401. The only thing
// changed for the run is where MOCK_BASE_URL's address leads (a preload sends it to a mock on a free port, so the
// test does not need port 4010) and where the package name resolves (src/, as the tsc checks map it).
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOCK_BASE_URL } from "../../generated/client-meta.js";
import { PACKAGE_NAME } from "../../scripts/build/code-samples.js";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { deref, firstExample } from "../../src/openapi/index.js";
import { firstScreenExample } from "../support/readme.js";
import { jsonMedia, listSpecOperations, loadSpec, successKey } from "../support/spec.js";
import { repoRoot, scratchDir, tscCleanAndBroken } from "../support/tsc.js";

const run = promisify(execFile);

/** Sends requests for MOCK_BASE_URL's origin to the mock this test started; nothing else is touched. */
function redirectingPreload(from: string, to: string): string {
  return `const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const request = new Request(input, init);
  if (!request.url.startsWith(${JSON.stringify(from)})) return realFetch(request);
  return realFetch(new Request(${JSON.stringify(to)} + request.url.slice(${from.length}), request));
};
`;
}

/** The reference of Accept Quote's documented trade: what the example prints when it gets to the end. */
function acceptedTradeReference(): string {
  const spec = loadSpec();
  const accept = listSpecOperations(spec).find((op) => op.operationId === "acceptQuote");
  if (accept === undefined) throw new Error("no acceptQuote operation");
  const media = jsonMedia(deref(spec, accept.responses[successKey(accept)]));
  const example = firstExample(spec, media);
  if (!example.found) throw new Error("acceptQuote: no documented success example");
  return (example.value as { data: { reference: string } }).data.reference;
}

describe("compiling", () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>;
  beforeAll(async () => {
    scratch = await scratchDir("readme-");
  });
  afterAll(() => scratch?.remove());

  it("compiles the README's first-screen example, and a broken copy of it does not", async () => {
    const source = `${firstScreenExample()}\nexport {};\n`;
    const broken = source.replace('side: "SELL"', 'side: "HOLD"');
    const checked = await tscCleanAndBroken(scratch.dir, "readme", source, broken);
    expect(checked.clean, checked.all).toEqual([]);
    expect(checked.broken, checked.all).not.toEqual([]);
  });
});

describe("running against the mock", () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>;
  let mock: StartedMock;

  beforeAll(async () => {
    scratch = await scratchDir("readme-run-");
    mock = await startMock();
  });
  afterAll(async () => {
    await mock?.stop();
    await scratch?.remove();
  });

  async function writeProject(example: string): Promise<void> {
    const origin = new URL(MOCK_BASE_URL).origin;
    await writeFile(path.join(scratch.dir, "example.mts"), example);
    await writeFile(path.join(scratch.dir, "preload.mjs"), redirectingPreload(origin, new URL(mock.baseUrl).origin));
    const paths = { [PACKAGE_NAME]: [path.join(repoRoot, "src", "index.ts")] };
    await writeFile(path.join(scratch.dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { paths } }));
  }

  it("runs the README's first example as pasted against the mock, with no API_KEY in the environment", async () => {
    await writeProject(firstScreenExample());
    const env = { ...process.env };
    delete env.API_KEY;
    const tsx = path.join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs");
    const { stdout } = await run(process.execPath, ["--import", tsx, "--import", "./preload.mjs", "example.mts"], {
      cwd: scratch.dir,
      env,
    });
    const [reference, remaining] = stdout.trim().split(" ");
    expect(reference).toBe(acceptedTradeReference());
    expect(remaining).toMatch(/^\d+$/);
  });
});
