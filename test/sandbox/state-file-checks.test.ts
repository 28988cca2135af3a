// The --state file at start and stop: a folder the file cannot be made in for a reason other than a missing or
// non-folder parent is named with the system's code; a loaded state with no --config setting to replace logs
// just what it loaded; an atomic write into a missing folder fails with the error of making the file.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, writeFileAtomically } from "../../src/sandbox/server.js";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "sandbox-state-file-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe("--state", () => {
  it("refuses a file whose folder the system cannot look at, naming the system's code", async () => {
    // A name over 255 bytes: stat() fails with ENAMETOOLONG, neither missing nor a file.
    const long = path.join(folder, "x".repeat(300));
    await expect(startSandbox({ port: 0, statePath: path.join(long, "state.json") })).rejects.toThrow(
      `its folder ${long} cannot be written to (ENAMETOOLONG), so the state could not be saved on stop`,
    );
  });

  it("logs only what it loaded when the --config file sets nothing a state holds", async () => {
    const statePath = path.join(folder, "state.json");
    const first = await startSandbox({ port: 0, statePath, config: { clock: { start: Date.UTC(2026, 0, 1) } } });
    await first.stop();
    const lines: string[] = [];
    const second = await startSandbox({
      port: 0,
      statePath,
      config: { limits: { quotesPerHour: 3 } },
      log: (line) => lines.push(line),
      quiet: true,
    });
    await second.stop();
    expect(lines[0]).toBe(`sandbox state loaded from ${statePath}: 0 account(s), clock at 2026-01-01T00:00:00.000Z`);
  });
});

describe("writeFileAtomically", () => {
  it("into a missing folder fails with the error of opening the temporary file", async () => {
    const file = path.join(folder, "missing", "state.json");
    await expect(writeFileAtomically(file, "{}")).rejects.toMatchObject({ code: "ENOENT", syscall: "open" });
  });
});
