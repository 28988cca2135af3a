// Lint runs clean, and the project's own lint rules catch what they exist to catch.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const redocly = path.join(root, "node_modules/@redocly/cli/bin/cli.js");
const spectral = path.join(root, "node_modules/@stoplight/spectral-cli/dist/index.js");
const scratch = mkdtempSync(path.join(tmpdir(), "lint-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function lint(cmd: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [cmd, ...args], { cwd: root, env: { ...process.env, NO_COLOR: "1" } });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

/** Lines of redocly's output that report a problem (its Node-version banner aside). */
const redoclyProblems = (output: string) => output.split("\n").filter((line) => !line.includes("║") && /\b(warnings?|errors?)\b/i.test(line));

const spectralCodes = async (file: string) => {
  const { output } = await lint(spectral, ["lint", file, "--ruleset", path.join(root, ".spectral.yaml"), "-f", "json", "--quiet"]);
  return new Set((JSON.parse(output.slice(output.indexOf("["))) as { code: string }[]).map((r) => r.code));
};

describe("lint", () => {
  it("redocly lint reports no error and no warning on openapi/", async () => {
    const { code, output } = await lint(redocly, ["lint", "openapi/openapi.yaml", "--format=stylish"]);
    expect(output).toContain("Your API description is valid");
    expect(redoclyProblems(output)).toEqual([]);
    expect(code).toBe(0);
  });

  it("counts a redocly warning as a problem (redocly exits 0 on warnings)", async () => {
    const config = path.join(scratch, "redocly-with-license-rule.yaml");
    writeFileSync(config, readFileSync(path.join(root, "redocly.yaml"), "utf8").replace(/^\s*info-license: off.*$/m, "  info-license: warn"));
    const { code, output } = await lint(redocly, ["lint", "openapi/openapi.yaml", "--config", config, "--format=stylish"]);
    expect(code).toBe(0);
    expect(redoclyProblems(output).join("\n")).toContain("info-license");
  });

  it("spectral (spectral:oas + OWASP + project rules) reports nothing on the bundle", async () => {
    const { code, output } = await lint(spectral, ["lint", "generated/openapi.yaml", "--fail-severity=hint"]);
    expect(output).toContain("No results");
    expect(code).toBe(0);
  });

  it("the project's spectral rules catch a missing header, a bare body, a missing example and a missing error status", async () => {
    const doc = parse(readFileSync(path.join(root, "generated/openapi.yaml"), "utf8"));
    const ok = doc.paths["/currencies/fiat-rates"].get.responses["200"];
    delete ok.headers["X-RateLimit-Reset"];
    ok.content["application/json"].schema = { type: "array", items: { $ref: "#/components/schemas/FiatRate" } };
    delete ok.content["application/json"].examples;
    delete doc.paths["/trades/quote"].post.responses["429"];
    const file = path.join(scratch, "broken.yaml");
    writeFileSync(file, stringify(doc));
    const codes = await spectralCodes(file);
    for (const rule of [
      "response-declares-rate-limit-headers",
      "success-body-is-envelope",
      "response-has-example",
      "operation-declares-error-responses",
    ]) {
      expect(codes, rule).toContain(rule);
    }
  });

  it("redocly's configured rules catch a snake_case operationId, a non-JSON body and an invalid example", async () => {
    const copy = path.join(scratch, "openapi");
    cpSync(path.join(root, "openapi"), copy, { recursive: true });
    const pathFile = path.join(copy, "paths/trades_quote.yaml");
    const item = parse(readFileSync(pathFile, "utf8"));
    item.post.operationId = "create_quote";
    item.post.responses["200"].content["text/plain"] = { schema: { type: "string" }, example: "ok" };
    writeFileSync(pathFile, stringify(item));
    const exampleFile = path.join(copy, "components/examples/Quote.yaml");
    writeFileSync(exampleFile, readFileSync(exampleFile, "utf8").replace("side: SELL", "side: HOLD"));
    const { code, output } = await lint(redocly, [
      "lint",
      path.join(copy, "openapi.yaml"),
      "--config",
      path.join(root, "redocly.yaml"),
      "--format=stylish",
    ]);
    expect(code).not.toBe(0);
    expect(output).toContain("rule/operationId-camel-case");
    expect(output).toContain("response-mime-type");
    expect(output).toContain("no-invalid-media-type-examples");
  });
});
