// A response's content against what its status documents: a body only where one is documented, a documented
// Content-Type, JSON text that parses (without a byte-order mark), a body where one is documented, valid by the
// media type's schema, and in strict mode the fields no schema documents.
import { isJsonMediaType, mediaTypeOf, type OpenApiDocument } from "../openapi/document.js";
import { readHeader } from "./headers.js";
import type { ResponseCheck } from "./response-check.js";
import { contentFor, type ResolvedContent, type ResolvedResponse } from "./responses.js";
import { type SchemaCompiler, schemaErrors } from "./schemas.js";
import { findUndocumentedFields } from "./undocumented.js";

/** What the body checks need of the validator: its document, its compiled schemas and whether it is strict. */
export interface BodyContext {
  document: OpenApiDocument;
  compiler: SchemaCompiler;
  strict: boolean;
}

/** RFC 8259 §8.1: a JSON text's sender must not add a byte-order mark. */
const BYTE_ORDER_MARK = "\uFEFF";

/** The body as a value: the JSON text parsed (`parsed: false` when it does not parse), other text as it is. */
function bodyValue(check: ResponseCheck, mediaType: string): { parsed: boolean; body: unknown } {
  const { body, bodyText } = check.input;
  if (bodyText === undefined) return { parsed: true, body };
  if (!isJsonMediaType(mediaType)) return { parsed: true, body: bodyText };
  let text = bodyText;
  if (text.startsWith(BYTE_ORDER_MARK)) {
    const tail = "body begins with a byte-order mark (U+FEFF), which RFC 8259 forbids a sender to add";
    check.add("invalid-json", "body", "", tail);
    text = text.slice(BYTE_ORDER_MARK.length); // the rest is still checked
  }
  try {
    return { parsed: true, body: text.length ? JSON.parse(text) : undefined };
  } catch (error) {
    check.add("invalid-json", "body", "", `body is not valid JSON (${(error as Error).message})`);
    return { parsed: false, body: undefined };
  }
}

/** The body against the documented media type's schema; in strict mode, then its undocumented fields. */
function checkBody(check: ResponseCheck, content: ResolvedContent, mediaType: string, context: BodyContext): void {
  const { parsed, body } = bodyValue(check, mediaType);
  if (!parsed) return;
  if (body === undefined) {
    check.add("body-schema", "body", "", "body is empty, but the spec documents one");
    return;
  }
  content.compiled ??= context.compiler.compile(content.cacheKey, content.schema);
  if (!content.compiled.fast(body)) {
    for (const error of schemaErrors(content.compiled, body))
      check.add("body-schema", "body", error.pointer, error.message);
  }
  if (context.strict && check.violations.length === 0) {
    findUndocumentedFields(context.document, content.schema, body, "", check.warnings);
  }
}

const documentedTypes = (resolved: ResolvedResponse): string => resolved.content.map((c) => c.mediaType).join(", ");

/** The response's Content-Type and body against the documented content of its status. */
export function checkContent(check: ResponseCheck, resolved: ResolvedResponse, context: BodyContext): void {
  const { input } = check;
  const mediaType = mediaTypeOf(readHeader(input.headers, "content-type"));
  if (!resolved.content.length) {
    const hasBody = input.bodyText !== undefined ? input.bodyText.length > 0 : input.body !== undefined;
    if (hasBody) {
      check.add(
        "undocumented-content-type",
        "headers",
        "/content-type",
        "the spec documents no body, but the response has one",
      );
    }
    return;
  }
  if (!mediaType) {
    const tail = `Content-Type is missing (documented: ${documentedTypes(resolved)})`;
    check.add("undocumented-content-type", "headers", "/content-type", tail);
    return;
  }
  const content = contentFor(resolved, mediaType);
  if (!content) {
    const tail = `content type ${mediaType} is not documented (documented: ${documentedTypes(resolved)})`;
    check.add("undocumented-content-type", "headers", "/content-type", tail);
  } else if (content.schema !== undefined) checkBody(check, content, mediaType, context);
}
