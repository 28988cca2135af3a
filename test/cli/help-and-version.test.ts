// `api-contract` explains itself: --help (or -h) of the command and of each subcommand prints the usage and
// exits 0; --version prints the package's version. The usage lists only options the command has.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/spec.js";
import { cli } from "./run-cli.js";

const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };

describe("api-contract --help and --version", () => {
  it.each(["--help", "-h", "help", "mock --help", "mock -h", "verify --help", "verify -h", "wait --help"])(
    "api-contract %s prints the usage and exits 0",
    async (line) => {
      const result = await cli(line.split(" "));
      expect(result.code, result.output).toBe(0);
      expect(result.stdout).toMatch(/^Usage: api-contract <command> \[options\]\n/);
      expect(result.stdout).toContain("\n  mock ");
      expect(result.stdout).toContain("\n  verify ");
      expect(result.stdout).toContain("\n  wait ");
    },
    60_000,
  );

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
