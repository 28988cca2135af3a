// The mock-only copy of a bundled contract that Prism serves. The contract itself is never changed;
// every difference is listed in `fixes` (printed by the mock, told in the docs site's guide "The mock").
import { basePathOf, escapePointerToken, type OpenApiDocument } from "../openapi/document.js";

interface MockSpec {
  spec: OpenApiDocument;
  /** The base path every path now starts with (e.g. "/v1"), "" for none. */
  basePath: string;
  fixes: string[];
}

/**
 * A deep copy of `input` in which every path carries the servers' base path (Prism 5 ignores the path of
 * `servers`) and the servers are reduced to "/" (Prism must not route by server URL), plus what was changed.
 */
export function deriveMockSpec(input: OpenApiDocument): MockSpec {
  const spec = structuredClone(input);
  const basePath = basePathOf(spec);
  const fixes: string[] = [];
  if (basePath) {
    spec.paths = Object.fromEntries(Object.entries(spec.paths ?? {}).map(([p, item]) => [`${basePath}${p}`, item]));
    // A bundle may point into paths (`#/paths/~1a~1b/...`): keep such refs pointing at the renamed keys.
    const escapedBase = escapePointerToken(basePath);
    const rewrite = (node: unknown): void => {
      if (Array.isArray(node)) {
        for (const item of node) rewrite(item);
      } else if (node && typeof node === "object") {
        const record = node as Record<string, unknown>;
        for (const [key, value] of Object.entries(record)) {
          if (key === "$ref" && typeof value === "string" && value.startsWith("#/paths/"))
            record.$ref = `#/paths/${escapedBase}${value.slice("#/paths/".length)}`;
          else rewrite(value);
        }
      }
    };
    rewrite(spec);
    fixes.push(`every path is prefixed with ${basePath} (Prism ignores the base path of servers)`);
  }
  spec.servers = [{ url: "/" }];
  return { spec, basePath, fixes };
}
