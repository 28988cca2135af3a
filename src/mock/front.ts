// A thin node:http front for Prism, for two of its quirks. (1) Prism answers a malformed JSON body
// itself, before routing, with `400 {"error":{"code":"invalid_json"}}` and none of the documented
// response headers (so no rate-limit headers). (2) Where a request body is optional, Prism takes a
// falsy JSON body (null, false, 0, "") for no body and accepts it. This front answers such requests
// from the contract instead: the operation's documented 400 (malformed) or 422 (invalid) response,
// or its 4XX or default, with its example body and the examples of its headers. Every other request
// is passed to Prism unchanged.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { deref, type JsonObject, listOperations, namedExamples, type OpenApiDocument } from "../openapi/document.js";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

interface Route {
  method: string;
  pattern: RegExp;
  literalCount: number;
  bodyOptional: boolean;
  malformed: Answer | undefined;
  invalid: Answer | undefined;
}

/** The documented error answer (example body and header examples) for `status`, or undefined without an example. */
function documentedError(spec: OpenApiDocument, responses: Record<string, JsonObject>, status: number): Answer | undefined {
  const key = [String(status), "4XX", "4xx", "default"].find((k) => k in responses);
  if (!key) return undefined;
  const response = responses[key]!;
  const headers: Record<string, string> = {};
  for (const [name, rawHeader] of Object.entries((response.headers ?? {}) as JsonObject)) {
    const header = deref(spec, rawHeader);
    const schema = deref(spec, header?.schema);
    const example = header?.example ?? schema?.example ?? (Array.isArray(schema?.examples) ? schema.examples[0] : undefined);
    if (example !== undefined) headers[name.toLowerCase()] = String(example);
  }
  const [mediaType, media] = Object.entries((response.content ?? {}) as JsonObject)[0] ?? [];
  let body: unknown;
  if (mediaType && media) {
    const [first] = namedExamples(spec, media);
    body = first?.value ?? deref(spec, (media as JsonObject).schema)?.example;
    // No documented example: leave the request to Prism rather than invent a body.
    if (body === undefined) return undefined;
    headers["content-type"] = mediaType;
  }
  return { status, headers, body };
}

/**
 * Per operation of the mock spec (paths include the base path): the documented answers to a
 * malformed JSON body (400) and to a JSON body Prism would wrongly take for no body (422).
 */
export function errorRoutes(spec: OpenApiDocument): Route[] {
  const routes: Route[] = [];
  for (const operation of listOperations(spec)) {
    const pattern = new RegExp(
      `^${operation.path
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]+")}$`,
    );
    const literalCount = operation.segments.filter((segment) => "literal" in segment).length;
    const malformed = documentedError(spec, operation.responses, 400);
    const invalid = documentedError(spec, operation.responses, 422);
    if (!malformed && !invalid) continue;
    const bodyOptional = operation.requestBody !== undefined && operation.requestBody.required !== true;
    routes.push({ method: operation.method, pattern, literalCount, bodyOptional, malformed, invalid });
  }
  // Literal segments first, so /a/me wins over /a/{id}.
  return routes.sort((a, b) => b.literalCount - a.literalCount);
}

function isJsonContentType(value: string | undefined): boolean {
  const type = String(value ?? "")
    .split(";")[0]!
    .trim()
    .toLowerCase();
  return type === "application/json" || type.endsWith("+json");
}

const MALFORMED = Symbol("malformed");

/** The JSON value of a body text, or MALFORMED. Empty or whitespace-only text is left to Prism (undefined). */
function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return MALFORMED;
  }
}

const PRISM_TAKES_FOR_NO_BODY = 'a JSON body that is null, false, 0 or "" is not an absent body; Prism would accept it where the body is optional';

function send(res: http.ServerResponse, answer: Answer, extraHeaders: Record<string, string> = {}): void {
  const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
  res.writeHead(answer.status, { ...answer.headers, ...extraHeaders, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export interface Front {
  port: number;
  close(): Promise<void>;
}

/** Starts the front on host:port (0 = a free port), forwarding to Prism on 127.0.0.1:upstreamPort. */
export function startFront(options: { host: string; port: number; upstreamPort: number; spec: OpenApiDocument }): Promise<Front> {
  const { host, upstreamPort, spec } = options;
  const upstreamHost = "127.0.0.1";
  const routes = errorRoutes(spec);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const pathname = (req.url ?? "/").split("?")[0]!;
      if (body.length && isJsonContentType(req.headers["content-type"])) {
        const value = parseJsonBody(body.toString("utf8"));
        if (value === MALFORMED || (value !== undefined && !value)) {
          const route = routes.find((r) => r.method === req.method && r.pattern.test(pathname));
          if (value === MALFORMED && route?.malformed) return send(res, route.malformed);
          if (value !== MALFORMED && route?.bodyOptional && route.invalid) {
            return send(res, route.invalid, {
              "sl-violations": JSON.stringify([{ location: ["request", "body"], severity: "Error", message: PRISM_TAKES_FOR_NO_BODY }]),
            });
          }
        }
      }
      const headers: http.OutgoingHttpHeaders = { ...req.headers, host: `${upstreamHost}:${upstreamPort}` };
      if (body.length) headers["content-length"] = String(body.length);
      const upstream = http.request({ host: upstreamHost, port: upstreamPort, method: req.method, path: req.url, headers, agent }, (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        upstreamRes.pipe(res);
      });
      upstream.on("socket", (socket) => socket.setNoDelay(true));
      upstream.on("error", (error) => {
        if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
        res.end(`mock front: Prism did not answer (${error.message})`);
      });
      upstream.end(body.length ? body : undefined);
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise((done) => {
            agent.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
