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
import { listOperations, multipartMedia, type Operation } from "../../src/openapi/index.js";
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

/** The JSON (else multipart/form-data) media type of an operation's request body, if it takes one. */
const requestMedia = (entry: Operation) => {
  const body = deref(spec, entry.operation.requestBody) as JsonObject | undefined;
  return jsonMedia(body) ?? multipartMedia(body);
};

const operations = listOperations(spec);
/** [METHOD path, operation, its index] rows: `%s` prints the operation. */
const operationRows = operations.map(
  (entry, index) => [`${entry.method.toUpperCase()} ${entry.path}`, entry, index] as const,
);
/** Operations whose request body is multipart/form-data only (Upload Invoice Document). */
const multipartRows = operationRows.filter(
  ([, entry]) => !jsonMedia(entry.requestBody) && multipartMedia(entry.requestBody) !== undefined,
);
const signingParameters = Object.values((spec.components?.parameters ?? {}) as Record<string, JsonObject>).filter(
  (p) => p["x-signing"] !== undefined,
);

describe("code samples", () => {
  it("gives one sample per operation, in the operations' order", () => {
    const samples = generateCodeSamples(spec);
    expect(operations.length).toBeGreaterThan(0);
    expect(samples).toHaveLength(operations.length);
  });

  it.each(operationRows)("gives %s a sample that calls its method and path through the package", (_, entry, index) => {
    const sample = generateCodeSamples(spec)[index]!;
    expect(sample.operationId).toBe(entry.operation.operationId);
    expect(sample.source).toContain(`from "${PACKAGE_NAME}"`);
    expect(sample.source).toContain(`await client.${entry.method.toUpperCase()}(${JSON.stringify(entry.path)}`);
  });

  it.each(operationRows)(
    "takes %s's parameters and body from the spec's examples, and prints them as equal literals",
    (label, entry) => {
      const init = requestInitOf(spec, entry);
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
      const media = requestMedia(entry);
      if (media) {
        const examples = mediaExamples(spec, media).map((e) => e.value);
        expect(examples.length, `${label}: the request body has an example`).toBeGreaterThan(0);
        expect(examples, `${label}: the sample's body is one of the spec's examples`).toContainEqual(init?.body);
      }
      if (init) {
        const literal = toTsLiteral(init);
        expect(new Function(`return (${literal});`)()).toEqual(init);
      }
    },
  );

  it("has an operation with a multipart/form-data body (Upload Invoice Document)", () => {
    expect(multipartRows.length).toBeGreaterThan(0);
  });

  it.each(multipartRows)("sends %s's body as FormData, through a body serializer", (_, entry, index) => {
    const sample = generateCodeSamples(spec)[index]!;
    expect(sample.operationId).toBe(entry.operation.operationId);
    expect(sample.source).toContain("const form = new FormData();");
    expect(sample.source).toContain("  bodySerializer: toFormData,\n");
    expect(sample.source).toContain(`  body: ${toTsLiteral(requestInitOf(spec, entry)!.body)},\n`);
  });

  it("has operations with a request body, whose samples send one", () => {
    expect(
      operations.filter((entry) => requestMedia(entry) !== undefined).length,
      "operations with a request body",
    ).toBeGreaterThan(0);
  });

  it("never invents a value: a required input without an example is an error", () => {
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
    expect(() => generateCodeSamples(noExample)).toThrow(/getThing: required path parameter "id" has no example/);
  });

  it("finds the signing headers among the spec's parameters", () => {
    expect(signingParameters.length).toBeGreaterThan(0);
  });

  it.each(operationRows)(
    "leaves %s's signing headers to the client's apiSecret option, never passing them by hand",
    (_, entry, index) => {
      const sample = generateCodeSamples(spec)[index]!;
      expect(sample.operationId).toBe(entry.operation.operationId);
      for (const parameter of signingParameters)
        expect(sample.source, sample.operationId).not.toContain(String(parameter.name));
      expect(sample.source).toContain("// apiSecret:");
    },
  );

  it("adds x-codeSamples to a copy, leaving the contract unchanged", () => {
    const before = JSON.stringify(spec);
    const copy = withCodeSamples(spec);
    expect(JSON.stringify(spec)).toBe(before);
    expect(listOperations(copy)).toHaveLength(operations.length);
  });

  it.each(operationRows)("adds %s's sample to the copy as its x-codeSamples", (_, _entry, index) => {
    const { operation } = listOperations(withCodeSamples(spec))[index]!;
    expect(operation["x-codeSamples"]).toEqual([
      { lang: "TypeScript", source: expect.stringContaining("createClient") },
    ]);
  });

  describe("type-check", () => {
    const samples = generateCodeSamples(spec);
    const fileOf = (index: number) => `sample-${samples[index]!.operationId ?? index}.ts`;
    // Control: a sample calling a path the spec does not have must not compile.
    const badPath = "/no-such-path";
    const control = samples[0]!.source.replace(JSON.stringify(samples[0]!.path), JSON.stringify(badPath));
    let scratch: Awaited<ReturnType<typeof scratchDir>>;
    let compiled: Awaited<ReturnType<typeof tscErrors>>;
    // One tsc run for every sample and the control (5 s); each sample's errors are then read on their own.
    beforeAll(async () => {
      scratch = await scratchDir("samples-");
      const files: Record<string, string> = { "control-broken.ts": control };
      for (const [index, sample] of samples.entries()) files[fileOf(index)] = sample.source;
      compiled = await tscErrors(scratch.dir, files, { noUncheckedIndexedAccess: true });
    });
    afterAll(() => scratch?.remove());

    it.each(operationRows)("compiles the sample of %s with tsc against src/index.ts", (_, _entry, index) => {
      const sampleErrors = compiled.errors.filter((line) => line.startsWith(`${fileOf(index)}(`));
      expect(sampleErrors, `the sample does not compile:\n${sampleErrors.join("\n")}`).toEqual([]);
    });

    it("reports no error outside the samples and the control", () => {
      const known = [...samples.keys()].map((index) => `${fileOf(index)}(`);
      const stray = compiled.errors.filter(
        (line) => !line.startsWith("control-broken.ts") && !known.some((file) => line.startsWith(file)),
      );
      expect(stray, `tsc output:\n${compiled.output}`).toEqual([]);
    });

    it("catches a broken sample: a call to a path the spec does not have", () => {
      expect(spec.paths?.[badPath]).toBeUndefined();
      expect(control).toContain(badPath);
      const controlErrors = compiled.errors.filter((line) => line.startsWith("control-broken.ts"));
      // The error is on the call with the wrong path (tsc reports it as an overload mismatch).
      const callLine = control.split("\n").findIndex((line) => line.includes(badPath)) + 1;
      expect(controlErrors.join("\n"), `tsc output:\n${compiled.output}`).toContain(`control-broken.ts(${callLine},`);
    });
  });
});
