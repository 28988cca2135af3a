// generated/ as users meet it: check:generated catches a stale or foreign file; a build that fails leaves
// generated/ as it was, and npm start never serves a half-built contract (it rebuilds by content).
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../src/mock/processes.js";
import { type FixtureRepo, fixtureRepo } from "../support/fixture-repo.js";
import { API_KEY_HEADER, BASE_PATH } from "../support/spec.js";

async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await readdir(path.join(dir, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) await walk(child);
      else out.set(child, await readFile(path.join(dir, child), "base64"));
    }
  };
  await walk("");
  return out;
}

// Each test runs the build's scripts in child processes: 25–35 s on a busy core, over 120 s once on a noisy host.
const BUILD_TIMEOUT_MS = 300_000;

describe("npm run check:generated", () => {
  let repo: FixtureRepo;
  beforeAll(async () => {
    repo = await fixtureRepo();
  });
  afterAll(() => repo?.remove());

  it(
    "passes on an untouched copy, names a file changed by one byte and a file no build writes, leaves no build behind",
    async () => {
      // Its own temporary folder, to see that neither outcome leaves its fresh build behind.
      const scratch = path.join(repo.dir, "scratch-tmp");
      await mkdir(scratch);
      const leftBuilds = async () => (await readdir(scratch)).filter((name) => name.startsWith("generated-check-"));
      const clean = await repo.npm("check:generated", [], { env: { TMPDIR: scratch } });
      expect(clean.code, clean.output).toBe(0);
      const enums = await repo.read("generated/enums.ts");
      await repo.write("generated/enums.ts", enums.replace('"BUY"', '"BUZ"'));
      await repo.write("generated/notes.md", "hand-written\n");
      const broken = await repo.npm("check:generated", [], { env: { TMPDIR: scratch } });
      expect(broken.code).not.toBe(0);
      expect(broken.output).toContain("generated/enums.ts: stale");
      expect(broken.output).toContain("generated/notes.md: not produced by the build");
      expect(await leftBuilds()).toEqual([]);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    "names a guide whose table differs from what the build writes (the register, the control routes); build mends both",
    async () => {
      const [register, sandbox] = await Promise.all([
        repo.read("docs/guide/register.md"),
        repo.read("docs/guide/sandbox.md"),
      ]);
      await repo.edit("docs/guide/register.md", "| `quotes.sides` | Quotes |", "| `quotes.sides` | Trades |");
      await repo.edit("docs/guide/sandbox.md", "| `GET /_sandbox/clock` | Read the clock |\n", "");
      // The README holds no generated table: neither command reads it, nor needs markers in it.
      const readme = "# A README without markers\n";
      await repo.write("README.md", readme);
      const drifted = await repo.npm("check:generated");
      expect(drifted.code).not.toBe(0);
      expect(drifted.output).toContain(
        "docs/guide/register.md: the register of choices differs from src/sandbox/choices.ts",
      );
      expect(drifted.output).toContain(
        "docs/guide/sandbox.md: the control API's routes differ from generated/sandbox-control.json",
      );
      expect((await repo.npm("build")).code).toBe(0);
      expect(await repo.read("docs/guide/register.md")).toBe(register);
      expect(await repo.read("docs/guide/sandbox.md")).toBe(sandbox);
      expect(await repo.read("README.md")).toBe(readme);
      expect((await repo.npm("check:generated")).code).toBe(0);
    },
    BUILD_TIMEOUT_MS,
  );
});

describe("a build that fails", () => {
  let repo: FixtureRepo;
  beforeAll(async () => {
    repo = await fixtureRepo();
    // A newcomer adds a required field to Quote without updating its example.
    await repo.edit(
      "openapi/components/schemas/Quote.yaml",
      /\n {2}- expiresIn\n/,
      "\n  - expiresIn\n  - settlementNote\n",
    );
    await repo.edit(
      "openapi/components/schemas/Quote.yaml",
      /\nproperties:\n/,
      "\nproperties:\n  settlementNote:\n    type: string\n    description: A note.\n",
    );
  });
  afterAll(() => repo?.remove());

  it(
    "leaves generated/ byte for byte as it was, and names the example's source file",
    async () => {
      const before = await snapshot(path.join(repo.dir, "generated"));
      const run = await repo.npm("build");
      expect(run.code).not.toBe(0);
      expect(run.output).toMatch(/openapi\/components\/examples\/Quote\.yaml:\d+/);
      expect(run.output).toContain("generated/ is unchanged");
      expect(await snapshot(path.join(repo.dir, "generated"))).toEqual(before);
      expect((await readdir(repo.dir)).filter((name) => name.startsWith("generated."))).toEqual([]);
    },
    BUILD_TIMEOUT_MS,
  );

  it("keeps npm start from serving: it fails, twice, and serves the contract once the example is fixed", async () => {
    for (const attempt of [1, 2]) {
      const run = await repo.npm("start", ["--no-docs", "--quiet", "--port", String(await findFreePort())]);
      expect(run.code, `attempt ${attempt}: ${run.output}`).not.toBe(0);
      expect(run.output).toContain("nothing is served");
    }
    await repo.edit(
      "openapi/components/examples/Quote.yaml",
      /\n {4}expiresIn: (\d+)\n/,
      "\n    expiresIn: $1\n    settlementNote: none\n",
    );
    const port = await findFreePort();
    const child = spawn("npm", ["run", "--silent", "start", "--", "--no-docs", "--quiet", "--port", String(port)], {
      cwd: repo.dir,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    // Resolves once the mock says it serves (its "Ctrl-C" line) or the process ends, whichever comes first.
    const servingOrEnded = new Promise<void>((resolve) => {
      const read = (chunk: Buffer) => {
        output += chunk;
        if (output.includes("Ctrl-C")) resolve();
      };
      child.stdout.on("data", read);
      child.stderr.on("data", read);
      child.once("exit", () => resolve());
    });
    try {
      await servingOrEnded;
      expect(child.exitCode, output).toBe(null);
      expect(output).toContain("rebuilding generated/");
      const response = await fetch(`http://127.0.0.1:${port}${BASE_PATH}/trades/quote`, {
        method: "POST",
        headers: { "content-type": "application/json", [API_KEY_HEADER]: "k" },
        body: "{}",
      });
      expect(response.status, output).toBe(200);
      expect(((await response.json()) as { data: Record<string, unknown> }).data.settlementNote).toBe("none");
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const ended = new Promise((resolve) => child.once("exit", resolve));
        process.kill(-child.pid!, "SIGTERM");
        await ended;
      }
    }
  }, 180_000);
});
