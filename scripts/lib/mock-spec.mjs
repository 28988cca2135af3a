// Derives the mock-only copy of the bundled contract that Prism serves. The contract itself is
// never changed; every difference is listed in `fixes` (printed by `npm start`, kept in the README).

/** Path part of a server URL with its variables replaced by their defaults ("" for "/"). */
function serverPath(server) {
  let url = server.url;
  for (const [name, variable] of Object.entries(server.variables ?? {})) url = url.split(`{${name}}`).join(variable.default);
  const pathname = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? new URL(url).pathname : url;
  return pathname.replace(/\/+$/, "");
}

/** The base path the mock serves under: that of the local (127.0.0.1/localhost) server, else the first. */
export function mockBasePath(spec) {
  const servers = spec.servers ?? [];
  const local = servers.find((s) => /^https?:\/\/(127\.0\.0\.1|localhost)[:/]/i.test(s.url));
  const chosen = local ?? servers[0];
  return chosen ? serverPath(chosen) : "";
}

/**
 * Returns `{ spec, basePath, fixes }`: a deep copy of `spec` in which every path carries the base
 * path (Prism 5 ignores the path of `servers`), plus the workarounds listed in `fixes`.
 */
export function deriveMockSpec(input) {
  const spec = structuredClone(input);
  const basePath = mockBasePath(spec);
  const fixes = [];
  if (basePath) {
    spec.paths = Object.fromEntries(Object.entries(spec.paths ?? {}).map(([p, item]) => [`${basePath}${p}`, item]));
    // A bundle may point into paths (`#/paths/~1a~1b/...`): keep such refs pointing at the renamed keys.
    const escapedBase = basePath.replace(/~/g, "~0").replace(/\//g, "~1");
    const rewrite = (node) => {
      if (Array.isArray(node)) node.forEach(rewrite);
      else if (node && typeof node === "object") {
        for (const [key, value] of Object.entries(node)) {
          if (key === "$ref" && typeof value === "string" && value.startsWith("#/paths/"))
            node.$ref = `#/paths/${escapedBase}${value.slice("#/paths/".length)}`;
          else rewrite(value);
        }
      }
    };
    rewrite(spec);
    fixes.push(`every path is prefixed with ${basePath} (Prism ignores the base path of servers)`);
  }
  // Prism must not route by server URL: serve every path on whatever host/port it listens on.
  spec.servers = [{ url: "/" }];
  return { spec, basePath, fixes };
}
