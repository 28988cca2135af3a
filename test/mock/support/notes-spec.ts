// The small contract the mock's edge tests run on: GET /notes (query `kind`: a or b) and POST /notes, each
// with a JSON 4XX refusal, plus whatever paths a test adds.
import type { OpenApiDocument } from "../../../src/openapi/index.js";
import { json } from "../../support/media.js";

export const refused = { description: "refused", ...json({ type: "object" }, { message: "no" }) };

export function notesSpec(options: {
  bodyRequired: boolean;
  paths?: Record<string, object>;
  notes?: Record<string, object>;
}): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "Notes", version: "1.0.0" },
    servers: [{ url: "http://127.0.0.1:4010/v1" }],
    paths: {
      "/notes": {
        get: {
          operationId: "listNotes",
          parameters: [{ name: "kind", in: "query", schema: { enum: ["a", "b"] } }],
          responses: { "200": { description: "ok", ...json({ type: "array" }, []) }, "4XX": refused },
        },
        post: {
          operationId: "addNote",
          requestBody: { required: options.bodyRequired, ...json({ type: "object" }, {}) },
          responses: { "201": { description: "added", ...json({ type: "object" }, { id: "n1" }) }, "4XX": refused },
        },
        ...options.notes,
      },
      ...options.paths,
    },
  } as OpenApiDocument;
}
