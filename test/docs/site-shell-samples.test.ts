// The docs site's samples that are not TypeScript (shell lines and a GitHub Actions step), checked and run as far as
// a test can without the registry's copy of the package or a real staging: `npx api-contract …` is this
// repository's command from source (an `npx` first on PATH), 4010 and 4020 a free port.
//   - npm install lines (install.sh, client-install.sh, client-install-dev.sh): this package and only optional peers
//     package.json declares, with flags npm reads as meant; what each comment says needs no peer imports none (the
//     entry's module graph, as esbuild bundles it from the source tsup builds it from), what it says needs one does.
//   - `npx api-contract` lines: every flag one that command's --help prints, a value after each that takes one, the
//     environment variables set ones the help names; the sandbox's synopsis lists every flag with its defaults.
//   - curl lines run against a mock (mock.sh, mock-curl.sh: each body the contract's example the request picks) and a
//     sandbox (sandbox-control.sh: the account and the clock as its comment says); the sandbox's synopsis is run with
//     every flag; verify-sandbox.sh runs as printed and ends as its comment says; verify-deployment.sh and the CI
//     step (client-verify-ci.yml, a list of steps) run against the mock in place of staging and write the report the
//     next step uploads.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { PRISM_ENGINE_PACKAGE, type StartedMock, startMock } from "../../src/mock/index.js";
import { CONTROL_PREFIX } from "../../src/sandbox/control.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { closedPort } from "../support/deployments.js";
import { docsSample } from "../support/docs-samples.js";
import {
  BASE_PATH,
  jsonMedia,
  listSpecOperations,
  loadSpec,
  mediaExamples,
  repoRoot,
  successKey,
} from "../support/spec.js";

interface PackageJson {
  name: string;
  exports: Record<string, string | { import?: { default?: string } }>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
}
const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as PackageJson;
const PEERS = Object.keys(pkg.peerDependencies);

/** The samples this file checks; each other one that is not TypeScript, with the test file that checks it. */
const CHECKED_HERE = [
  "client-install-dev.sh",
  "client-install.sh",
  "client-verify-ci.yml",
  "install.sh",
  "mock-curl.sh",
  "mock.sh",
  "sandbox-control.sh",
  "sandbox-http.sh",
  "verify-deployment.sh",
  "verify-sandbox.sh",
];
const CHECKED_BY: Record<string, string> = {
  "client-ci-recipe.sh": "test/cli/ci-recipe.test.ts",
  "verify-mock-run.txt": "test/cli/verify-exit-codes.test.ts",
  "verify-report.markdown": "test/verify/flows.test.ts",
  "webhooks-outbox-entry.json": "test/docs/webhooks-guide.test.ts",
  "webhooks-sandbox-flow.mjs": "test/docs/webhooks-guide.test.ts",
  "webhooks-sandbox-receiver.mjs": "test/docs/webhooks-guide.test.ts",
};

it("checks every sample of the site that is not TypeScript: here, or in the test file named for it", async () => {
  const samples = (await readdir(path.join(repoRoot, "docs", "samples"))).filter((name) => !name.endsWith(".ts"));
  expect([...CHECKED_HERE, ...Object.keys(CHECKED_BY)].sort()).toEqual(samples.sort());
  for (const [name, testFile] of Object.entries(CHECKED_BY))
    expect(await readFile(path.join(repoRoot, testFile), "utf8"), `${testFile} reads ${name}`).toContain(`"${name}"`);
});

// ---- Processes: `api-contract` from source, and the `npx` the samples call it through.

/** `api-contract` from source in one process (node with tsx's loader), so a SIGTERM reaches the command itself. */
const API_CONTRACT = [
  process.execPath,
  "--import",
  path.join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs"),
  path.join(repoRoot, "src", "cli.ts"),
];

interface Ran {
  code: number | null;
  stdout: string;
  output: string;
}

/** Processes started and not yet ended: each leads a process group of its own, killed whole if left running. */
const running = new Set<ChildProcess>();
let scratch: string;
let PATH_WITH_NPX: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "api-contract-shell-samples-"));
  const bin = path.join(scratch, "bin");
  await mkdir(bin);
  const command = API_CONTRACT.map((part) => `'${part}'`).join(" ");
  const npx = `#!/bin/sh\n[ "$1" = api-contract ] || { echo "npx $1: not in this test" >&2; exit 127; }\nshift\n`;
  await writeFile(path.join(bin, "npx"), `${npx}exec ${command} "$@"\n`);
  await chmod(path.join(bin, "npx"), 0o755);
  PATH_WITH_NPX = `${bin}${path.delimiter}${process.env.PATH}`;
});
afterAll(async () => {
  for (const child of running) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // the group has ended meanwhile
    }
  }
  await rm(scratch, { recursive: true, force: true });
});

/** Starts `command args` with `npx` on PATH; `exited` once it has ended and its output is closed. */
function start(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const child = spawn(command, args, {
    cwd: options.cwd ?? scratch,
    env: { ...process.env, PATH: PATH_WITH_NPX, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running.add(child);
  let stdout = "";
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  const exited = new Promise<Ran>((resolve) =>
    child.on("close", (code) => {
      running.delete(child);
      resolve({ code, stdout, output });
    }),
  );
  return { child, exited };
}

const run = (command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  start(command, args, options).exited;

/** A fresh folder to run a sample in. */
const folder = (name: string) => mkdtemp(path.join(scratch, `${name}-`));

// ---- Reading the samples.

/** A shell sample's commands: continued lines joined, comments (whole lines and `  # …` after one) left out. */
const commandsOf = (script: string): string[] =>
  script
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.replace(/(^|\s)#.*$/, "").trim())
    .filter(Boolean);

/** A line's comment (after `#`), or "". */
const commentOf = (line: string) => /(?:^|\s)#\s*(.*)$/.exec(line)?.[1] ?? "";

/** Each `npx api-contract …` line of a sample, as a command. */
const apiContractLines = (sample: string) => commandsOf(docsSample(sample)).filter((line) => line.includes("npx "));

// ---- What `api-contract <command> --help` says.

interface Usage {
  text: string;
  /** Each option, and whether it takes a value. */
  options: Map<string, boolean>;
  /** Whether it takes an argument that is not an option (wait's <url>). */
  positional: boolean;
  /** An option's default, as the help says it ("default 4020"). */
  defaultOf(option: string): string | undefined;
}

const usages = new Map<string, Promise<Usage>>();
function usage(command: string): Promise<Usage> {
  let found = usages.get(command);
  if (!found) {
    found = run(API_CONTRACT[0]!, [...API_CONTRACT.slice(1), command, "--help"]).then(({ code, stdout, output }) => {
      expect(code, output).toBe(0);
      const options = new Map<string, boolean>();
      for (const match of stdout.matchAll(/^\s+(--[a-z][a-z-]*)( <\S+>)?(?:\s|$)/gm))
        options.set(match[1]!, match[2] !== undefined);
      return {
        text: stdout,
        options,
        positional: /^\s+<\w+>\s/m.test(stdout),
        defaultOf: (option: string) =>
          new RegExp(`^\\s+${option} <\\S+>\\s+default ([^\\s;,)]+)`, "m").exec(stdout)?.[1],
      };
    });
    usages.set(command, found);
  }
  return found;
}

interface CommandLine {
  /** The variables set before the command (`NAME=value npx …`). */
  env: Record<string, string>;
  command: string;
  /** Each option given, with its value (undefined for one that takes none). */
  options: Array<[string, string | undefined]>;
  positional: string[];
}

/** An `npx api-contract <command> …` line as the command reads it (a synopsis's brackets left out). */
async function commandLine(line: string): Promise<CommandLine> {
  const tokens = line.replace(/[[\]]/g, " ").replace(/&$/, "").trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(tokens[0]!)) {
    const [name, ...value] = tokens.shift()!.split("=");
    env[name!] = value.join("=");
  }
  expect(tokens.slice(0, 2), line).toEqual(["npx", "api-contract"]);
  const command = tokens[2]!;
  const { options } = await usage(command);
  const given: CommandLine = { env, command, options: [], positional: [] };
  for (let i = 3; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!token.startsWith("--")) given.positional.push(token);
    else if (options.get(token)) given.options.push([token, tokens[++i]]);
    else given.options.push([token, undefined]);
  }
  return given;
}

/** Checks a command line against its command's --help: its options, their values, its variables. */
async function expectKnownToItsCommand(sample: string, line: string): Promise<CommandLine> {
  const given = await commandLine(line);
  const help = await usage(given.command);
  for (const [option, value] of given.options) {
    expect([...help.options.keys()], `${sample}: ${option} of api-contract ${given.command}`).toContain(option);
    if (help.options.get(option)) expect(value, `${sample}: ${option}'s value`).toMatch(/^(?!--)\S+$/);
  }
  expect(given.positional.length, `${sample}: arguments that are not options`).toBeLessThanOrEqual(
    help.positional ? 1 : 0,
  );
  for (const name of Object.keys(given.env))
    expect(help.text, `${sample}: ${name} is a variable api-contract ${given.command} reads`).toMatch(
      new RegExp(`\\b${name}\\b`),
    );
  return given;
}

const CLI_SAMPLES = ["mock.sh", "sandbox-http.sh", "verify-deployment.sh", "verify-sandbox.sh"];

describe("the `npx api-contract` lines", () => {
  it.each(CLI_SAMPLES)(
    "of %s give each command only options its --help prints, values where they take one",
    async (sample) => {
      const lines = apiContractLines(sample);
      expect(lines.length, sample).toBeGreaterThan(0);
      for (const line of lines) await expectKnownToItsCommand(sample, line);
    },
  );

  it("of sandbox-http.sh are the sandbox's synopsis: every option of its --help, the defaults it says", async () => {
    const [line, ...others] = apiContractLines("sandbox-http.sh");
    expect(others).toEqual([]);
    const given = await commandLine(line!);
    const help = await usage("sandbox");
    expect(given.options.map(([option]) => option).sort()).toEqual([...help.options.keys()].sort());
    for (const [option, value] of given.options)
      if (value !== undefined && !value.startsWith("<")) expect(value, option).toBe(help.defaultOf(option));
  });
});

// ---- npm install lines.

/** What each flag the install lines use means to npm: the setting `npm config get` shows it sets. */
const NPM_FLAGS: Record<string, string> = { "-D": "save-dev" };

/**
 * What each install sample's comment says: the entry points (package.json exports) that need exactly these peers
 * (none: no peer); `only`: no other entry point needs them.
 */
const PEER_CLAIMS: Array<{ sample: string; says: string; needs: Record<string, string[]>; only?: boolean }> = [
  {
    sample: "install.sh",
    says: "the mock's optional peer (Prism's engine",
    needs: { "./mock": [PRISM_ENGINE_PACKAGE] },
  },
  { sample: "install.sh", says: "the sandbox needs no peer", needs: { "./sandbox": [] } },
  {
    sample: "client-install.sh",
    says: "The client, its types, the contract validator and the sandbox: no peer needed.",
    needs: { ".": [], "./types": [], "./contract": [], "./sandbox": [] },
  },
  {
    sample: "client-install-dev.sh",
    says: "the peer only for the mock",
    needs: { "./mock": [PRISM_ENGINE_PACKAGE] },
    only: true,
  },
];
const INSTALL_SAMPLES = [...new Set(PEER_CLAIMS.map((claim) => claim.sample))];

/** The package's entry points with a JavaScript entry, each with the source tsup builds it from. */
function entrySources(): Record<string, string> {
  const tsup = readFileSync(path.join(repoRoot, "tsup.config.ts"), "utf8");
  const sources = new Map([...tsup.matchAll(/\b(\w+): "(src\/[^"]+\.ts)"/g)].map((m) => [m[1]!, m[2]!]));
  const entries: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const built = typeof target === "string" ? target : target.import?.default;
    const name = /^\.\/dist\/(\w+)\.js$/.exec(built ?? "")?.[1];
    if (name === undefined) continue;
    expect(sources.get(name), `tsup.config.ts builds dist/${name}.js`).toBeDefined();
    entries[subpath] = sources.get(name)!;
  }
  return entries;
}

/**
 * The peers an entry's module graph needs: those a module of it imports (esbuild's graph: dynamic imports too,
 * types-only ones dropped) or names as a string (src/mock/engine.ts requires Prism's engine by a constant's name).
 */
async function peersOf(source: string): Promise<string[]> {
  const { metafile } = await esbuild.build({
    entryPoints: [path.join(repoRoot, source)],
    absWorkingDir: repoRoot,
    bundle: true,
    write: false,
    metafile: true,
    outdir: "out",
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  });
  const needed = new Set<string>();
  const isPeer = (specifier: string) => PEERS.find((peer) => specifier === peer || specifier.startsWith(`${peer}/`));
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const { path: imported, external } of input.imports) if (external && isPeer(imported)) needed.add(imported);
    if (!/\.[cm]?[jt]s$/.test(file)) continue; // package.json, the generated JSON: data, not code
    const text = readFileSync(path.join(repoRoot, file), "utf8");
    for (const peer of PEERS) if (text.includes(`"${peer}"`) || text.includes(`"${peer}/`)) needed.add(peer);
  }
  return [...needed].sort();
}

describe.each(INSTALL_SAMPLES)("the install sample %s", (sample) => {
  const lines = commandsOf(docsSample(sample));
  const tokens = lines.map((line) => line.split(/\s+/));

  it("installs this package, and only optional peers package.json declares", () => {
    expect(tokens.length, sample).toBe(1);
    const [npm, install, ...args] = tokens[0]!;
    expect([npm, install]).toEqual(["npm", "install"]);
    const [first, ...peers] = args.filter((arg) => !arg.startsWith("-"));
    expect(first).toBe(pkg.name);
    for (const peer of peers) {
      expect(PEERS, `${sample}: ${peer}`).toContain(peer);
      expect(pkg.peerDependenciesMeta[peer]?.optional, `${sample}: ${peer} is optional`).toBe(true);
    }
    // The peers it installs are those its comment says the entries need.
    const claimed = PEER_CLAIMS.filter((claim) => claim.sample === sample).flatMap((claim) =>
      Object.values(claim.needs).flat(),
    );
    expect(peers.sort()).toEqual([...new Set(claimed)].sort());
  });

  it("uses flags npm reads as meant", async () => {
    const flags = tokens[0]!.filter((arg) => arg.startsWith("-"));
    for (const flag of flags) {
      expect(Object.keys(NPM_FLAGS), `${sample}: what ${flag} means`).toContain(flag);
      // npm's own settings only: none inherited from an npm running this test.
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));
      const child = spawn("npm", ["config", "get", NPM_FLAGS[flag]!, flag], { cwd: scratch, env, stdio: "pipe" });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect({ code, output: output.trim() }, `npm config get ${NPM_FLAGS[flag]} ${flag}`).toEqual({
        code: 0,
        output: "true",
      });
    }
  });

  it.each(PEER_CLAIMS.filter((claim) => claim.sample === sample))(
    "says what the entries' module graphs show: $says",
    async ({ says, needs, only }) => {
      expect(docsSample(sample)).toContain(says);
      const sources = entrySources();
      for (const [entry, peers] of Object.entries(needs)) {
        expect(sources[entry], `${entry} is an entry point`).toBeDefined();
        expect(await peersOf(sources[entry]!), `${entry}: the peers it needs`).toEqual(peers);
      }
      if (!only) return;
      const claimed = new Set(Object.values(needs).flat());
      for (const [entry, source] of Object.entries(sources)) {
        if (entry in needs) continue;
        const peers = await peersOf(source);
        expect(
          peers.filter((peer) => claimed.has(peer)),
          `${entry} needs none of ${[...claimed]}`,
        ).toEqual([]);
      }
    },
  );
});

// ---- The mock: mock.sh and mock-curl.sh, and verify against it in place of staging.

/** A curl line's request. */
function curlOf(line: string) {
  const headers = Object.fromEntries(
    [...line.matchAll(/-H '([^:']+):\s*([^']*)'/g)].map((m) => [m[1]!.toLowerCase(), m[2]!] as const),
  );
  const url = new URL(/\bhttp:\/\/\S+/.exec(line)![0]);
  return { url, headers, withHead: /\s-i\s/.test(line), method: /\s-X\s+(\w+)/.exec(line)?.[1] ?? "GET" };
}

/** The contract's answer to a request of the mock: the status and the example its `Prefer` header picks. */
function documentedAnswer(request: ReturnType<typeof curlOf>) {
  const route = request.url.pathname.slice(BASE_PATH.length);
  const operation = listSpecOperations().find((op) => op.method === request.method && op.path === route);
  expect(operation, `${request.method} ${route}: an operation of the contract`).toBeDefined();
  const prefer = new URLSearchParams((request.headers.prefer ?? "").replace(/\s*[,;]\s*/g, "&"));
  const status = prefer.get("code") ?? successKey(operation!);
  const examples = mediaExamples(loadSpec(), jsonMedia(operation!.responses[status]));
  const name = prefer.get("example");
  const example = name === null ? examples[0] : examples.find((named) => named.name === name);
  expect(example, `${request.method} ${route}: ${status}'s example ${name ?? ""}`).toBeDefined();
  return { status: Number(status), body: example!.value };
}

/** Runs a curl line of a sample against the mock, its port in place of the sample's; its status and body. */
async function curlTheMock(line: string, samplePort: string, mock: StartedMock) {
  const { code, stdout, output } = await run("bash", ["-c", line.replaceAll(`:${samplePort}/`, `:${mock.port}/`)]);
  expect(code, output).toBe(0);
  if (!curlOf(line).withHead) return { status: undefined, body: JSON.parse(stdout) as unknown };
  const [head, body] = stdout.split("\r\n\r\n");
  return { status: Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head!)?.[1]), body: JSON.parse(body!) as unknown };
}

describe("against the mock", () => {
  let mock: StartedMock;
  beforeAll(async () => {
    const curl = await run("bash", ["-c", "command -v curl"]);
    expect(curl.code, "curl is on PATH: the samples call it").toBe(0);
    mock = await startMock({ port: 0 });
  });
  afterAll(() => mock?.stop());

  it.each(["mock-curl.sh", "mock.sh"])("%s's curl lines get the documented answer each asks for", async (sample) => {
    const lines = commandsOf(docsSample(sample)).filter((line) => line.startsWith("curl "));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const { url } = curlOf(line);
      expect(url.hostname, line).toBe("127.0.0.1");
      const expected = documentedAnswer(curlOf(line));
      const answer = await curlTheMock(line, url.port, mock);
      expect(answer.body, line).toEqual(expected.body);
      if (answer.status !== undefined) expect(answer.status, line).toBe(expected.status);
    }
    // Nothing else in it but the mock's own command.
    const others = commandsOf(docsSample(sample)).filter((line) => !line.startsWith("curl "));
    expect(others).toEqual(sample === "mock.sh" ? ["npx api-contract mock"] : []);
  });

  it("mock.sh's mock listens where its comment says, and --port 0 picks a free port, as the help says", async () => {
    const comment = docsSample("mock.sh").split("\n")[0]!;
    const url = new URL(/http:\/\/\S+\/v1/.exec(comment)![0]);
    const help = await usage("mock");
    expect(url.port).toBe(help.defaultOf("--port"));
    expect(url.hostname).toBe(help.defaultOf("--host"));
    expect(url.pathname).toBe(BASE_PATH);
    expect(comment).toContain("(--port 0 picks a free port)");
    expect(help.text).toMatch(/--port <n>\s+default \d+ \(0: a free port\)/);
    // Every curl line of both samples calls the mock at that port.
    for (const sample of ["mock.sh", "mock-curl.sh"])
      for (const line of commandsOf(docsSample(sample)).filter((command) => command.startsWith("curl ")))
        expect(curlOf(line).url.origin, `${sample}: ${line}`).toBe(url.origin);
  });

  it("verify-deployment.sh runs against the mock for staging, the key and secret from the environment", async () => {
    const sample = docsSample("verify-deployment.sh");
    const [line, ...others] = apiContractLines("verify-deployment.sh");
    expect(others).toEqual([]);
    const given = await expectKnownToItsCommand("verify-deployment.sh", line!);
    // The comment: the key and secret from the environment, never the command line.
    expect(commentOf(sample.split("\n")[0]!)).toContain(
      "the key and secret from the environment, never the command line",
    );
    expect(Object.keys(given.env).sort()).toEqual(["CONTRACT_API_KEY", "CONTRACT_API_SECRET"]);
    expect(given.options.map(([option]) => option)).not.toContain("--api-key");
    expect(given.options.map(([option]) => option)).not.toContain("--api-secret");
    const options = new Map(given.options);
    expect(options.get("--base-url")).toMatch(new RegExp(`^https://\\S+${BASE_PATH}$`));
    // --param names a parameter of the contract.
    const [name] = options.get("--param")!.split("=");
    const parameters = listSpecOperations().flatMap((op) => op.parameters.map((parameter) => parameter.name));
    expect(parameters).toContain(name);
    // Run: the mock's URL in place of staging's, a stand-in for each value the reader fills in (…).
    const cwd = await folder("verify-deployment");
    const script = sample.replace(options.get("--base-url")!, mock.baseUrl).replaceAll("…", "stand-in");
    const ran = await run("bash", ["-e", "-c", script], { cwd });
    expect(ran.code, ran.output).toBe(0);
    expect(ran.output).toContain("key from CONTRACT_API_KEY, requests signed (secret from CONTRACT_API_SECRET)");
    expect(ran.output).toMatch(/Meets the contract \(the package's mock \S+\): \d+ passed, 0 failed, 0 skipped/);
    const reports = await readdir(path.join(cwd, options.get("--report-dir")!));
    expect(reports.sort()).toEqual(["verify-report.json", "verify-report.junit.xml", "verify-report.md"]);
  }, 120_000);

  it("client-verify-ci.yml: GitHub Actions steps; verify runs on the mock, the next uploads its report", async () => {
    const steps = parse(docsSample("client-verify-ci.yml")) as Array<Record<string, unknown>>;
    expect(Array.isArray(steps)).toBe(true);
    // The keys of a step (GitHub's workflow syntax, jobs.<job_id>.steps[*]).
    const STEP_KEYS = "id if name uses run working-directory shell with env continue-on-error timeout-minutes";
    for (const step of steps) {
      expect(STEP_KEYS.split(" "), JSON.stringify(step)).toEqual(expect.arrayContaining(Object.keys(step)));
      expect("run" in step !== "uses" in step, "a step runs a command or uses an action").toBe(true);
      if ("uses" in step) expect(step.uses).toMatch(/^[\w.-]+\/[\w.-]+@[\w.-]+$/);
    }
    const [check, upload, ...others] = steps as [
      { name: string; run: string; env: Record<string, string> },
      { if: string; with: { path: string } },
    ];
    expect(others).toEqual([]);
    expect(check.name).toEqual(expect.any(String));
    const [line, ...more] = commandsOf(check.run);
    expect(more).toEqual([]);
    const given = await expectKnownToItsCommand("client-verify-ci.yml", line!);
    expect(given.command).toBe("verify");
    const help = await usage("verify");
    // Each variable of the step is one its command line names, or one verify reads.
    for (const name of Object.keys(check.env))
      expect(check.run.includes(`$${name}`) || new RegExp(`\\b${name}\\b`).test(help.text), name).toBe(true);
    const options = new Map(given.options);
    const baseUrl = /^"?\$(\w+)"?$/.exec(options.get("--base-url")!)?.[1];
    expect(check.env[baseUrl!]).toMatch(new RegExp(`^https://\\S+${BASE_PATH}$`));
    // The report is uploaded whatever the check's outcome, from where verify writes it.
    expect(upload.if).toBe("always()");
    expect(upload.with.path).toBe(options.get("--report-dir"));
    // Run as GitHub runs a step (bash -e): the mock's URL for staging's, a stand-in for each secret.
    const env = Object.fromEntries(
      Object.entries(check.env).map(([name, value]) => [
        name,
        name === baseUrl ? mock.baseUrl : value.replace(/^\$\{\{\s*secrets\.(\w+)\s*\}\}$/, "stand-in-$1"),
      ]),
    );
    const cwd = await folder("client-verify-ci");
    const ran = await run("bash", ["-e", "-c", check.run], { cwd, env });
    expect(ran.code, ran.output).toBe(0);
    expect(ran.output).toContain("key from CONTRACT_API_KEY, requests signed (secret from CONTRACT_API_SECRET)");
    const reports = await readdir(path.join(cwd, upload.with.path));
    expect(reports.sort()).toEqual(["verify-report.json", "verify-report.junit.xml", "verify-report.md"]);
  }, 120_000);
});

// ---- The sandbox: sandbox-control.sh, sandbox-http.sh, verify-sandbox.sh.

it("sandbox-control.sh makes my-key's account with 100 USDT and moves every key's clock 31,000 ms", async () => {
  const start = Date.UTC(2026, 0, 1);
  const sandbox = await startSandbox({ port: 0, config: { clock: { start } } });
  try {
    // A key that had an account before: its clock (its quotes' age) moves too.
    sandbox.sandbox.putAccount("earlier-key", {});
    const script = docsSample("sandbox-control.sh");
    expect(script.match(/http:\/\/127\.0\.0\.1:4020\//g)?.length).toBe(2);
    const ran = await run("bash", ["-e", "-c", script.replaceAll(":4020/", `:${sandbox.port}/`)]);
    expect(ran.code, ran.output).toBe(0);
    expect(sandbox.sandbox.getAccount("my-key")?.balances.USDT).toBe(100);
    expect(sandbox.sandbox.clock.now()).toBe(start + 31_000);
    expect(sandbox.sandbox.accountClock("my-key").now()).toBe(start + 31_000);
    expect(sandbox.sandbox.accountClock("earlier-key").now()).toBe(start + 31_000);
    expect(ran.stdout).toContain('"iso":"2026-01-01T00:00:31.000Z"');
  } finally {
    await sandbox.stop();
  }
});

it("sandbox-http.sh's synopsis runs with every option, and answers at the URLs its comment gives", async () => {
  const [comment] = docsSample("sandbox-http.sh").split("\n");
  const [api, control] = [...comment!.matchAll(/http:\/\/[\w.:]+\/[\w/]+/g)].map((m) => new URL(m[0]));
  expect(api?.pathname).toBe(BASE_PATH);
  expect(control?.pathname).toBe(CONTROL_PREFIX);
  expect(control?.origin).toBe(api?.origin);
  const dir = await folder("sandbox-http");
  const port = String(await closedPort());
  const files = { state: path.join(dir, "state.json"), config: path.join(dir, "config.json") };
  await writeFile(files.config, "{}");
  const readyFile = path.join(dir, "ready");
  const token = "synopsis-token";
  // Each <placeholder> filled in; the port a free one.
  const values: Record<string, string> = {
    "--port": port,
    "--state": files.state,
    "--config": files.config,
    "--token": token,
    "--ready-file": readyFile,
  };
  const given = await commandLine(apiContractLines("sandbox-http.sh")[0]!);
  const args = given.options.flatMap(([option, value]) =>
    value === undefined ? [option] : [option, option === "--port" || value.startsWith("<") ? values[option]! : value],
  );
  const sandbox = start(API_CONTRACT[0]!, [...API_CONTRACT.slice(1), given.command, ...args]);
  const waited = await run(API_CONTRACT[0]!, [...API_CONTRACT.slice(1), "wait", "--ready-file", readyFile]);
  expect(waited.code, waited.output).toBe(0);
  const at = (url: URL) => url.href.replace(`:${url.port}/`, `:${port}/`);
  expect(waited.stdout).toBe(`${at(api!)}\n`);
  const rates = await fetch(`${at(api!)}/currencies/fiat-rates`);
  expect(rates.status).toBe(200);
  const choices = `${at(control!)}/choices`;
  expect((await fetch(choices, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  expect((await fetch(choices)).status).toBe(401);
  sandbox.child.kill("SIGTERM");
  const stopped = await sandbox.exited;
  expect(stopped.code, stopped.output).toBe(0);
  // --quiet: no line per request; --state: saved on stop; --ready-file: removed on stop.
  expect(stopped.output).not.toContain(`${BASE_PATH}/currencies/fiat-rates`);
  expect(JSON.parse(await readFile(files.state, "utf8"))).toMatchObject({ version: expect.any(Number) });
  await expect(stat(readyFile)).rejects.toMatchObject({ code: "ENOENT" });
}, 120_000);

it("verify-sandbox.sh runs as printed and ends as its comment says: every case run, 0 failed, 0 skipped", async () => {
  const sample = docsSample("verify-sandbox.sh");
  const verifyLine = sample.split("\n").find((line) => line.startsWith("npx api-contract verify"))!;
  const claim = commentOf(verifyLine);
  expect(claim).toBe("0 failed, 0 skipped");
  const port = String(await closedPort());
  expect(sample).toContain("http://127.0.0.1:4020/v1");
  // After the sample, the sandbox it left in the background is stopped; the script ends with verify's status.
  const script = `${sample.replaceAll("4020", port).trimEnd()}\nstatus=$?\nkill -TERM $!\nwait $!\nexit $status\n`;
  const ran = await run("bash", ["-c", script]);
  expect(ran.code, ran.output).toBe(0);
  expect(ran.output).toMatch(
    new RegExp(`Meets the contract \\(the package's sandbox \\S+\\): \\d+ passed, ${claim} \\(`),
  );
  expect(ran.output).toContain("On the sandbox, verify prepared an account of its own");
}, 180_000);
