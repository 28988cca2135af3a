// A scripted node:http server on 127.0.0.1 for client tests. Each test starts its own and closes it.
import http from "node:http";
import { listenLocally } from "../../support/local-server.js";
import { BASE_PATH, RATE_LIMIT_HEADERS, rateLimitExamples } from "../../support/spec.js";

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request arrived. */
  at: number;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: SeenRequest, index: number) => void;

export interface TestServer {
  /** http://127.0.0.1:<port> plus the spec's base path (/v1) */
  baseUrl: string;
  origin: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    const at = Date.now();
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const seen = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at,
      };
      requests.push(seen);
      handler(req, res, seen, requests.length - 1);
    });
  });
  const { origin, close } = await listenLocally(server);
  return { baseUrl: `${origin}${BASE_PATH}`, origin, requests, close };
}

/**
 * Sends JSON with the three rate-limit headers (overridable): the spec's examples for limit and remaining, reset in
 * 60 s.
 */
export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    "content-type": "application/json",
    [RATE_LIMIT_HEADERS.limit]: String(rateLimitExamples()[RATE_LIMIT_HEADERS.limit]),
    [RATE_LIMIT_HEADERS.remaining]: String(rateLimitExamples()[RATE_LIMIT_HEADERS.remaining]),
    [RATE_LIMIT_HEADERS.reset]: String(Math.ceil(Date.now() / 1000) + 60),
    ...headers,
  });
  res.end(JSON.stringify(body));
}
