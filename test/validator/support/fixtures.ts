// Small contracts of the validator tests' own, for what the bundled spec does not hold: headers of every declared
// type, request bodies of every kind, refs into a component's inside; and one operation with three media types
// (one without a schema) and a status without a body.
import { createContractValidator } from "../../../src/contract/index.js";
import type { OpenApiDocument } from "../../../src/openapi/index.js";

const HEADERS = {
  "X-Int": { required: true, schema: { type: "integer" } },
  "X-Num": { schema: { type: "number" } },
  "X-Bool": { schema: { type: "boolean" } },
  "X-Int-Or-String": { schema: { type: ["integer", "string"], minimum: 0 } },
  "X-Num-Or-String": { schema: { type: ["number", "string"], minimum: 0 } },
  "X-Int-Or-Num": { schema: { type: ["integer", "number"], minimum: 0 } },
  "X-Bool-Or-Int": { schema: { type: ["boolean", "integer"] } },
  "X-Str": { schema: { type: "string", maxLength: 3 } },
  "X-Any": { schema: {} },
  "X-No-Schema": { description: "not checked" },
  "Content-Type": { schema: { const: "never checked here" } },
};

const REQUEST_BODY_PATHS = {
  "/body": {
    post: {
      operationId: "body",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: { type: "object", required: ["n"], properties: { n: { $ref: "#/components/x-shared/Count" } } },
          },
        },
      },
      responses: { "204": { description: "ok" } },
    },
  },
  "/optional": {
    post: {
      operationId: "optional",
      requestBody: { content: { "application/json": { schema: { type: "object" } } } },
      responses: { "204": { description: "ok" } },
    },
  },
  "/text": {
    post: {
      operationId: "text",
      requestBody: { required: true, content: { "text/plain": { schema: { type: "string" } } } },
      responses: { "204": { description: "ok" } },
    },
  },
  "/any": {
    post: {
      operationId: "anySchema",
      requestBody: { required: true, content: { "application/json": {} } },
      responses: { "204": { description: "ok" } },
    },
  },
  "/none": { post: { operationId: "noBody", responses: { "204": { description: "ok" } } } },
};

/**
 * GET /h answers headers of every declared type (X-Int required) and a Thing (`kind` a ref into another component's
 * inside, `version` a const); POST /body, /optional, /text, /any and /none take request bodies of every kind.
 */
export function smallSpec(): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "Small", version: "1.0.0" },
    servers: [{ url: "https://small.example.com/v1" }],
    components: {
      schemas: {
        Thing: {
          type: "object",
          properties: {
            id: { type: "string" },
            kind: { $ref: "#/components/schemas/Kinds/properties/k" },
            version: { $ref: "#/components/schemas/Fixed" },
          },
        },
        Kinds: { type: "object", properties: { k: { enum: ["a", "b"] } } },
        Fixed: { const: "v1" },
      },
      "x-shared": { Count: { type: "integer" } },
    },
    paths: {
      "/h": {
        get: {
          operationId: "headers",
          responses: {
            "200": {
              description: "ok",
              headers: HEADERS,
              content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
            },
          },
        },
      },
      ...REQUEST_BODY_PATHS,
    },
  } as OpenApiDocument;
}

/** The one header a GET /h 200 of smallSpec requires, with a valid value. */
export const OK_HEADERS = { "x-int": "1" };

/**
 * GET /a: 200 with four typed headers and application/json (`{ n: integer }` required), text/plain and text/csv
 * (no schema); 204 without a body.
 */
const MEDIA_TYPES_SPEC: OpenApiDocument = {
  openapi: "3.1.0",
  paths: {
    "/a": {
      get: {
        responses: {
          "200": {
            description: "ok",
            headers: {
              "X-Int": { schema: { type: "integer", minimum: 1 } },
              "X-Bool": { schema: { type: "boolean", const: true } },
              "X-Num": { schema: { type: "number" } },
              "X-Either": { schema: { type: ["integer", "string"] } },
            },
            content: {
              "application/json": {
                schema: { type: "object", required: ["n"], properties: { n: { type: "integer" } } },
              },
              "text/plain": { schema: { type: "string" } },
              "text/csv": {},
            },
          },
          "204": { description: "nothing" },
        },
      },
    },
  },
};

/**
 * Validates a GET /a of MEDIA_TYPES_SPEC. The validator is built per check, not while a file loads: Stryker links a
 * mutant to the tests that run its code.
 */
export function checkMediaTypes(
  status: number,
  input: { headers?: Record<string, string>; bodyText?: string; body?: unknown; expectSuccess?: boolean },
  strict = false,
) {
  return createContractValidator(MEDIA_TYPES_SPEC).validateResponse(
    { method: "GET", path: "/a", status, headers: new Headers(input.headers ?? {}), ...input },
    { strict },
  );
}
