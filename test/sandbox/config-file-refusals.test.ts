// A --config file the sandbox cannot take is refused at start with a message naming the file and what is wrong
// (not JSON, or JSON that is no object); an option given as null passes the key check as if it were not given.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "sandbox-config-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

async function configFile(name: string, text: string): Promise<string> {
  const file = path.join(folder, name);
  await writeFile(file, text);
  return file;
}

describe("a --config file", () => {
  it("that holds no JSON is refused with the parser's reason", async () => {
    const config = await configFile("broken.json", "{oops");
    const reason = "Expected property name or '}' in JSON at position 1 (line 1 column 2)";
    await expect(startSandbox({ port: 0, config })).rejects.toThrow(
      `--config ${config}: cannot read it as JSON (${reason})`,
    );
  });

  it("that holds JSON other than an object is refused: null, a number, a list", async () => {
    for (const text of ["null", "5", "[]"]) {
      const config = await configFile("not-an-object.json", text);
      await expect(startSandbox({ port: 0, config }), text).rejects.toThrow(
        `--config ${config}: must hold a JSON object of sandbox options`,
      );
    }
  });

  it("may give an option as null, which starts the sandbox as if it were not given", async () => {
    const config = await configFile("nulls.json", JSON.stringify({ accounts: null, limits: null }));
    const server = await startSandbox({ port: 0, config });
    try {
      expect((await fetch(`${server.origin}/_sandbox/state`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
