// The "done when", on a throwaway copy of this repository (never the real spec): a commit that
// removes a response field fails check:breaking with a line naming the field and the operation, and passes
// once the major version is bumped with a changeset — recorded (`changeset add --major`), then released
// (`npm run release:version`: 2.0.0 in package.json, its lock and info.version, the CHANGELOG entry with the gate's
// classified list), then recorded as released (`npm run release:publish -- --no-npm`).
import { mkdir, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../support/fixture-repo.js";
import { repoRoot } from "../support/spec.js";
import { PACKAGE_NAME } from "./support.js";

const LINE =
  "BREAKING  response-field-removed  GET /wallets/USDT (getWalletBalance), response 200 body: field " +
  "data.lockedBalance removed";

describe("a removed response field, from the commit to the release", () => {
  let repo: FixtureRepo;
  beforeAll(async () => {
    repo = await fixtureRepo();
    // The copy gets this repository's changesets setup, pending changesets and changelog.
    await mkdir(path.join(repo.dir, ".changeset"));
    for (const name of await readdir(path.join(repoRoot, ".changeset")))
      await repo.write(path.join(".changeset", name), await readFile(path.join(repoRoot, ".changeset", name), "utf8"));
    for (const file of ["CHANGELOG.md", "package-lock.json"])
      await repo.write(file, await readFile(path.join(repoRoot, file), "utf8"));
  }, 60_000);
  afterAll(() => repo?.remove());

  it("passes; fails on the change naming field and operation; passes with a major changeset and released", async () => {
    const clean = await repo.npm("check:breaking");
    expect(clean.code, clean.output).toBe(0);
    expect(clean.output).toContain("0 breaking");

    // The commit: Wallet loses lockedBalance.
    await repo.edit(
      "openapi/components/schemas/Wallet.yaml",
      "required: [availableBalance, pendingBalance, pendingSwapBalance, lockedBalance,",
      "required: [availableBalance, pendingBalance, pendingSwapBalance,",
    );
    await repo.edit(
      "openapi/components/schemas/Wallet.yaml",
      /\n {6}lockedBalance:\n {8}type: number\n {8}description: Balance locked\./,
      "",
    );
    const build = await repo.npm("build", ["bundle"]);
    expect(build.code, build.output).toBe(0);
    const failed = await repo.npm("check:breaking");
    expect(failed.code).toBe(1);
    expect(failed.output).toContain(LINE);
    expect(failed.output).toContain("need a major version");

    // The fix: a changeset that declares the major bump.
    const add = await repo.npm("changeset", ["add", "--major", PACKAGE_NAME, "-m", "Wallet: `lockedBalance` removed."]);
    expect(add.code, add.output).toBe(0);
    const passed = await repo.npm("check:breaking");
    expect(passed.code, passed.output).toBe(0);
    expect(passed.output).toContain(LINE);
    expect(passed.output).toMatch(/needs a major bump, has major \(\.changeset\/[\w-]+\.md\)/);

    // The release: 2.0.0 everywhere, the changelog entry with the classified list, no changeset left.
    const version = await repo.npm("release:version");
    expect(version.code, version.output).toBe(0);
    expect(JSON.parse(await repo.read("package.json")).version).toBe("2.0.0");
    expect(JSON.parse(await repo.read("package-lock.json")).packages[""].version).toBe("2.0.0");
    expect(await repo.read("openapi/openapi.yaml")).toMatch(/^ {2}version: 2\.0\.0$/m);
    expect(JSON.parse(await repo.read("generated/openapi.json")).info.version).toBe("2.0.0");
    const changelog = await repo.read("CHANGELOG.md");
    const entry = changelog.slice(changelog.indexOf("## 2.0.0"), changelog.indexOf("## 1.0.0"));
    expect(entry).toContain("### Major Changes");
    expect(entry).toContain("Wallet: `lockedBalance` removed.");
    expect(entry).toContain("### Contract changes since 1.0.0");
    expect(entry).toMatch(/#### Breaking\n\n- `response-field-removed` .*field lockedBalance removed/);
    expect(
      (await readdir(path.join(repo.dir, ".changeset"))).filter((f) => f.endsWith(".md") && f !== "README.md"),
    ).toEqual([]);
    const afterVersion = await repo.npm("check:breaking");
    expect(afterVersion.code, afterVersion.output).toBe(0);
    expect(afterVersion.output).toContain("released 1.0.0 → 2.0.0");
    expect(afterVersion.output).toContain("has major (version 2.0.0)");

    // Recorded as released: the gate compares with 2.0.0 from now on; generated/ stays fresh.
    const publish = await repo.npm("release:publish", ["--no-npm"]);
    expect(publish.code, publish.output).toBe(0);
    const released = JSON.parse(await repo.read("generated/released/openapi.json"));
    expect(released["x-released"].version).toBe("2.0.0");
    const afterRelease = await repo.npm("check:breaking");
    expect(afterRelease.code, afterRelease.output).toBe(0);
    expect(afterRelease.output).toContain("released 2.0.0 → 2.0.0: 0 breaking, 0 non-breaking, 0 annotations");
    expect((await repo.npm("check:generated")).code).toBe(0);
  }, 240_000);
});
