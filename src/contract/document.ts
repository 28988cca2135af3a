// Reading an OpenAPI 3.1 document: local $refs, operations, path matching, server base paths.
import type { OpenApiDocument } from "./types.js";

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The value a local `#/…` reference points to, or undefined. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const tokens = ref
    .slice(1)
    .split("/")
    .slice(1)
    .map((t) => unescapePointerToken(decodeURIComponent(t)));
  let current: unknown = document;
  for (const token of tokens) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isObject(current)) current = current[token];
    else return undefined;
  }
  return current;
}

/** Follows `$ref` chains of a non-schema object (response, header, parameter, request body). */
export function deref<T = JsonObject>(document: unknown, value: unknown, depth = 0): T | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.$ref === "string") {
    if (depth > 32) throw new Error(`contract: $ref chain too deep at ${value.$ref}`);
    const target = resolvePointer(document, value.$ref);
    if (target === undefined) throw new Error(`contract: unresolvable $ref ${value.$ref}`);
    return deref<T>(document, target, depth + 1);
  }
  return value as T;
}

export interface OperationEntry {
  key: string;
  method: string;
  path: string;
  operationId: string | undefined;
  operation: JsonObject;
  /** Path-level and operation-level parameters, dereferenced (operation-level wins). */
  parameters: JsonObject[];
  segments: Array<{ literal: string } | { param: string }>;
}

export function listOperations(document: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    const pathItem = deref(document, rawItem);
    if (!pathItem) continue;
    const shared = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
    for (const method of HTTP_METHODS) {
      const operation = deref(document, pathItem[method]);
      if (!operation) continue;
      const own = Array.isArray(operation.parameters) ? operation.parameters : [];
      const byKey = new Map<string, JsonObject>();
      for (const raw of [...shared, ...own]) {
        const parameter = deref(document, raw);
        if (parameter) byKey.set(`${String(parameter.in)}:${String(parameter.name)}`, parameter);
      }
      entries.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        operationId: typeof operation.operationId === "string" ? operation.operationId : undefined,
        operation,
        parameters: [...byKey.values()],
        segments: splitPath(path).map((segment) => {
          const match = /^\{([^}]+)\}$/.exec(segment);
          return match ? { param: match[1]! } : { literal: segment };
        }),
      });
    }
  }
  return entries;
}

function splitPath(path: string): string[] {
  return path.split("/").filter((segment, index) => index > 0 || segment !== "");
}

/** Path part of each server URL (variables replaced by their defaults), longest first, without "/". */
export function serverBasePaths(document: OpenApiDocument): string[] {
  const paths = new Set<string>();
  for (const server of document.servers ?? []) {
    let url = server.url;
    for (const [name, variable] of Object.entries(server.variables ?? {})) {
      url = url.split(`{${name}}`).join(variable.default);
    }
    let pathname: string;
    try {
      pathname = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? new URL(url).pathname : url;
    } catch {
      continue;
    }
    const normalized = normalizePath(pathname);
    if (normalized !== "/") paths.add(normalized);
  }
  return [...paths].sort((a, b) => b.length - a.length);
}

/** Path without scheme/host, query, fragment or trailing slash. */
export function normalizePath(input: string): string {
  let path = input;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) path = new URL(path).pathname;
  path = path.replace(/[?#].*$/, "");
  if (!path.startsWith("/")) path = `/${path}`;
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return path;
}

/**
 * Finds the operation for a method and a path (templated or concrete, with or without a base
 * path). A literal segment beats a template segment at the first position where they differ,
 * so `/collections/customers/me` is not taken for `/collections/customers/{id}`.
 */
export class OperationMatcher {
  private readonly byMethod = new Map<string, OperationEntry[]>();
  private readonly exact = new Map<string, OperationEntry>();

  constructor(
    operations: OperationEntry[],
    private readonly basePaths: string[],
  ) {
    for (const entry of operations) {
      const list = this.byMethod.get(entry.method) ?? [];
      list.push(entry);
      this.byMethod.set(entry.method, list);
      this.exact.set(entry.key, entry);
    }
  }

  /** Lookups memoized per method, then per raw path (no key string built per call). */
  private readonly memo = new Map<string, Map<string, OperationEntry | null>>();
  private memoSize = 0;

  find(method: string, rawPath: string): OperationEntry | undefined {
    let byPath = this.memo.get(method);
    const memoized = byPath?.get(rawPath);
    if (memoized !== undefined) return memoized ?? undefined;
    const found = this.lookup(method, rawPath);
    if (this.memoSize >= 2000) {
      // concrete paths vary by id: keep the memo bounded
      this.memo.clear();
      this.memoSize = 0;
      byPath = undefined;
    }
    if (!byPath) {
      byPath = new Map();
      this.memo.set(method, byPath);
    }
    byPath.set(rawPath, found ?? null);
    this.memoSize++;
    return found;
  }

  private lookup(method: string, rawPath: string): OperationEntry | undefined {
    const upper = method.toUpperCase();
    const path = normalizePath(rawPath);
    const candidates: string[] = [];
    for (const base of this.basePaths) {
      if (path === base) candidates.push("/");
      else if (path.startsWith(`${base}/`)) candidates.push(path.slice(base.length));
    }
    candidates.push(path);
    for (const candidate of candidates) {
      const exact = this.exact.get(`${upper} ${candidate}`);
      if (exact) return exact;
    }
    for (const candidate of candidates) {
      const found = this.matchConcrete(upper, candidate);
      if (found) return found;
    }
    return undefined;
  }

  private matchConcrete(method: string, path: string): OperationEntry | undefined {
    const segments = splitPath(path);
    let best: OperationEntry | undefined;
    let bestScore = "";
    for (const entry of this.byMethod.get(method) ?? []) {
      if (entry.segments.length !== segments.length) continue;
      let score = "";
      let matches = true;
      for (let i = 0; i < segments.length; i++) {
        const expected = entry.segments[i]!;
        const actual = segments[i]!;
        if ("literal" in expected) {
          if (expected.literal !== actual) {
            matches = false;
            break;
          }
          score += "1";
        } else {
          if (actual === "") {
            matches = false;
            break;
          }
          score += "0";
        }
      }
      if (matches && (best === undefined || score > bestScore)) {
        best = entry;
        bestScore = score;
      }
    }
    return best;
  }
}
