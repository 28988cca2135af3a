// Walking a bundled OpenAPI document: local $refs and the list of operations (scripts share these).

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Resolves a local `#/...` reference (repeatedly); other values are returned as they are. */
export function resolveRef(doc, value) {
  let current = value;
  const seen = new Set();
  while (current && typeof current === "object" && typeof current.$ref === "string") {
    const ref = current.$ref;
    if (!ref.startsWith("#/")) throw new Error(`openapi: only local $refs are supported, got ${ref}`);
    if (seen.has(ref)) throw new Error(`openapi: circular $ref ${ref}`);
    seen.add(ref);
    current = ref
      .slice(2)
      .split("/")
      .map((s) => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((node, key) => (node == null ? undefined : node[key]), doc);
    if (current === undefined) throw new Error(`openapi: unresolved $ref ${ref}`);
  }
  return current;
}

/** Every operation of the document, in document order. */
export function listOperations(doc) {
  const operations = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const pathItem = resolveRef(doc, rawItem);
    for (const method of HTTP_METHODS) {
      const operation = pathItem?.[method];
      if (operation) operations.push({ path, method, operation, pathItem });
    }
  }
  return operations;
}
