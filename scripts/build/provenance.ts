// Where each part of the contract comes from. Everything comes from the service's description unless a
// vendor extension marks it; this module finds the markers of a bundled OpenAPI document and names their
// places for a reader. The register (generated/provenance.md, .json) and the docs page list them by kind.
// A marker of a sourced kind (`x-observed`, `x-published`) is a list of `{ sources, fact }` objects whose
// sources are ids declared in `info.x-sources`; `provenanceProblems` is the one check of every marker's shape,
// run by the build (collectProvenance refuses a document it faults) and by `npm run lint`.
import { isHttpMethod, isObject, type JsonObject, type OpenApiDocument, refOf } from "../../src/openapi/index.js";

export type ProvenanceKey = "x-observed" | "x-published" | "x-not-shown" | "x-convention";

export interface ProvenanceKind {
  key: ProvenanceKey;
  /** The section heading, in generated/provenance.md and in the docs page's introduction. */
  heading: string;
  column: string;
  lead: string;
  /** Whether each marker names its sources (`{ sources, fact }` objects) rather than being plain text. */
  sourced: boolean;
}

export interface ProvenanceEntry {
  pointer: string;
  place: string;
  text: string;
  /** The ids of the sources (declared in `info.x-sources`) the entry names; only on a sourced kind. */
  sources?: string[];
}

/** A source outside the description, as `info.x-sources` declares it. */
export interface ProvenanceSource {
  id: string;
  kind: "client" | "page";
  title: string;
}

/** A source with the number of elements (distinct places) whose markers name it. */
export interface SourceUse extends ProvenanceSource {
  elements: number;
}

export interface ProvenanceRegister {
  sources: SourceUse[];
  kinds: Array<ProvenanceKind & { entries: ProvenanceEntry[] }>;
}

/** A marker (or `info.x-sources`) that is not as the format says, at the pointer of the faulty value. */
interface ProvenanceProblem {
  pointer: string;
  message: string;
}

/** The heading of the register file and of the introduction's section that names the kinds and the sources. */
export const PROVENANCE_HEADING = "Where the contract comes from";

/** Where the sources are declared in the document. */
export const SOURCES_KEY = "x-sources";

const SOURCE_KINDS: ReadonlyArray<ProvenanceSource["kind"]> = ["client", "page"];

/** The kinds of marker, in the order the register and the docs list them. */
export const PROVENANCE_KINDS: readonly ProvenanceKind[] = [
  {
    key: "x-observed",
    heading: "Observed in a real client",
    column: "What was observed",
    lead:
      "What the service's official Node client (its 2023 release, a later one, or both) sends or reads although " +
      "the description does not mention it, as marked by `x-observed`, with the releases it was seen in.",
    sourced: true,
  },
  {
    key: "x-published",
    heading: "Published on the service's reference pages",
    column: "What is published",
    lead:
      "What the service's public API reference pages publish although the description does not give it, as " +
      "marked by `x-published`, with the pages that publish it (they speak for the service).",
    sourced: true,
  },
  {
    key: "x-not-shown",
    heading: "What the description leaves open",
    column: "What is not shown",
    lead:
      'Every place where the description says "not shown", and every conventional assumption the contract ' +
      'makes in its place (marked "Assumed"), as marked by `x-not-shown`.',
    sourced: false,
  },
  {
    key: "x-convention",
    heading: "From the description's conventions",
    column: "Convention",
    lead:
      "Rules the description states once for the whole API, enforced by the schema marked `x-convention` " +
      "wherever they apply.",
    sourced: false,
  },
];

function describePlace(doc: OpenApiDocument, segments: string[]): string {
  const [top, a = "", b = "", ...rest] = segments;
  if (top === "info") return "API (info)";
  const tail = rest.length ? ` › ${rest.join(" › ")}` : "";
  if (top === "paths" && isHttpMethod(b)) {
    const op = (doc.paths?.[a]?.[b] ?? {}) as JsonObject;
    return `${String(op.operationId)} (${b.toUpperCase()} ${a})${tail}`;
  }
  if (top === "webhooks" && isHttpMethod(b)) {
    const op = ((doc.webhooks as Record<string, JsonObject> | undefined)?.[a]?.[b] ?? {}) as JsonObject;
    return `${String(op.operationId ?? a)} (webhook ${a}, ${b.toUpperCase()})${tail}`;
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

/** Calls `visit` for every marker of one of `keys` in the document, in document order. Examples are skipped. */
function walkMarkers(
  doc: OpenApiDocument,
  keys: readonly string[],
  visit: (key: string, value: unknown, segments: string[]) => void,
): void {
  const walk = (node: unknown, segments: string[]): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        walk(item, [...segments, String(i)]);
      });
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [name, value] of Object.entries(node)) {
      if (keys.includes(name)) visit(name, value, segments);
      else if (name !== "examples" && name !== "example") walk(value, [...segments, name]);
    }
  };
  walk(doc, []);
}

const isSourcedKey = (key: string): boolean => PROVENANCE_KINDS.some((kind) => kind.key === key && kind.sourced);

/**
 * Every marker `key` (e.g. "x-observed") of the document, in document order, one entry per text (per
 * `{ sources, fact }` object of a sourced kind, with its source ids). Examples are skipped. The shape is not
 * checked here (provenanceProblems does).
 */
export function collectMarkers(doc: OpenApiDocument, key: string): ProvenanceEntry[] {
  const entries: ProvenanceEntry[] = [];
  walkMarkers(doc, [key], (_, value, segments) => {
    const pointer = refOf(segments);
    const place = describePlace(doc, segments);
    for (const item of Array.isArray(value) ? value : [value]) {
      if (isSourcedKey(key) && isObject(item))
        entries.push({ pointer, place, text: String(item.fact), sources: (item.sources as unknown[]).map(String) });
      else entries.push({ pointer, place, text: String(item) });
    }
  });
  return entries;
}

/** The sources `info.x-sources` declares, in its order (entries that are not `{ kind, title }` objects skipped). */
export function declaredSources(doc: OpenApiDocument): ProvenanceSource[] {
  const map = doc.info?.[SOURCES_KEY];
  if (!isObject(map)) return [];
  return Object.entries(map).flatMap(([id, value]) =>
    isObject(value) ? [{ id, kind: value.kind as ProvenanceSource["kind"], title: String(value.title) }] : [],
  );
}

const isText = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";
const shown = (value: unknown): string =>
  Array.isArray(value) ? "a list" : isObject(value) ? "an object" : value === null ? "null" : JSON.stringify(value);

/** What is wrong with `info.x-sources`: a map from an id to `{ kind: client | page, title }`. */
function sourcesProblems(doc: OpenApiDocument): ProvenanceProblem[] {
  const map = doc.info?.[SOURCES_KEY];
  const base = `#/info/${SOURCES_KEY}`;
  if (map === undefined) return [];
  if (!isObject(map))
    return [{ pointer: base, message: `must map each source id to { kind, title }, found ${shown(map)}` }];
  const problems: ProvenanceProblem[] = [];
  for (const [id, value] of Object.entries(map)) {
    const pointer = refOf(["info", SOURCES_KEY, id]);
    const say = (message: string) => problems.push({ pointer, message: `source ${id}: ${message}` });
    if (!isObject(value)) {
      say(`must be { kind, title }, found ${shown(value)}`);
      continue;
    }
    if (!SOURCE_KINDS.includes(value.kind as ProvenanceSource["kind"]))
      say(`kind must be one of ${SOURCE_KINDS.join(", ")}, found ${shown(value.kind)}`);
    if (!isText(value.title)) say(`title must be a non-empty string, found ${shown(value.title)}`);
    for (const extra of Object.keys(value).filter((name) => name !== "kind" && name !== "title"))
      say(`has the unknown key "${extra}" (a source has only kind and title)`);
  }
  return problems;
}

/**
 * What is wrong with one `{ sources, fact }` object of a sourced marker (`known`: the declared source ids), each
 * problem with the tokens of its place inside the item (a wrong source id: its place in `sources`).
 */
function sourcedItemProblems(item: unknown, known: ReadonlySet<string>): Array<{ at: string[]; message: string }> {
  if (!isObject(item))
    return [{ at: [], message: `each item must be a { sources, fact } object, found ${shown(item)}` }];
  const problems: Array<{ at: string[]; message: string }> = [];
  const say = (message: string, at: string[] = []) => problems.push({ at, message });
  if (!isText(item.fact)) say(`needs a fact (one sentence), found ${shown(item.fact)}`);
  const sources = item.sources;
  if (!Array.isArray(sources) || sources.length === 0 || !sources.every(isText)) {
    say(`needs sources: a non-empty list of source ids, found ${shown(sources)}`);
  } else {
    const declared = [...known].join(", ") || "none";
    for (const [i, id] of sources.entries()) {
      const at = ["sources", String(i)];
      if (!known.has(id)) say(`names the unknown source "${id}" (info.${SOURCES_KEY} declares: ${declared})`, at);
      else if (sources.indexOf(id) !== i) say(`names the source "${id}" twice`, at);
    }
  }
  for (const extra of Object.keys(item).filter((name) => name !== "sources" && name !== "fact"))
    say(`has the unknown key "${extra}" (a marker item has only sources and fact)`);
  return problems;
}

/**
 * What is wrong with one marker `key`'s value (`known`: the declared source ids), each problem at the pointer of
 * the marker (`at`, its tokens), of its faulty item, or of a wrong source id in the item.
 */
export function markerProblems(
  key: ProvenanceKey,
  value: unknown,
  known: ReadonlySet<string>,
  at: readonly string[] = [key],
): ProvenanceProblem[] {
  const here = refOf(at);
  if (!isSourcedKey(key)) {
    const texts = Array.isArray(value) ? value : [value];
    if (texts.length > 0 && texts.every(isText)) return [];
    return [{ pointer: here, message: `${key} must be a non-empty string or a non-empty list of them` }];
  }
  if (!Array.isArray(value) || value.length === 0)
    return [{ pointer: here, message: `${key} must be a non-empty list of { sources, fact }, found ${shown(value)}` }];
  return value.flatMap((item, i) =>
    sourcedItemProblems(item, known).map((problem) => ({
      pointer: refOf([...at, String(i), ...problem.at]),
      message: problem.message,
    })),
  );
}

/**
 * Every marker (and `info.x-sources`) of the document that is not as the format says: the one check, run by the
 * build and by `npm run lint`. Empty when the document is right.
 */
export function provenanceProblems(doc: OpenApiDocument): ProvenanceProblem[] {
  const known = new Set(declaredSources(doc).map((source) => source.id));
  const problems = sourcesProblems(doc);
  const keys = PROVENANCE_KINDS.map((kind) => kind.key);
  walkMarkers(doc, keys, (key, value, segments) => {
    problems.push(...markerProblems(key as ProvenanceKey, value, known, [...segments, key]));
  });
  return problems;
}

/** Each declared source with the number of distinct places whose markers name it. */
function sourceUses(doc: OpenApiDocument, kinds: ProvenanceRegister["kinds"]): SourceUse[] {
  return declaredSources(doc).map((source) => {
    const places = new Set(
      kinds.flatMap((kind) => kind.entries.filter((e) => e.sources?.includes(source.id)).map((e) => e.pointer)),
    );
    return { ...source, elements: places.size };
  });
}

/**
 * The register: every source with its count, every kind with its markers. Throws, naming each pointer, when a
 * marker or `info.x-sources` is not as the format says (so the build refuses it).
 */
export function collectProvenance(doc: OpenApiDocument): ProvenanceRegister {
  const problems = provenanceProblems(doc);
  if (problems.length) {
    const lines = problems.map((problem) => `  ${problem.pointer}: ${problem.message}`);
    throw new Error(`provenance: ${problems.length} marker problem(s):\n${lines.join("\n")}`);
  }
  const kinds = PROVENANCE_KINDS.map((kind) => ({ ...kind, entries: collectMarkers(doc, kind.key) }));
  return { sources: sourceUses(doc, kinds), kinds };
}

/** The titles of an entry's sources (its ids where a title is missing), for a reader. */
export function sourceTitles(entry: ProvenanceEntry, sources: readonly ProvenanceSource[]): string[] {
  return (entry.sources ?? []).map((id) => sources.find((source) => source.id === id)?.title ?? id);
}
