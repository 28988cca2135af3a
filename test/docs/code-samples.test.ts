// The docs' TypeScript code samples: generated from the spec for every operation, and compiling
// against this package's client (a sample that stops compiling fails here).
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PACKAGE_NAME,
  generateCodeSamples,
  listOperations,
  requestInitOf,
  toTsLiteral,
  withCodeSamples,
} from "../../scripts/lib/code-samples.mjs";

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
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
    let dir: string;
    beforeAll(async () => {
      await mkdir(path.join(root, "test-output", "docs"), { recursive: true });
      // Inside the repo (git-ignored): package.json's "type": "module" and node_modules apply.
      dir = await mkdtemp(path.join(root, "test-output", "docs", "samples-"));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it("compiles every sample with tsc against src/index.ts, and catches a broken one", async () => {
      const samples = generateCodeSamples(spec);
      const files: string[] = [];
      for (const sample of samples) {
        const file = `sample-${sample.operationId ?? files.length}.ts`;
        await writeFile(path.join(dir, file), sample.source);
        files.push(file);
      }
      // Control: a sample calling a path the spec does not have must not compile.
      const badPath = "/no-such-path";
      expect(spec.paths[badPath]).toBeUndefined();
      const control = samples[0]!.source.replace(JSON.stringify(samples[0]!.path), JSON.stringify(badPath));
      expect(control).toContain(badPath);
      await writeFile(path.join(dir, "control-broken.ts"), control);

      const tsconfig = {
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2022", "DOM"],
          strict: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          noEmit: true,
          types: ["node"],
          paths: { [PACKAGE_NAME]: [path.join(root, "src", "index.ts")] },
        },
        files: [...files, "control-broken.ts"],
      };
      await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
      const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
      const output = await run(process.execPath, [tsc, "-p", path.join(dir, "tsconfig.json"), "--pretty", "false"], { cwd: dir })
        .then(({ stdout }) => stdout)
        .catch((err: { stdout?: string }) => err.stdout ?? String(err));
      const errorLines = output.split("\n").filter((line) => /error TS\d+/.test(line));
      const sampleErrors = errorLines.filter((line) => !line.startsWith("control-broken.ts"));
      expect(sampleErrors, `samples that do not compile:\n${sampleErrors.join("\n")}`).toEqual([]);
      const controlErrors = errorLines.filter((line) => line.startsWith("control-broken.ts"));
      // The error is on the call with the wrong path (tsc reports it as an overload mismatch).
      const callLine = control.split("\n").findIndex((line) => line.includes(badPath)) + 1;
      expect(controlErrors.join("\n"), `tsc output:\n${output}`).toContain(`control-broken.ts(${callLine},`);
    });
  });
});
