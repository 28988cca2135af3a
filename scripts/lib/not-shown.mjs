// Finds every `x-not-shown` marker in a bundled OpenAPI document and names its place for a reader.
/** The heading of the register, in generated/not-shown.md and in the docs page's introduction. */
export const NOT_SHOWN_HEADING = "What the description leaves open";

const METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

const escapePointer = (key) => String(key).replace(/~/g, "~0").replace(/\//g, "~1");

function describePlace(doc, segments) {
  const [top, a, b, ...rest] = segments;
  if (top === "info") return "API (info)";
  if (top === "paths" && METHODS.has(b)) {
    const op = doc.paths[a][b];
    const tail = rest.length ? ` › ${rest.join(" › ")}` : "";
    return `${op.operationId} (${b.toUpperCase()} ${a})${tail}`;
  }
  if (top === "components") {
    const kind = { schemas: "schema", responses: "response", parameters: "parameter", securitySchemes: "security scheme", headers: "header" }[a] ?? a;
    const inner = rest.filter((s) => s !== "properties" && s !== "allOf" && !/^\d+$/.test(s));
    return `${kind} ${b}${inner.length ? ` › ${inner.join(" › ")}` : ""}`;
  }
  return segments.join(" › ");
}

/** @returns {{ pointer: string, place: string, text: string }[]} in document order */
export function collectNotShown(doc) {
  const entries = [];
  const walk = (node, segments) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, [...segments, String(i)]));
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "x-not-shown") {
        const pointer = "#/" + segments.map(escapePointer).join("/");
        for (const text of Array.isArray(value) ? value : [value]) entries.push({ pointer, place: describePlace(doc, segments), text });
      } else if (key !== "examples" && key !== "example") {
        walk(value, [...segments, key]);
      }
    }
  };
  walk(doc, []);
  return entries;
}
