// A thin node:http front for Prism, for two of its quirks. (1) Prism answers a malformed JSON body
// itself, before routing, with `400 {"error":{"code":"invalid_json"}}` and none of the documented
// response headers (so no rate-limit headers). (2) Where a request body is optional, Prism takes a
// falsy JSON body (null, false, 0, "") for no body and accepts it. This front answers such requests
// from the contract instead: the operation's documented 400 (malformed) or 422 (invalid) response,
// or its 4XX or default, with its example body and the examples of its headers. Every other request
// is passed to Prism unchanged.
import http from "node:http";
import { listOperations, resolveRef } from "./openapi-walk.mjs";

/** The documented error answer (example body and header examples) for `status`, or undefined without an example. */
function documentedError(spec, responses, status) {
  const key = [String(status), "4XX", "4xx", "default"].find((k) => k in responses);
  if (!key) return undefined;
  const response = resolveRef(spec, responses[key]);
  const headers = {};
  for (const [name, rawHeader] of Object.entries(response.headers ?? {})) {
    const header = resolveRef(spec, rawHeader);
    const example = header?.example ?? header?.schema?.example ?? header?.schema?.examples?.[0];
    if (example !== undefined) headers[name.toLowerCase()] = String(example);
  }
  const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [];
  let body;
  if (media) {
    const firstExample = media.examples ? resolveRef(spec, Object.values(media.examples)[0]) : undefined;
    body = firstExample?.value ?? media.example ?? media.schema?.example;
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
export function invalidJsonResponses(spec) {
  const routes = [];
  for (const { path: template, method, operation: rawOperation } of listOperations(spec)) {
    const pattern = new RegExp(
      `^${template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]+")}$`,
    );
    const literalCount = template.split("/").filter((segment) => segment && !segment.startsWith("{")).length;
    const operation = resolveRef(spec, rawOperation);
    const responses = operation.responses ?? {};
    const requestBody = operation.requestBody ? resolveRef(spec, operation.requestBody) : undefined;
    const malformed = documentedError(spec, responses, 400);
    const invalid = documentedError(spec, responses, 422);
    if (!malformed && !invalid) continue;
    routes.push({
      method: method.toUpperCase(),
      pattern,
      literalCount,
      bodyOptional: Boolean(requestBody) && requestBody.required !== true,
      malformed,
      invalid,
    });
  }
  // Literal segments first, so /a/me wins over /a/{id}.
  return routes.sort((a, b) => b.literalCount - a.literalCount);
}

function isJsonContentType(value) {
  const type = String(value ?? "")
    .split(";")[0]
    .trim()
    .toLowerCase();
  return type === "application/json" || type.endsWith("+json");
}

/** The JSON value of a body text, or MALFORMED. Empty or whitespace-only text is left to Prism (undefined). */
const MALFORMED = Symbol("malformed");
function parseJsonBody(text) {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return MALFORMED;
  }
}

/** A falsy JSON value (null, false, 0, ""): Prism takes it for "no body" and accepts it where the body is optional. */
const PRISM_TAKES_FOR_NO_BODY = 'a JSON body that is null, false, 0 or "" is not an absent body; Prism would accept it where the body is optional';

function send(res, answer, extraHeaders = {}) {
  const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
  res.writeHead(answer.status, { ...answer.headers, ...extraHeaders, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Starts the front on host:port (0 = free port), forwarding to Prism at upstreamPort. */
export function startMockProxy({ host, port, upstreamHost, upstreamPort, spec }) {
  const routes = invalidJsonResponses(spec);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const pathname = (req.url ?? "/").split("?")[0];
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
      const headers = { ...req.headers, host: `${upstreamHost}:${upstreamPort}` };
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
      if (body.length) upstream.end(body);
      else upstream.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      resolve({
        port: server.address().port,
        close: () =>
          new Promise((done) => {
            agent.destroy();
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}
