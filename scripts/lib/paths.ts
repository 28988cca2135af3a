// Where things are in this repository (for scripts and tests; nothing shipped reads these).
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const GENERATED_DIR = path.join(ROOT, "generated");
export const BUNDLE_JSON = path.join(GENERATED_DIR, "openapi.json");
// The docs site, as `npm run docs` builds it (scripts/docs-site.ts); git-ignored.
export const SITE_DIR = path.join(ROOT, "site");
