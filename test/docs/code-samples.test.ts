// The docs' TypeScript code samples: generated from the spec for every operation, and compiling
// against this package's client (a sample that stops compiling fails here).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  generateCodeSamples,
  PACKAGE_NAME,
  requestInitOf,
  toTsLiteral,
  withCodeSamples,
} from "../../scripts/build/code-samples.js";
import { listOperations } from "../../src/openapi/index.js";
import {
  deref,
  jsonMedia,
  listSpecOperations,
  loadSpec,
  mediaExamples,
  parameterExample,
  type JsonObject,
} from "../support/spec.js";
import { scratchDir, tscErrors } from "../support/tsc.js";

const spec = loadSpec();

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
    let bodies = 0;
    for (const entry of listOperations(spec)) {
      const init = requestInitOf(spec, entry);
      const label = `${entry.method.toUpperCase()} ${entry.path}`;
      const params = listSpecOperations(spec).find(
        (op) => op.method === entry.method.toUpperCase() && op.path === entry.path,
      )!.parameters;
      for (const name of entry.path.match(/\{([^}]+)\}/g)?.map((p) => p.slice(1, -1)) ?? []) {
        const param = params.find((p) => p.in === "path" && p.name === name);
        expect(param, `${label}: path parameter ${name} is declared`).toBeDefined();
        expect(init?.params?.path?.[name], `${label}: path parameter ${name}`).toEqual(parameterExample(spec, param!));
      }
      for (const [name, value] of Object.entries(init?.params?.query ?? {})) {
        const param = params.find((p) => p.in === "query" && p.name === name);
        expect(value, `${label}: query parameter ${name}`).toEqual(parameterExample(spec, param!));
      }
      const media = jsonMedia(deref(spec, entry.operation.requestBody) as JsonObject | undefined);
      if (media) {
        bodies += 1;
        const examples = mediaExamples(spec, media).map((e) => e.value);
        expect(examples.length, `${label}: the request body has an example`).toBeGreaterThan(0);
        expect(examples, `${label}: the sample's body is one of the spec's examples`).toContainEqual(init?.body);
      }
      if (init) {
        const literal = toTsLiteral(init);
        expect(new Function(`return (${literal});`)()).toEqual(init);
      }
    }
    // A sample never invents a value: a required input without an example is an error.
    const noExample = {
      openapi: "3.1.0",
      paths: {
        "/things/{id}": {
          get: {
            operationId: "getThing",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: {},
          },
        },
      },
    };
    expect(bodies, "operations with a request body").toBeGreaterThan(0);
    expect(() => generateCodeSamples(noExample)).toThrow(/getThing: required path parameter "id" has no example/);
  });

  it("leaves the signing headers to the client's apiSecret option, never passing them by hand", () => {
    const signing = Object.values((spec.components?.parameters ?? {}) as Record<string, JsonObject>).filter(
      (p) => p["x-signing"] !== undefined,
    );
    expect(signing.length).toBeGreaterThan(0);
    for (const sample of generateCodeSamples(spec)) {
      for (const parameter of signing) expect(sample.source, sample.operationId).not.toContain(String(parameter.name));
      expect(sample.source).toContain("// apiSecret:");
    }
  });

  it("adds x-codeSamples to a copy, leaving the contract unchanged", () => {
    const before = JSON.stringify(spec);
    const copy = withCodeSamples(spec);
    expect(JSON.stringify(spec)).toBe(before);
    for (const { operation } of listOperations(copy)) {
      expect(operation["x-codeSamples"]).toEqual([
        { lang: "TypeScript", source: expect.stringContaining("createClient") },
      ]);
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
      for (const sample of samples)
        files[`sample-${sample.operationId ?? Object.keys(files).length}.ts`] = sample.source;
      // Control: a sample calling a path the spec does not have must not compile.
      const badPath = "/no-such-path";
      expect(spec.paths?.[badPath]).toBeUndefined();
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
