// What follows the package version (package.json, the one source) at a release: info.version of
// openapi/openapi.yaml, set in place (only that line changes; comments and layout stay), and the root
// package's version in package-lock.json (`changeset version` leaves the lock alone).
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";

const SPEC_SOURCE = path.join("openapi", "openapi.yaml");

/** Sets info.version in `<root>/openapi/openapi.yaml`; returns the version it had. */
export async function setSpecVersion(root: string, version: string): Promise<string> {
  const file = path.join(root, SPEC_SOURCE);
  const text = await readFile(file, "utf8");
  const info = /^info:[ \t]*\r?\n((?:[ \t]+.*\r?\n|[ \t]*\r?\n)*)/m.exec(text);
  const line = info ? /^([ \t]+)version:[ \t]*(.*)$/m.exec(info[1] ?? "") : null;
  if (!info || !line) throw new Error(`${SPEC_SOURCE}: no info.version line found`);
  const previous = String((parse(text) as { info?: { version?: unknown } }).info?.version);
  const start = info.index + info[0].length - (info[1] ?? "").length + line.index;
  const updated = `${text.slice(0, start)}${line[1]}version: ${version}${text.slice(start + line[0].length)}`;
  if ((parse(updated) as { info?: { version?: unknown } }).info?.version !== version)
    throw new Error(`${SPEC_SOURCE}: setting info.version to ${version} did not take (is it quoted or computed?)`);
  await writeFile(file, updated);
  return previous;
}

/**
 * Sets the root package's version in `<root>/package-lock.json` (npm's own layout: two spaces, final
 * newline), if there is one.
 */
export async function setLockVersion(root: string, version: string): Promise<void> {
  const file = path.join(root, "package-lock.json");
  let lock: { version?: string; packages?: Record<string, { version?: string }> };
  try {
    lock = JSON.parse(await readFile(file, "utf8")) as typeof lock;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  lock.version = version;
  const self = lock.packages?.[""];
  if (self) self.version = version;
  await writeFile(file, `${JSON.stringify(lock, null, 2)}\n`);
}
