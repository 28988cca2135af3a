// The request pipeline's own refusals (pipeline.ts): what an answer source (Prism's engine, the documented
// examples) would answer wrongly or not at all, decided from the contract before any source sees the request
// (parameters, an empty value included, are the contract validator's, in the pipeline's next stage):
//   - a body that is malformed JSON or only whitespace (400), or a falsy JSON value (null, false, 0, "")
//     where the body is optional (422: Prism would take it for no body);
//   - a JSON body over FULL_REPORT_MAX_BYTES that does not match its schema (422 with its first violation,
//     body-check.ts: Prism would spend seconds collecting every violation of a large one);
//   - a body in a media type the operation does not take (415: Prism says so for the mock, the documented
//     examples would not, so ./msw and the mock differed);
//   - a multipart/form-data body that does not parse (400); its parts (multipartParts) are then the contract
//     validator's, as Prism judges them for the mock, so the sandbox and ./msw judge them too.
import { matchContent } from "../contract/responses.js";
import { isJsonMediaType, isObject, mediaTypeOf, multipartMedia, type Operation } from "../openapi/document.js";
import { type BodyCheck, FULL_REPORT_MAX_BYTES } from "./body-check.js";

/** Why a request is refused, and with which status. */
export interface Refusal {
  status: number;
  why: string;
}

/** A request body as the pipeline reads it: parsed JSON (`json`), the text of another media type, or none. */
type ParsedBody = { value: unknown; json: boolean } | Refusal;

/** `text` read as the body of a request with `contentType` to `operation`, or why it is refused. */
export function parseBody(operation: Operation, text: string, contentType: string | undefined): ParsedBody {
  if (text === "") return { value: undefined, json: false };
  if (!isJsonMediaType(contentType)) return { value: text, json: false };
  if (text.trim() === "") return { status: 400, why: "the JSON body is only whitespace" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { status: 400, why: `the body is not valid JSON (${(error as Error).message})` };
  }
  if (!value && operation.requestBody && operation.requestBody.required !== true)
    return { status: 422, why: 'a JSON body that is null, false, 0 or "" is not an absent body' };
  return { value, json: true };
}

/** Why a body sent as `contentType` is refused by `operation`: 415 when it documents other media types only. */
export function unsupportedMediaType(
  operation: Operation,
  text: string,
  contentType: string | undefined,
): Refusal | undefined {
  const content = operation.requestBody?.content;
  if (text === "" || !isObject(content)) return undefined;
  const documented = Object.keys(content).map((mediaType) => ({ mediaType }));
  const mediaType = mediaTypeOf(contentType);
  if (documented.length === 0 || (mediaType !== undefined && matchContent(documented, mediaType))) return undefined;
  const takes = documented.map((entry) => entry.mediaType).join(", ");
  const given = mediaType ?? "(none given)";
  return {
    status: 415,
    why: `the body's content type ${given} is not one of the operation's content types (${takes})`,
  };
}

const utf8 = new TextEncoder();

/**
 * Whether `text` is over `limit` bytes in UTF-8. A UTF-16 code unit takes 1 to 3 bytes, so only a text whose
 * length is near the limit is encoded (most bodies are a few hundred characters: none is).
 */
function overUtf8Bytes(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  return text.length * 3 > limit && utf8.encode(text).length > limit;
}

interface RequestChecks {
  /** Why the (large) body of a request to `operation` is refused, or undefined. */
  refusalOf(operation: Operation, body: { text: string; value: unknown }): Refusal | undefined;
}

export function createRequestChecks(bodyCheck: BodyCheck): RequestChecks {
  return {
    refusalOf(operation, body) {
      const large = overUtf8Bytes(body.text, FULL_REPORT_MAX_BYTES);
      if (!large || body.value === undefined || typeof body.value === "string") return undefined;
      const first = bodyCheck.firstViolation(operation, body.value);
      if (!first) return undefined;
      return {
        status: 422,
        why: `${first} (the body is over ${FULL_REPORT_MAX_BYTES} bytes: its first violation only)`,
      };
    },
  };
}

/**
 * The parts of a multipart/form-data body to `operation` by name, each as text (a file part's bytes read as UTF-8,
 * as Prism reads them; the last of a repeated name), parsed by the platform's own Fetch (Response.formData); or
 * why the body does not parse. Undefined for any other body, or an operation that takes no multipart body.
 */
export function multipartParts(
  operation: Operation,
  text: string,
  contentType: string | undefined,
): Promise<{ parts: Record<string, string> } | Refusal> | undefined {
  // Undefined at once, not a promise of it: most requests have no multipart body to wait for.
  if (text === "" || mediaTypeOf(contentType) !== "multipart/form-data" || !multipartMedia(operation.requestBody))
    return undefined;
  return formParts(text, contentType!);
}

/** The parts of a multipart/form-data body, or why it does not parse. */
async function formParts(text: string, contentType: string): Promise<{ parts: Record<string, string> } | Refusal> {
  let form: FormData;
  try {
    form = await new Response(text, { headers: { "content-type": contentType } }).formData();
  } catch (error) {
    return { status: 400, why: `the multipart/form-data body does not parse (${(error as Error).message})` };
  }
  const read: Array<Promise<readonly [string, string]>> = [];
  form.forEach((value, name) => {
    read.push(typeof value === "string" ? Promise.resolve([name, value]) : value.text().then((text) => [name, text]));
  });
  const entries = await Promise.all(read);
  // Object.fromEntries makes own entries, "__proto__" included.
  return { parts: Object.fromEntries(entries) };
}
