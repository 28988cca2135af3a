// How ./msw fails when it cannot work, as a consumer meets it: the package built by its own tsup config
// (into a temporary folder, declarations left out) and installed in a fresh project outside this repo.
//   - require("…/msw") fails with an error that says ./msw is ESM only and how to import it, not with a bare
//     ERR_PACKAGE_PATH_NOT_EXPORTED;
//   - importing ./msw without msw fails with a MockUnavailableError naming what to install;
//   - with msw alone it loads and its handlers work, but createHttp (openapi-msw's) throws one that says what it
//     needs (openapi-msw, which supports msw 2 only);
//   - with both peers it loads.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/spec.js";

const run = promisify(execFile);
const PEERS = ["msw", "openapi-msw"];
let work: string;
let name: string;
/** The package's runtime dependencies: npm installs them beside it (./msw runs the contract validator, on ajv). */
let dependencies: string[];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "msw-entry-"));
  const manifest = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as {
    name: string;
    dependencies?: Record<string, string>;
  };
  name = manifest.name;
  dependencies = Object.keys(manifest.dependencies ?? {});
  const installed = path.join(work, "node_modules", ...name.split("/"));
  await mkdir(installed, { recursive: true });
  await run(
    process.execPath,
    [
      path.join(repoRoot, "node_modules", "tsup", "dist", "cli-default.js"),
      "--out-dir",
      path.join(installed, "dist"),
      "--no-dts",
    ],
    {
      cwd: repoRoot,
    },
  );
  await cp(path.join(repoRoot, "package.json"), path.join(installed, "package.json"));
  await cp(path.join(repoRoot, "generated", "openapi.json"), path.join(installed, "generated", "openapi.json"));
}, 120_000);
afterAll(() => rm(work, { recursive: true, force: true }));

/** Runs `code` (a .cjs or .mjs file's text) in a project that has only the given peers installed. */
async function runConsumer(
  file: string,
  code: string,
  peers: string[],
): Promise<{ code: number; stderr: string; stdout: string }> {
  const project = path.join(work, `project-${peers.join("+") || "none"}`);
  await mkdir(path.join(project, "node_modules"), { recursive: true });
  // A copy, not a link: the package resolves its peers from the project it is installed in.
  await cp(
    path.join(work, "node_modules", ...name.split("/")),
    path.join(project, "node_modules", ...name.split("/")),
    { recursive: true },
  );
  for (const peer of [...dependencies, ...peers]) {
    await rm(path.join(project, "node_modules", peer), { recursive: true, force: true });
    await symlink(path.join(repoRoot, "node_modules", peer), path.join(project, "node_modules", peer));
  }
  await writeFile(path.join(project, file), code);
  return run(process.execPath, [file], { cwd: project }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

const caught = (load: string) =>
  `try { ${load}; console.log("loaded"); } catch (error) { ` +
  "console.log(JSON.stringify({ name: error.name, code: error.code, message: error.message })); }";

describe("require() of ./msw", () => {
  it("fails saying ./msw is ESM only and how to import it", async () => {
    const { stdout } = await runConsumer("consumer.cjs", caught(`require("${name}/msw")`), PEERS);
    const error = JSON.parse(stdout) as { name: string; code: string; message: string };
    expect(error.code).toBe("ERR_REQUIRE_ESM");
    expect(error.message).toContain(`${name}/msw is an ES module only`);
    expect(error.message).toContain(`import { createHandlers, createHttp } from "${name}/msw"`);
    expect(error.message).toContain(`await import("${name}/msw")`);
  });

  it("works as a dynamic import from CommonJS, as the error says", async () => {
    const { stdout } = await runConsumer(
      "dynamic.cjs",
      `import("${name}/msw").then((m) => console.log(typeof m.createHandlers, m.createHandlers().length > 0));`,
      PEERS,
    );
    expect(stdout.trim()).toBe("function true");
  });
});

describe("import of ./msw without its optional peers", () => {
  const load = (peers: string[]) => runConsumer("consumer.mjs", caught(`await import("${name}/msw")`), peers);

  it("fails without either with a MockUnavailableError naming msw, and openapi-msw for createHttp", async () => {
    const error = JSON.parse((await load([])).stdout) as { name: string; message: string };
    expect(error.name).toBe("MockUnavailableError");
    expect(error.message).toMatch(/msw \(2 or 3\).*not installed/);
    expect(error.message).toContain("npm install --save-dev msw (");
    expect(error.message).toContain("createHttp needs openapi-msw as well, which supports msw 2 only");
    expect(error.message).toContain("npm install --save-dev msw@2 openapi-msw");
  });

  it("fails without msw, openapi-msw installed, asking for msw 2 (the one openapi-msw supports)", async () => {
    const error = JSON.parse((await load(["openapi-msw"])).stdout) as { name: string; message: string };
    expect(error.name).toBe("MockUnavailableError");
    expect(error.message).toContain("openapi-msw is installed and supports msw 2 only");
    expect(error.message).toMatch(/npm install --save-dev msw@2$/);
  });

  it("loads with msw alone: the handlers work, createHttp says what it needs", async () => {
    const code =
      `const { createHandlers, createSandboxHandlers, createHttp } = await import("${name}/msw");\n` +
      `const { createSandbox } = await import("${name}/sandbox");\n` +
      "console.log(JSON.stringify([createHandlers().length > 0, createSandboxHandlers(createSandbox()).length]));\n" +
      caught("createHttp()");
    const { stdout } = await runConsumer("msw-alone.mjs", code, ["msw"]);
    const [handlers, error] = stdout.trim().split("\n");
    expect(JSON.parse(handlers!)).toEqual([true, 4]);
    const { name: errorName, message } = JSON.parse(error!) as { name: string; message: string };
    expect(errorName).toBe("MockUnavailableError");
    expect(message).toContain("createHttp builds on openapi-msw");
    expect(message).toContain("openapi-msw 2 supports msw 2 only (its peer range: msw ^2.10.5)");
    expect(message).toContain("npm install --save-dev openapi-msw");
    expect(message).toContain("with msw 3, write your own handlers with msw's `http`");
  });

  it("loads with both", async () => {
    expect((await load(PEERS)).stdout.trim()).toBe("loaded");
  });
});
