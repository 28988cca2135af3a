// `api-contract` explains itself: --help (or -h) prints every command's usage, after a command that command's
// alone, and exits 0; --version prints the package's version. The usage lists only options the command has, and
// the sandbox's every key its --config file takes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/spec.js";
import { cli } from "./run-cli.js";

const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };

describe("api-contract --help and --version", () => {
  it.each(["--help", "-h", "help"])(
    "api-contract %s prints every command's usage and exits 0",
    async (line) => {
      const result = await cli(line.split(" "));
      expect(result.code, result.output).toBe(0);
      expect(result.stdout).toMatch(/^Usage: api-contract <command> \[options\]\n\nCommands:\n/);
      for (const command of ["mock", "sandbox", "verify", "wait", "help", "version"])
        expect(result.stdout).toContain(`\n  ${command} `);
    },
    60_000,
  );

  it.each([
    ["mock --help", "mock"],
    ["mock -h", "mock"],
    ["sandbox --help", "sandbox"],
    ["verify -h", "verify"],
    ["wait --help", "wait"],
  ])(
    "api-contract %s prints that command's usage only and exits 0",
    async (line, command) => {
      const result = await cli(line.split(" "));
      expect(result.code, result.output).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^Usage: api-contract ${command} \\[options\\]\n\n  ${command} `));
      const others = ["mock", "sandbox", "verify", "wait"].filter((other) => other !== command);
      for (const other of others) expect(result.stdout).not.toMatch(new RegExp(`\n  ${other} {2,}`));
    },
    60_000,
  );

  it("api-contract verify --help names every environment variable verify reads", async () => {
    const result = await cli(["verify", "--help"]);
    const named = [...new Set(result.stdout.match(/CONTRACT_[A-Z_]+/g))].sort();
    expect(named).toEqual([
      "CONTRACT_ALLOW_SIDE_EFFECTS",
      "CONTRACT_API_KEY",
      "CONTRACT_API_SECRET",
      "CONTRACT_BASE_URL",
      "CONTRACT_MIN_INTERVAL_MS",
      "CONTRACT_SANDBOX_TOKEN",
      "CONTRACT_SECOND_API_KEY",
      "CONTRACT_SECOND_API_SECRET",
      "CONTRACT_WEBHOOK_SECRET",
    ]);
    // The same names as the code reads, so a variable added to verify without its help line fails here.
    const source = readFileSync(path.join(repoRoot, "src/cli.ts"), "utf8");
    const read = [...source.matchAll(/process\.env\.(CONTRACT_[A-Z_]+)/g)].map((match) => match[1]);
    expect([...new Set(read)].sort()).toEqual(named);
  }, 60_000);

  it("api-contract sandbox --help lists every key a --config file takes", async () => {
    const result = await cli(["sandbox", "--help"]);
    const config = /--config <file> {3}a JSON file of sandbox options: ([\s\S]*?)\n {14}--token/;
    const listed = config.exec(result.stdout)?.[1];
    const keys = listed?.split(/,\s+/).map((key) => key.trim());
    expect(keys).toEqual([
      "accounts",
      "rates",
      "limits",
      "catalogue",
      "requireKnownKeys",
      "clock",
      "withdrawals",
      "webhooks",
      "quotes",
      "controlToken",
    ]);
  }, 60_000);

  it.each(["--version", "-v", "version", "mock --version", "verify --version", "wait --version", "wait -v"])(
    "api-contract %s prints the package's version alone and exits 0",
    async (line) => {
      const result = await cli(line.split(" "));
      expect(result.code, result.output).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    },
    60_000,
  );

  it("lists no --spec: the mock serves this package's contract only (an unknown option exits 2)", async () => {
    const usage = await cli(["help"]);
    expect(usage.stdout).not.toContain("--spec");
    const refused = await cli(["mock", "--spec", "other.json"]);
    expect(refused.code).toBe(2);
    expect(refused.output).toContain("Unknown option '--spec'");
  });
});
