// The docs site's code samples (docs/samples/), read as a reader copies them, for the tests that run or compile them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./spec.js";

/** The text of docs/samples/`name`, exactly as the site shows it. */
export const docsSample = (name: string): string => readFileSync(path.join(repoRoot, "docs", "samples", name), "utf8");
