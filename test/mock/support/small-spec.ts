// A small contract of the mock's tests (refusals, CORS, Prefer, Prism's answers): query parameters whose schema
// refuses an empty value and ones that accept it, an optional JSON body answered with text, a JSON null answer,
// an example that breaks its schema, and a 4XX without a body.
import type { OpenApiDocument } from "../../../src/openapi/index.js";
import { json } from "../../support/media.js";

const query = (name: string, schema: object) => ({ name, in: "query", schema });

/** Query parameters whose schema refuses an empty value (the mock answers 422 itself), and ones that accept it. */
export const REFUSE_EMPTY = {
  constX: { const: "x" },
  integer: { type: "integer" },
  minLength: { type: "string", minLength: 1 },
  pattern: { type: "string", pattern: "^a" },
  viaRef: { $ref: "#/components/schemas/NonEmpty" },
  enumAB: { enum: ["a", "b"] },
};
export const ACCEPT_EMPTY = {
  constEmpty: { const: "" },
  nullable: { type: ["string", "null"] },
  minLength0: { type: "string", minLength: 0 },
  anything: { type: "string", pattern: ".*" },
  enumWithEmpty: { enum: ["", "a"] },
  untyped: {},
};

export function smallSpec(): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "Small", version: "1.0.0" },
    servers: [{ url: "http://127.0.0.1:4010/v1" }],
    components: { schemas: { NonEmpty: { type: "string", minLength: 1 } } },
    paths: {
      "/items": {
        get: {
          operationId: "listItems",
          parameters: Object.entries({ ...REFUSE_EMPTY, ...ACCEPT_EMPTY }).map(([name, schema]) => query(name, schema)),
          responses: {
            "200": {
              description: "ok",
              ...json(
                {
                  type: "object",
                  required: ["n"],
                  properties: { n: { type: "integer", minimum: 1000, maximum: 1000000000 } },
                },
                { n: 1 },
              ),
            },
            "4XX": { description: "refused, no body" },
          },
        },
      },
      "/notes": {
        post: {
          operationId: "addNote",
          requestBody: { required: false, ...json({ type: "object" }, {}) },
          responses: {
            "201": { description: "text", content: { "text/plain": { schema: { type: "string" }, example: "hello" } } },
            "4XX": { description: "refused", ...json({ type: "object" }, { message: "no" }) },
          },
        },
      },
      "/null": {
        get: {
          operationId: "nothing",
          responses: { "200": { description: "JSON null", ...json({ type: "null" }, null) } },
        },
      },
      "/broken": {
        get: {
          operationId: "broken",
          responses: {
            "200": {
              description: "its example breaks its schema",
              ...json({ type: "object", required: ["n"], properties: { n: { type: "integer" } } }, { n: "x" }),
            },
          },
        },
      },
    },
  };
}
