// A thin node:http front for Prism. Prism answers a malformed JSON body itself, before routing,
// with `400 {"error":{"code":"invalid_json"}}` and none of the documented response headers (so
// no rate-limit headers). This front answers such requests from the contract instead: the
// operation's documented 400 (or 4XX, or default) response, with its example body and the
// examples of its headers. Every other request is passed to Prism unchanged.
import http from "node:http";
import { listOperations, resolveRef } from "./openapi-walk.mjs";

/** The documented answer to a malformed body, per operation of the mock spec (paths include the base path). */
export function invalidJsonResponses(spec) {
  const routes = [];
  for (const { path: template, method, operation: rawOperation } of listOperations(spec)) {
    const pattern = new RegExp(`^${template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^/]+")}$`);
    const literalCount = template.split("/").filter((segment) => segment && !segment.startsWith("{")).length;
    const operation = resolveRef(spec, rawOperation);
    const responses = operation.responses ?? {};
    const key = ["400", "4XX", "4xx", "default"].find((k) => k in responses);
    if (!key) continue;
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
      if (body === undefined) continue;
      headers["content-type"] = mediaType;
    }
    routes.push({ method: method.toUpperCase(), pattern, literalCount, status: 400, headers, body });
  }
  // Literal segments first, so /a/me wins over /a/{id}.
  return routes.sort((a, b) => b.literalCount - a.literalCount);
}

function isJsonContentType(value) {
  const type = String(value ?? "").split(";")[0].trim().toLowerCase();
  return type === "application/json" || type.endsWith("+json");
}

function isMalformedJson(text) {
  if (text.trim() === "") return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
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
      if (body.length && isJsonContentType(req.headers["content-type"]) && isMalformedJson(body.toString("utf8"))) {
        const route = routes.find((r) => r.method === req.method && r.pattern.test(pathname));
        if (route) {
          const text = route.body === undefined ? "" : JSON.stringify(route.body);
          res.writeHead(route.status, { ...route.headers, "content-length": Buffer.byteLength(text) });
          res.end(text);
          return;
        }
      }
      const headers = { ...req.headers, host: `${upstreamHost}:${upstreamPort}` };
      if (body.length) headers["content-length"] = String(body.length);
      const upstream = http.request(
        { host: upstreamHost, port: upstreamPort, method: req.method, path: req.url, headers, agent },
        (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
        },
      );
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
