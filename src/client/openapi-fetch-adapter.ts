// How a call goes through openapi-fetch, through its documented options only. Each call hands openapi-fetch:
// - its own `fetch`: a closure over the call that runs every attempt and reads the body inside it (attempts.ts);
// - the body already serialized, with an identity `bodySerializer`, so every attempt sends the same bytes;
// - `parseAs: "stream"`, so openapi-fetch never reads a success body: the attempts have read and parsed it.
// Middleware registered with `use()` (or per call) sees one request and the final response, as in openapi-fetch:
// such calls go through an openapi-fetch client that builds real Requests. The others go through one whose
// `Request` option is `UrlAndInit`, which keeps the URL and the RequestInit as given: building a real Request (its
// headers, body stream and signal) for a call only this client's fetch reads costs time on every call. This relies
// on openapi-fetch reading nothing of it but `method` (test/client/openapi-fetch-adapter.test.ts pins that).
import createOpenApiClient, { createQuerySerializer } from "openapi-fetch";
import { type BodyReading, type ReadAnswer, readReplacedBody } from "./body.js";
import type { RequestInfo } from "./errors.js";
import type { Redactor } from "./redact.js";
import { redactValue } from "./redact.js";
import { REQUEST_INFO } from "./unwrap.js";

const identity = (value: unknown) => value;

/** What openapi-fetch builds, through its `Request` option, for a call no middleware sees: the URL and the init. */
export class UrlAndInit {
  declare readonly method: string;
  constructor(
    readonly url: string,
    readonly init: RequestInit,
  ) {
    this.method = init.method!;
  }
}

/** One call, as the adapter sends it. */
export interface AdapterCall {
  method: string;
  /** The path as the caller gave it (a template, or a literal path). */
  path: string;
  /** The caller's options: openapi-fetch's own and this client's (it passes unknown ones on to its Request). */
  init: Record<string, unknown>;
  /** The body, already serialized (undefined for none). */
  body: unknown;
  info: RequestInfo;
  reading: BodyReading;
  /** Every attempt of the call, the body read inside the last one. */
  attempts(url: string, init: RequestInit): Promise<ReadAnswer>;
}

type Send = (
  method: string,
  path: string,
  init: unknown,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** The RequestInit of a Request a middleware handed on: what it says, body included (read once, sent every attempt). */
async function initOf(request: Request): Promise<RequestInit> {
  const { method, headers, redirect } = request;
  return { method, headers, redirect, body: request.body && (await request.arrayBuffer()) };
}

/** The openapi-fetch clients of one typed client, its registered middleware, and `send` for its calls. */
// biome-ignore lint/suspicious/noExplicitAny: the constraint openapi-fetch's own types use
export function createOpenApiFetchAdapter<Paths extends Record<string, any>>(
  baseUrl: string,
  headers: Record<string, string>,
  redact: Redactor,
) {
  // Made once: openapi-fetch would make one on every call without it.
  const querySerializer = createQuerySerializer();
  /** For calls that middleware sees: real Requests. */
  const withMiddleware = createOpenApiClient<Paths>({ baseUrl, headers, querySerializer });
  /** A call's facts, by the params object of its own that it hands `withMiddleware` (what onRequest is given). */
  const facts = new WeakMap<object, RequestInfo>();
  // The first middleware records the URL a call is made for: all ApiError.url can say when a later middleware
  // answers the call itself, sending nothing. The attempts record the URL they send.
  withMiddleware.use({
    onRequest({ params, request }) {
      facts.get(params)!.url = redact(request.url);
    },
  });
  const Request = UrlAndInit as unknown as typeof globalThis.Request;
  const direct = createOpenApiClient<Paths>({ baseUrl, headers, querySerializer, Request });
  /** Middleware registered with use() and not ejected. */
  const registered: unknown[] = [];
  return {
    use(...added: unknown[]) {
      (withMiddleware.use as (...m: unknown[]) => void)(...added);
      for (const m of added) if (m) registered.push(m);
    },
    eject(...removed: unknown[]) {
      (withMiddleware.eject as (...m: unknown[]) => void)(...removed);
      for (const m of removed) if (registered.includes(m)) registered.splice(registered.indexOf(m), 1);
    },
    /** Whether middleware sees a call with these options (registered, or its own). */
    seesMiddleware: (init: Record<string, unknown>) =>
      registered.length > 0 || Boolean((init.middleware as unknown[] | undefined)?.length),
    send: (call: AdapterCall) => send(call, call.reading.middlewareSees ? withMiddleware : direct, facts),
  };
}

/** Sends a call through `client`; the result openapi-fetch gives, with the network response and the parsed body. */
async function send(call: AdapterCall, client: { request: unknown }, facts: WeakMap<object, RequestInfo>) {
  const { init, reading, info } = call;
  const params = init.params as object | undefined;
  const callParams = reading.middlewareSees ? { ...params } : params;
  if (reading.middlewareSees) facts.set(callParams!, info);
  let answer: ReadAnswer | undefined;
  const attempts = async (request: Request | UrlAndInit) => {
    const requestInit = request instanceof UrlAndInit ? request.init : await initOf(request);
    answer = await call.attempts(request.url, requestInit);
    return answer.forOpenApiFetch;
  };
  // This client's options (timeoutMs, retry, maxResponseBytes) go to openapi-fetch too, which passes unknown
  // options on to its Request: harmless, and cheaper than copying the rest. The caller's signal stays here.
  const result = await (client.request as Send)(call.method, call.path, {
    ...init,
    signal: undefined,
    fetch: attempts,
    parseAs: "stream",
    body: call.body,
    bodySerializer: identity,
    params: callParams,
  });
  return resultOf(result, answer, reading);
}

/**
 * What the caller gets: for the answer the attempts read, the network response and the parsed body; for a response
 * a middleware answered with or replaced, its body read here. The error body is redacted before anyone sees it.
 */
async function resultOf(
  result: { data?: unknown; error?: unknown; response: Response },
  answer: ReadAnswer | undefined,
  reading: BodyReading,
) {
  const { response } = result;
  const fromAttempts = answer !== undefined && response === answer.forOpenApiFetch;
  const out = response.ok
    ? {
        data:
          reading.parseAs === "stream" || result.data == null
            ? result.data
            : fromAttempts
              ? answer.data
              : await readReplacedBody(response, reading),
        response,
      }
    : { error: redactValue(result.error, reading.redact), response };
  if (fromAttempts) out.response = answer.network;
  // Not enumerable: out of JSON and logs; found by unwrap() from any copy of this package.
  return Object.defineProperty(out, REQUEST_INFO, { value: reading.info });
}
