// Mutants of the documented success responses: each breaks the contract in exactly one way.
// They are derived from the spec's examples and schemas (walked, not hand-listed per operation).
import type { OpenApiDocument, ViolationKind } from "../../../src/contract/index.js";
import { setAt, walk, type FieldEntry } from "./schema-walk.js";
import {
  buildSampleRequest,
  deref,
  isObject,
  jsonMedia,
  listSpecOperations,
  mediaExamples,
  successKey,
  type JsonObject,
  type SampleRequest,
  type SpecOperation,
} from "../../support/spec.js";

export interface CannedResponse {
  status: number;
  headers: Record<string, string>;
  bodyText: string;
}

export interface Mutant {
  id: string;
  kind: string;
  operation: SpecOperation;
  request: SampleRequest;
  response: CannedResponse;
  description: string;
  /** The violation the validator must report for this mutant. */
  expected: { kind: ViolationKind; pointer?: string; pointerPrefix?: string };
}

interface Original {
  id: string;
  operation: SpecOperation;
  request: SampleRequest;
  response: CannedResponse;
  exampleName: string;
}

/** Header name → example value, for a response object. */
function headerExamples(
  spec: OpenApiDocument,
  response: JsonObject,
): Array<{ name: string; required: boolean; type: unknown; value: string }> {
  return Object.entries(isObject(response.headers) ? response.headers : {}).map(([name, raw]) => {
    const header = deref(spec, raw) as JsonObject;
    const schema = deref(spec, header.schema) as JsonObject | undefined;
    const example =
      header.example ?? schema?.example ?? (Array.isArray(schema?.examples) ? schema.examples[0] : undefined);
    if (example === undefined) throw new Error(`header ${name} has no example`);
    return { name: name.toLowerCase(), required: header.required === true, type: schema?.type, value: String(example) };
  });
}

function cannedFrom(
  spec: OpenApiDocument,
  op: SpecOperation,
  key: string,
  statusOverride?: number,
): { response: CannedResponse; exampleName: string; body: unknown } {
  const response = op.responses[key];
  if (!response) throw new Error(`${op.operationId}: no response ${key}`);
  const media = jsonMedia(response);
  const mediaType = Object.keys((response.content as JsonObject | undefined) ?? {})[0];
  const examples = mediaExamples(spec, media);
  // The richest example (most values), so that every kind of field has a chance to appear.
  const schema = media?.schema;
  const best = examples
    .map((e) => ({ ...e, size: walk(spec, schema, e.value).length }))
    .sort((a, b) => b.size - a.size)[0];
  if (!best || !mediaType) throw new Error(`${op.operationId} ${key}: no JSON example`);
  const headers: Record<string, string> = { "content-type": mediaType };
  for (const h of headerExamples(spec, response)) headers[h.name] = h.value;
  const status = statusOverride ?? (/^\d{3}$/.test(key) ? Number(key) : Number(`${key[0]}00`));
  return {
    response: { status, headers, bodyText: JSON.stringify(best.value) },
    exampleName: best.name,
    body: best.value,
  };
}

function statusDocumented(op: SpecOperation, status: number): boolean {
  const keys = Object.keys(op.responses).map((k) => k.toUpperCase());
  return keys.includes(String(status)) || keys.includes(`${String(status)[0]}XX`) || keys.includes("DEFAULT");
}

function preferData(entries: FieldEntry[]): FieldEntry[] {
  // Values inside data that a schema describes: where data's shape is not declared, nothing in it can be wrong.
  const inData = entries.filter((e) => e.pointer.startsWith("/data/") && e.schemas.length > 0);
  return inData.length ? inData : entries.filter((e) => e.pointer !== "");
}

export function buildMutants(spec: OpenApiDocument): { originals: Original[]; mutants: Mutant[] } {
  const operations = listSpecOperations(spec);
  const originals: Original[] = [];
  const mutants: Mutant[] = [];
  const metaExamples: Array<{ operationId: string; meta: JsonObject }> = [];
  const prepared = operations.map((op, index) => {
    const key = successKey(op);
    const { response, exampleName, body } = cannedFrom(spec, op, key);
    const request = buildSampleRequest(spec, op);
    const schema = jsonMedia(op.responses[key])?.schema;
    if (isObject(body) && isObject(body.meta)) metaExamples.push({ operationId: op.operationId, meta: body.meta });
    originals.push({ id: `original:${op.operationId}`, operation: op, request, response, exampleName });
    return { op, index, key, response, body, schema, request };
  });

  for (const { op, index, key, response, body, schema, request } of prepared) {
    const entries = walk(spec, schema, body);
    const add = (kind: string, description: string, changed: Partial<CannedResponse>, expected: Mutant["expected"]) => {
      mutants.push({
        id: `${kind}:${op.operationId}`,
        kind,
        operation: op,
        request,
        response: { ...response, ...changed, headers: changed.headers ?? response.headers },
        description,
        expected,
      });
    };
    const withBody = (value: unknown) => ({ bodyText: JSON.stringify(value) });

    const required = preferData(entries.filter((e) => e.required));
    const requiredPick = [...required].sort((a, b) => b.pointer.split("/").length - a.pointer.split("/").length)[0];
    if (requiredPick)
      add(
        "required-field-removed",
        `removed ${requiredPick.pointer}`,
        withBody(setAt(body, requiredPick.pointer, undefined, true)),
        {
          kind: "body-schema",
          pointer: requiredPick.pointer,
        },
      );

    const numberPick = preferData(entries).find(
      (e) => typeof e.value === "number" && e.facts.types !== undefined && !e.facts.types.has("string"),
    );
    if (numberPick)
      add(
        "number-as-string",
        `${numberPick.pointer} sent as a string`,
        withBody(setAt(body, numberPick.pointer, String(numberPick.value))),
        {
          kind: "body-schema",
          pointer: numberPick.pointer,
        },
      );

    const nullPick = preferData(entries).find((e) => e.value !== null && !e.facts.nullable);
    if (nullPick)
      add("null-not-nullable", `${nullPick.pointer} set to null`, withBody(setAt(body, nullPick.pointer, null)), {
        kind: "body-schema",
        pointer: nullPick.pointer,
      });

    const enumPick = preferData(entries).find((e) => e.facts.closedEnum !== undefined && typeof e.value === "string");
    if (enumPick) {
      let outside = `${String(enumPick.value)}_UNDOCUMENTED`;
      while (enumPick.facts.closedEnum!.includes(outside)) outside += "_";
      add("enum-outside", `${enumPick.pointer} = ${outside}`, withBody(setAt(body, enumPick.pointer, outside)), {
        kind: "body-schema",
        pointer: enumPick.pointer,
      });
    }

    const datePick = preferData(entries).find((e) => e.facts.format === "date-time" && typeof e.value === "string");
    if (datePick)
      add(
        "date-time-invalid",
        `${datePick.pointer} not a date-time`,
        withBody(setAt(body, datePick.pointer, "22/11/2026 10:00")),
        {
          kind: "body-schema",
          pointer: datePick.pointer,
        },
      );

    const booleanPick = preferData(entries).find(
      (e) => typeof e.value === "boolean" && e.facts.types !== undefined && !e.facts.types.has("string"),
    );
    if (booleanPick)
      add(
        "boolean-as-string",
        `${booleanPick.pointer} sent as a string`,
        withBody(setAt(body, booleanPick.pointer, String(booleanPick.value))),
        {
          kind: "body-schema",
          pointer: booleanPick.pointer,
        },
      );

    if (isObject(body) && "data" in body) {
      add("envelope-dropped", "data sent without the envelope", withBody(body.data), { kind: "body-schema" });
      const data = body.data;
      // Where no source declares the shape of data (any JSON is accepted), no type of it is wrong.
      const dataTyped = entries.find((e) => e.pointer === "/data")?.facts.types !== undefined;
      if (dataTyped)
        add(
          "data-wrong-type",
          "data of the wrong JSON type",
          withBody({ ...body, data: Array.isArray(data) ? { ...data } : [data] }),
          {
            kind: "body-schema",
            pointerPrefix: "/data",
          },
        );
    }

    if (isObject(body) && isObject(body.meta)) {
      const ownKeys = Object.keys(body.meta).sort().join(",");
      const other = metaExamples.find((m) => Object.keys(m.meta).sort().join(",") !== ownKeys);
      const wrongMeta = other
        ? other.meta
        : Object.fromEntries(Object.entries(body.meta).map(([k, v]) => [`${k}X`, v]));
      add(
        "meta-wrong-shape",
        other ? `meta of ${other.operationId}` : "meta keys renamed",
        withBody({ ...body, meta: wrongMeta }),
        {
          kind: "body-schema",
          pointerPrefix: "/meta",
        },
      );
    }

    const headers = headerExamples(spec, op.responses[key]!);
    const requiredHeaders = headers.filter((h) => h.required);
    const missing = requiredHeaders[index % Math.max(1, requiredHeaders.length)];
    if (missing) {
      const { [missing.name]: _dropped, ...rest } = response.headers;
      add(
        "rate-limit-header-missing",
        `${missing.name} missing`,
        { headers: rest },
        { kind: "missing-header", pointer: `/${missing.name}` },
      );
    }
    const integerHeaders = headers.filter((h) => h.type === "integer");
    const notInteger = integerHeaders[index % Math.max(1, integerHeaders.length)];
    if (notInteger) {
      add(
        "rate-limit-header-not-integer",
        `${notInteger.name} = 12.5`,
        { headers: { ...response.headers, [notInteger.name]: "12.5" } },
        { kind: "invalid-header", pointer: `/${notInteger.name}` },
      );
    }

    add(
      "content-type-html",
      "served as text/html",
      { headers: { ...response.headers, "content-type": "text/html; charset=utf-8" } },
      { kind: "undocumented-content-type" },
    );

    const undocumented = [201, 202, 203, 206, 207, 208, 226].find((status) => !statusDocumented(op, status));
    if (undocumented)
      add("undocumented-status", `status ${undocumented}`, { status: undocumented }, { kind: "undocumented-status" });

    const serverErrorKey = ["500", "5XX", "default"].find((k) => k in op.responses);
    if (serverErrorKey) {
      const { response: errorResponse } = cannedFrom(spec, op, serverErrorKey, 500);
      add("server-error-500", "a documented 500 instead of the success response", errorResponse, {
        kind: "unexpected-status",
      });
    } else {
      add("server-error-500", "an undocumented 500", { status: 500 }, { kind: "undocumented-status" });
    }
  }
  return { originals, mutants };
}
