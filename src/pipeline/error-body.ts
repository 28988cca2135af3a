// The body of every error the mock and the ./msw handlers answer with findings about the request (their own
// refusals, and Prism's, such as an unknown Prefer example): the error body the service's Errors page
// publishes, the contract's `ErrorBody` (property names checked against the generated types). Its `message`
// says what went wrong; `errors` holds one item per finding, with the finding's message and, where the
// finding has a place, `property`: a JSON pointer into the request body (`/amount`), or the name of a query,
// path or header parameter. The same findings go into the `sl-violations` header, as before.
//
// The body is written only where the contract documents a JSON error answer for the status whose schema
// takes it (any contract can be served); elsewhere the documented example stays the answer, as before.
import type { ValidateFunction } from "ajv/dist/2020.js";
import type { components } from "../../generated/schema.js";
import { SchemaCompiler } from "../contract/schemas.js";
import { escapePointerToken, isJsonMediaType, isObject, type OpenApiDocument } from "../openapi/document.js";

/** The published error body: the object branch of `ErrorBody` (which also lets other JSON types pass). */
type ErrorBody = Extract<components["schemas"]["ErrorBody"], { message: string }>;
type ErrorFinding = NonNullable<ErrorBody["errors"]>[number];

/** A finding about a request as the pipeline keeps it (Prism's shape: location `request`, `body`|`query`|…). */
interface RequestFinding {
  location: string[];
  message: string;
}

/** An error answer as documented: its body, its content type and the schema of that body (if any). */
interface DocumentedError {
  body: unknown;
  contentType: string | undefined;
  schema: unknown;
}

/** Where a parameter finding is located (Prism's words): the parameter's name is the next token. */
const PARAMETER_PLACES = new Set(["query", "path", "header"]);

/** The `property` of a finding: a JSON pointer into the body, a parameter's name, or none. */
function propertyOf(location: readonly string[]): string | undefined {
  const [request, place, ...rest] = location;
  if (request !== "request" || place === undefined) return undefined;
  if (place === "body") return rest.length ? rest.map((token) => `/${escapePointerToken(token)}`).join("") : undefined;
  return PARAMETER_PLACES.has(place) && rest[0] !== undefined ? rest[0] : undefined;
}

/** The published error body of `message` and `findings`. */
function errorBodyOf(message: string, findings: readonly RequestFinding[]): ErrorBody {
  const errors = findings.map((finding): ErrorFinding => {
    const property = propertyOf(finding.location);
    return property === undefined ? { message: finding.message } : { message: finding.message, property };
  });
  return { message, errors };
}

export interface ErrorBodies {
  /**
   * The body of an error answer documented as `documented`: the published error body of `message` and
   * `findings` where the documented body is JSON and its schema takes that body, else the documented body.
   */
  of(documented: DocumentedError, message: string, findings: readonly RequestFinding[]): unknown;
}

export function createErrorBodies(spec: OpenApiDocument): ErrorBodies {
  let compiler: SchemaCompiler | undefined;
  const validators = new WeakMap<object, ValidateFunction>();
  let compiled = 0;
  /** Whether `schema` takes `body` (a schema that is not an object, e.g. `true`, is compiled as such). */
  const takes = (schema: unknown, body: unknown): boolean => {
    if (!isObject(schema)) return schema === true;
    let validate = validators.get(schema);
    if (!validate) {
      compiler ??= new SchemaCompiler(spec);
      validate = compiler.compile(`error body ${compiled++}`, schema).fast;
      validators.set(schema, validate);
    }
    return validate(body) === true;
  };
  return {
    of(documented, message, findings) {
      if (!isJsonMediaType(documented.contentType) || documented.schema === undefined) return documented.body;
      const body = errorBodyOf(message, findings);
      return takes(documented.schema, body) ? body : documented.body;
    },
  };
}
