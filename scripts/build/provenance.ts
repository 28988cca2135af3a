// Where each part of the contract comes from. Everything comes from the service's description unless a
// vendor extension marks it; this module finds the markers of a bundled OpenAPI document and names their
// places for a reader. The register (generated/provenance.md, .json) and the docs page list them by kind.
import { isHttpMethod, type JsonObject, type OpenApiDocument, refOf } from "../../src/openapi/index.js";

export interface ProvenanceKind {
  key: "x-observed" | "x-not-shown" | "x-convention";
  /** The section heading, in generated/provenance.md and in the docs page's introduction. */
  heading: string;
  column: string;
  lead: string;
}

export interface ProvenanceEntry {
  pointer: string;
  place: string;
  text: string;
}

/** The kinds of marker, in the order the register and the docs list them. */
export const PROVENANCE_KINDS: readonly ProvenanceKind[] = [
  {
    key: "x-observed",
    heading: "Observed in a real client",
    column: "What was observed",
    lead:
      "What a real, independently written client of the service sends although the description does not " +
      "mention it, as marked by `x-observed`.",
  },
  {
    key: "x-not-shown",
    heading: "What the description leaves open",
    column: "What is not shown",
    lead:
      'Every place where the description says "not shown", and every conventional assumption the contract ' +
      'makes in its place (marked "Assumed"), as marked by `x-not-shown`.',
  },
  {
    key: "x-convention",
    heading: "From the description's conventions",
    column: "Convention",
    lead:
      "Rules the description states once for the whole API, enforced by the schema marked `x-convention` " +
      "wherever they apply.",
  },
];

function describePlace(doc: OpenApiDocument, segments: string[]): string {
  const [top, a = "", b = "", ...rest] = segments;
  if (top === "info") return "API (info)";
  if (top === "paths" && isHttpMethod(b)) {
    const op = (doc.paths?.[a]?.[b] ?? {}) as JsonObject;
    const tail = rest.length ? ` › ${rest.join(" › ")}` : "";
    return `${String(op.operationId)} (${b.toUpperCase()} ${a})${tail}`;
  }
  if (top === "components") {
    const kinds: Record<string, string> = {
      schemas: "schema",
      responses: "response",
      parameters: "parameter",
      securitySchemes: "security scheme",
      headers: "header",
    };
    const kind = kinds[a] ?? a;
    const inner = rest.filter((s) => s !== "properties" && s !== "allOf" && !/^\d+$/.test(s));
    return `${kind} ${b}${inner.length ? ` › ${inner.join(" › ")}` : ""}`;
  }
  return segments.join(" › ");
}

/** Every marker `key` (e.g. "x-observed") of the document, in document order. Examples are skipped. */
export function collectMarkers(doc: OpenApiDocument, key: string): ProvenanceEntry[] {
  const entries: ProvenanceEntry[] = [];
  const walk = (node: unknown, segments: string[]): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        walk(item, [...segments, String(i)]);
      });
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [name, value] of Object.entries(node)) {
      if (name === key) {
        const pointer = refOf(segments);
        for (const text of Array.isArray(value) ? value : [value])
          entries.push({ pointer, place: describePlace(doc, segments), text: String(text) });
      } else if (name !== "examples" && name !== "example") {
        walk(value, [...segments, name]);
      }
    }
  };
  walk(doc, []);
  return entries;
}

/** The register: every kind with its markers. */
export function collectProvenance(doc: OpenApiDocument): Array<ProvenanceKind & { entries: ProvenanceEntry[] }> {
  return PROVENANCE_KINDS.map((kind) => ({ ...kind, entries: collectMarkers(doc, kind.key) }));
}
