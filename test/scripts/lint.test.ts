// `npm run lint` as users run it: clean on this repository, and failing, with the source file and line
// under openapi/, on copies of it broken on purpose (every severity counts, Redocly's and Spectral's; the
// provenance markers are checked by the build's own function, as the rule provenance-markers).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../support/fixture-repo.js";

describe("npm run lint", () => {
  it("reports nothing on this repository", async () => {
    const clean = await fixtureRepo();
    try {
      const run = await clean.npm("lint");
      expect(run.output).toContain("report nothing");
      expect(run.code, run.output).toBe(0);
    } finally {
      await clean.remove();
    }
  });

  describe("on a copy broken in eight ways", () => {
    let repo: FixtureRepo;
    let output: string;
    let code: number | null;
    beforeAll(async () => {
      repo = await fixtureRepo();
      // Redocly's configured rules: a snake_case operationId, a non-JSON body, an invalid example.
      await repo.edit("openapi/paths/trades_quote.yaml", "operationId: createQuote", "operationId: create_quote");
      await repo.edit(
        "openapi/paths/trades_quote.yaml",
        /(\n {4}"200":\n(?:.*\n)*? {6}content:\n)/,
        "$1        text/plain:\n          schema:\n            type: string\n          example: ok\n",
      );
      await repo.edit("openapi/components/examples/Quote.yaml", "side: SELL", "side: HOLD");
      // The project's Spectral rules: a missing rate-limit header, a body that is not the envelope, a missing example,
      // a missing error status.
      await repo.edit("openapi/paths/currencies_fiat-rates.yaml", /\n {8}X-RateLimit-Reset:\n {10}\$ref: [^\n]+/, "");
      await repo.edit(
        "openapi/paths/currencies_fiat-rates.yaml",
        /(\n {10}schema:\n {12})\$ref: [^\n]+/,
        "$1type: array",
      );
      await repo.edit(
        "openapi/paths/currencies_fiat-rates.yaml",
        /\n {10}examples:\n {12}\w+:\n {14}\$ref: [^\n]+/,
        "",
      );
      await repo.edit("openapi/paths/trades_summary_me.yaml", /\n {4}"429":\n {6}\$ref: [^\n]+/, "");
      // The provenance markers: a source info.x-sources does not declare.
      await repo.edit("openapi/components/parameters/TransactionsPage.yaml", "[client-2023]", "[client-2099]");
      ({ output, code } = await repo.npm("lint"));
    }, 180_000);
    afterAll(() => repo?.remove());

    it("fails", () => {
      expect(code, output).not.toBe(0);
    });

    it.each([
      ["rule/operationId-camel-case", "openapi/paths/trades_quote.yaml"],
      ["response-mime-type", "openapi/paths/trades_quote.yaml"],
      ["no-invalid-media-type-examples", "openapi/components/examples/Quote.yaml"],
    ])("Redocly reports %s in %s, with its line", (rule, file) => {
      const line = output.split("\n").find((l) => l.includes(`  ${rule}  `));
      expect(line, output).toBeDefined();
      expect(line).toMatch(new RegExp(`^${file.replace(/[./]/g, "\\$&")}:\\d+ `));
    });

    it.each([
      ["response-declares-rate-limit-headers", "openapi/paths/currencies_fiat-rates.yaml"],
      ["success-body-is-envelope", "openapi/paths/currencies_fiat-rates.yaml"],
      ["response-has-example", "openapi/paths/currencies_fiat-rates.yaml"],
      ["operation-declares-error-responses", "openapi/paths/trades_summary_me.yaml"],
    ])("Spectral reports %s at its source file (%s) and line", (rule, file) => {
      const line = output.split("\n").find((l) => l.includes(`  ${rule}  `));
      expect(line, output).toBeDefined();
      expect(line).toMatch(new RegExp(`^${file.replace(/[./]/g, "\\$&")}:\\d+ `));
      expect(line).toMatch(/\(bundle reports\/lint\/openapi\.yaml:\d+ #\//);
    });

    it("reports provenance-markers at the marker's source file and line, naming the unknown source", async () => {
      const line = output.split("\n").find((l) => l.includes("  provenance-markers  "));
      expect(line, output).toBeDefined();
      const file = "openapi/components/parameters/TransactionsPage.yaml";
      const source = (await repo.read(file)).split("\n");
      const at = Number(/^[^:]+:(\d+) /.exec(line!)?.[1]);
      expect(line).toMatch(new RegExp(`^${file.replace(/[./]/g, "\\$&")}:\\d+ `));
      expect(source[at - 1]).toContain("client-2099");
      expect(line).toContain('unknown source "client-2099"');
      const pointer = "#/components/parameters/TransactionsPage/x-observed/0/sources/0";
      expect(line).toContain(`(bundle reports/lint/openapi.json ${pointer})`);
    });
  });

  it("lints the sandbox's control API document too: Redocly and Spectral, each at its line", async () => {
    const repo = await fixtureRepo();
    try {
      const file = "openapi-sandbox/control.yaml";
      await repo.edit(
        file,
        "            example:\n              ms: 31000\n",
        "            example:\n              ms: -1\n",
      );
      const run = await repo.npm("lint");
      expect(run.code, run.output).not.toBe(0);
      const exampleLine = (await repo.read(file)).split("\n").indexOf("              ms: -1") + 1;
      for (const rule of ["no-invalid-media-type-examples", "oas3-valid-media-example"]) {
        const line = run.output.split("\n").find((l) => l.includes(`  ${rule}  `));
        expect(line, run.output).toMatch(new RegExp(`^openapi-sandbox/control\\.yaml:${exampleLine} `));
      }
    } finally {
      await repo.remove();
    }
  });

  it.each([
    ["a Redocly warning", "redocly.yaml", /^( {2}info-license:) off.*$/m, "$1 warn", "info-license"],
    ["a Spectral hint", ".spectral.yaml", /^( {2}info-contact:) "off".*$/m, "$1 hint", "info-contact"],
  ])("fails on %s, not only on errors", async (_, file, from, to, rule) => {
    const repo = await fixtureRepo();
    try {
      await repo.edit(file, from, to);
      const run = await repo.npm("lint");
      expect(run.code, run.output).not.toBe(0);
      expect(run.output).toContain(rule);
    } finally {
      await repo.remove();
    }
  });
});
