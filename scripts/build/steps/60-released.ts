// Carries generated/released/openapi.json over into every build. It is the bundle of the last release,
// which the breaking-change gate (`npm run check:breaking`) compares the contract with. Only the release
// step (`npm run release:publish`, scripts/release.ts) writes it; the build neither drops it (a build
// replaces generated/ as a whole) nor makes it: this step copies it byte for byte, after checking that it
// is intact (its notice, and a digest of its content that a hand edit breaks). So check:generated stays
// exact for it too: a missing, foreign or edited copy fails the build and check:generated. A repository
// without one gets none (the gate then says what to do).
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BuildContext } from "../index.js";

/** Where the released bundle lives, relative to generated/. */
export const RELEASED_FILE = path.join("released", "openapi.json");

/** The notice a released bundle carries as `x-generated` (what marks every generated file). */
export const releasedNotice = (version: string): string =>
  `Copied by \`npm run release:publish\` from generated/openapi.json when ${version} was released — ` +
  "do not edit by hand; `npm run check:breaking` compares the contract with it.";

type Document = Record<string, unknown>;

/** sha256 of the document without its notices, as written (key order kept). */
function digestOf(doc: Document): string {
  const { "x-generated": _notice, "x-released": _released, ...content } = doc;
  return createHash("sha256").update(JSON.stringify(content)).digest("hex");
}

/** The text of generated/released/openapi.json for a bundle released as `version` (its own notice replaced). */
export function releasedText(bundle: Document, version: string): string {
  const { openapi, "x-generated": _notice, "x-released": _released, ...rest } = bundle;
  const info = rest.info as { version?: unknown } | undefined;
  if (info?.version !== version)
    throw new Error(`released bundle: info.version is ${String(info?.version)}, not the released version ${version}`);
  const content = { openapi, ...rest };
  const released = { version, sha256: digestOf(content) };
  const document = { openapi, "x-generated": releasedNotice(version), "x-released": released, ...rest };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Reads a released bundle's text, or throws saying what is wrong with it. */
export function parseReleased(
  text: string,
  file = `generated/${RELEASED_FILE}`,
): { version: string; document: Document } {
  let doc: Document;
  try {
    doc = JSON.parse(text) as Document;
  } catch (error) {
    throw new Error(`${file}: not JSON (${(error as Error).message}); only \`npm run release:publish\` writes it`);
  }
  const released = doc["x-released"] as { version?: unknown; sha256?: unknown } | undefined;
  const version = typeof released?.version === "string" ? released.version : undefined;
  if (
    !version ||
    doc["x-generated"] !== releasedNotice(version) ||
    (doc.info as { version?: unknown } | undefined)?.version !== version
  )
    throw new Error(
      `${file}: no release notice (x-generated, x-released.version and info.version agreeing); ` +
        "only `npm run release:publish` writes it",
    );
  if (released?.sha256 !== digestOf(doc))
    throw new Error(
      `${file}: edited by hand (its content no longer matches x-released.sha256); ` +
        `restore it from the release commit of ${version}`,
    );
  return { version, document: doc };
}

export default async function released({ root, outDir }: BuildContext): Promise<void> {
  const source = path.join(root, "generated", RELEASED_FILE);
  let text: string;
  try {
    text = await readFile(source, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  parseReleased(text);
  await mkdir(path.join(outDir, path.dirname(RELEASED_FILE)), { recursive: true });
  await writeFile(path.join(outDir, RELEASED_FILE), text);
}
