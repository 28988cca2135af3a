// The docs' TypeScript code samples: generated from the spec for every operation, and compiling
// against this package's client (a sample that stops compiling fails here).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PACKAGE_NAME,
  generateCodeSamples,
  listOperations,
  requestInitOf,
  toTsLiteral,
  withCodeSamples,
} from "../../scripts/lib/code-samples.mjs";
import { repoRoot as root, scratchDir, tscErrors } from "../support/tsc.js";

let spec: Record<string, any>;

beforeAll(async () => {
  spec = JSON.parse(await readFile(path.join(root, "generated", "openapi.json"), "utf8"));
});

describe("code samples", () => {
  it("gives every operation one sample that calls its method and path through the package", () => {
    const operations = listOperations(spec);
    const samples = generateCodeSamples(spec);
    expect(operations.length).toBeGreaterThan(0);
    expect(samples).toHaveLength(operations.length);
    operations.forEach((entry, index) => {
      const sample = samples[index]!;
      expect(sample.operationId).toBe(entry.operation.operationId);
      expect(sample.source).toContain(`from "${PACKAGE_NAME}"`);
      expect(sample.source).toContain(`await client.${entry.method.toUpperCase()}(${JSON.stringify(entry.path)}`);
    });
  });

  it("takes parameters and bodies from the spec's examples, and prints them as equal literals", () => {
    for (const entry of listOperations(spec)) {
      const init = requestInitOf(spec, entry);
      for (const name of entry.path.match(/\{([^}]+)\}/g)?.map((p) => p.slice(1, -1)) ?? []) {
        expect(init?.params?.path?.[name], `${entry.path}: path parameter ${name}`).toBeDefined();
      }
      const media = entry.operation.requestBody?.content?.["application/json"];
      if (media?.example !== undefined) expect(init?.body).toEqual(media.example);
      if (init) {
        const literal = toTsLiteral(init);
        expect(new Function(`return (${literal});`)()).toEqual(init);
      }
    }
    // A sample never invents a value: a required input without an example is an error.
    const noExample = {
      openapi: "3.1.0",
      paths: { "/things/{id}": { get: { operationId: "getThing", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: {} } } },
    };
    expect(() => generateCodeSamples(noExample)).toThrow(/getThing: required path parameter "id" has no example/);
  });

  it("adds x-codeSamples to a copy, leaving the contract unchanged", () => {
    const before = JSON.stringify(spec);
    const copy = withCodeSamples(spec);
    expect(JSON.stringify(spec)).toBe(before);
    for (const { operation } of listOperations(copy)) {
      expect(operation["x-codeSamples"]).toEqual([{ lang: "TypeScript", source: expect.stringContaining("createClient") }]);
    }
  });

  describe("type-check", () => {
    let scratch: Awaited<ReturnType<typeof scratchDir>>;
    beforeAll(async () => {
      scratch = await scratchDir("samples-");
    });
    afterAll(() => scratch.remove());

    it("compiles every sample with tsc against src/index.ts, and catches a broken one", async () => {
      const samples = generateCodeSamples(spec);
      const files: Record<string, string> = {};
      for (const sample of samples) files[`sample-${sample.operationId ?? Object.keys(files).length}.ts`] = sample.source;
      // Control: a sample calling a path the spec does not have must not compile.
      const badPath = "/no-such-path";
      expect(spec.paths[badPath]).toBeUndefined();
      const control = samples[0]!.source.replace(JSON.stringify(samples[0]!.path), JSON.stringify(badPath));
      expect(control).toContain(badPath);
      files["control-broken.ts"] = control;

      const { errors: errorLines, output } = await tscErrors(scratch.dir, files, { noUncheckedIndexedAccess: true });
      const sampleErrors = errorLines.filter((line) => !line.startsWith("control-broken.ts"));
      expect(sampleErrors, `samples that do not compile:\n${sampleErrors.join("\n")}`).toEqual([]);
      const controlErrors = errorLines.filter((line) => line.startsWith("control-broken.ts"));
      // The error is on the call with the wrong path (tsc reports it as an overload mismatch).
      const callLine = control.split("\n").findIndex((line) => line.includes(badPath)) + 1;
      expect(controlErrors.join("\n"), `tsc output:\n${output}`).toContain(`control-broken.ts(${callLine},`);
    });
  });
});
