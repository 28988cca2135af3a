// Invalid requests derived from the spec's request body schemas and security: each breaks one rule.
import type { OpenApiDocument } from "../../../src/contract/index.js";
import { factsOf, flatten, objectShape } from "./schema-walk.js";
import { buildSampleRequest, requestBodySchema, type JsonObject, type SampleRequest, type SpecOperation } from "../../support/spec.js";

export interface NegativeCase {
  name: string;
  operation: SpecOperation;
  request: SampleRequest;
  /** Sent without the API key (the request must be refused for that reason). */
  withoutKey: boolean;
  /** Parsed body when it is JSON (so the test can check it really is invalid). */
  invalidBody: unknown;
}

/** Values of the wrong JSON type for a set of declared types. */
function wrongTypeValue(types: Set<string>): unknown {
  if (!types.has("string")) return `not-a-${[...types].join("-or-")}`;
  if (!types.has("number") && !types.has("integer")) return 12345;
  return { unexpected: true };
}

export function negativeCases(spec: OpenApiDocument, operations: SpecOperation[]): NegativeCase[] {
  const cases: NegativeCase[] = [];
  for (const op of operations) {
    const sample = buildSampleRequest(spec, op);
    if (op.security === "required") {
      cases.push({ name: `${op.operationId}: without API key`, operation: op, request: sample, withoutKey: true, invalidBody: undefined });
    }
    for (const parameter of op.parameters.filter((p) => p.in === "query")) {
      const facts = factsOf(flatten(spec, parameter.schema));
      const withQuery = (why: string, value: string) => {
        const url = new URL(sample.path, "http://placeholder");
        url.searchParams.set(String(parameter.name), value);
        cases.push({
          name: `${op.operationId}: query ${String(parameter.name)} ${why}`,
          operation: op,
          request: { ...sample, path: `${url.pathname}${url.search}` },
          withoutKey: false,
          invalidBody: undefined,
        });
      };
      if (facts.closedEnum) {
        let outside = "NOT_A_DOCUMENTED_VALUE";
        while (facts.closedEnum.includes(outside)) outside += "_";
        withQuery("outside its enum", outside);
      }
      if (facts.types && !facts.types.has("string") && facts.types.has("integer")) withQuery("of the wrong type", "not-a-number");
    }
    const schema = requestBodySchema(op);
    if (schema === undefined || sample.body === undefined) continue;
    const valid = JSON.parse(sample.body) as JsonObject;
    const shape = objectShape(spec, schema);
    const withBody = (name: string, body: unknown, text = JSON.stringify(body)) =>
      cases.push({ name: `${op.operationId}: ${name}`, operation: op, request: { ...sample, body: text }, withoutKey: false, invalidBody: body });
    for (const [property, schemas] of shape.properties) {
      const facts = factsOf(schemas);
      if (facts.closedEnum) {
        let outside = "NOT_A_DOCUMENTED_VALUE";
        while (facts.closedEnum.includes(outside)) outside += "_";
        withBody(`${property} outside its enum`, { ...valid, [property]: outside });
      }
      if (facts.types) withBody(`${property} of the wrong type`, { ...valid, [property]: wrongTypeValue(facts.types) });
    }
    for (const property of shape.required) {
      const { [property]: _removed, ...rest } = valid;
      withBody(`required ${property} missing`, rest);
    }
    if (shape.closed) withBody("an unknown field", { ...valid, unknownField: "x" });
    withBody("malformed JSON", undefined, `${sample.body.slice(0, Math.max(1, sample.body.length - 1))},`);
  }
  return cases;
}
