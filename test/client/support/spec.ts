// Reads values from generated/openapi.json (never copied by hand into tests).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

type Json = Record<string, any>;
export const spec: Json = JSON.parse(readFileSync(path.join(repoRoot, "generated", "openapi.json"), "utf8"));

export function resolveRef<T = Json>(value: Json): T {
  let current = value;
  for (let depth = 0; current && typeof current.$ref === "string" && depth < 16; depth++) {
    current = current.$ref.slice(2).split("/").reduce((node: Json, key: string) => node[key.replace(/~1/g, "/").replace(/~0/g, "~")], spec);
  }
  return current as T;
}

export interface SpecOperation {
  method: string;
  path: string;
  operationId: string;
  operation: Json;
}

export function specOperations(): SpecOperation[] {
  const out: SpecOperation[] = [];
  for (const [route, item] of Object.entries<Json>(spec.paths)) {
    for (const method of ["get", "put", "post", "delete", "patch"]) {
      if (item[method]) out.push({ method: method.toUpperCase(), path: route, operationId: item[method].operationId, operation: item[method] });
    }
  }
  return out;
}

/** The first example value of an operation's 200 JSON response. */
export function successExample(operationId: string): Json {
  const op = specOperations().find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  const media = resolveRef(op.operation.responses["200"]).content["application/json"];
  if (media.example !== undefined) return media.example;
  const first = Object.values<Json>(media.examples ?? {})[0];
  if (!first) throw new Error(`no example for ${operationId}`);
  return resolveRef(first).value;
}
