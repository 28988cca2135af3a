// Servers on 127.0.0.1 that stand for a deployment under `verify` (in-process and through the command): one that
// answers every request alike, one in front of the package's mock that may rewrite its answers, and a closed port.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { MOCK_IDENTITY_HEADER } from "../../src/pipeline/identity.js";
import { API_KEY_HEADER, BASE_PATH, RATE_LIMIT_HEADERS } from "./spec.js";

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** A deployment that answers every request with `status` and `body` (and the rate-limit headers). */
export async function uniformDeployment(
  status: number,
  body: unknown,
): Promise<{ baseUrl: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
      res.writeHead(status, {
        "content-type": "application/json",
        [RATE_LIMIT_HEADERS.limit]: "200",
        [RATE_LIMIT_HEADERS.remaining]: "199",
        [RATE_LIMIT_HEADERS.reset]: String(Math.ceil(Date.now() / 1000) + 60),
      });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Forwarded extends Seen {
  at: number;
  status: number;
}

/**
 * A deployment in front of the mock (at `mockOrigin`): every request is forwarded to it, and `rewrite` may change the
 * status, body and headers of its answer. Records each request with its arrival time (by `now`). The mock's
 * X-Api-Contract-Mock header is passed on only in the answers `keepIdentity` names (by their index).
 */
export async function proxyDeployment(
  mockOrigin: string,
  rewrite: (
    request: { method: string; url: string; hasKey: boolean },
    answer: { status: number; body: string },
  ) => { status: number; body?: string; headers?: Record<string, string> } | undefined = () => undefined,
  {
    now = () => performance.now(),
    keepIdentity = () => false,
  }: { now?: () => number; keepIdentity?: (index: number) => boolean } = {},
): Promise<{ baseUrl: string; seen: Forwarded[]; close(): Promise<void> }> {
  const seen: Forwarded[] = [];
  let answered = 0;
  const server = http.createServer((req, res) => {
    const at = now();
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => name !== "host" && name !== "connection"),
      ) as Record<string, string>;
      // Under /moved (where a test's redirect points), the mock's own path.
      const answer = await fetch(`${mockOrigin}${(req.url ?? "").replace(/^\/moved\//, "/")}`, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const body = await answer.text();
      const method = req.method ?? "";
      const url = req.url ?? "";
      const changed = rewrite({ method, url, hasKey: API_KEY_HEADER in req.headers }, { status: answer.status, body });
      const status = changed?.status ?? answer.status;
      seen.push({ method, url, headers: req.headers, at, status });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!["content-length", "transfer-encoding", "connection", "keep-alive", "content-encoding"].includes(name))
          out[name] = value;
      });
      // A deployment: the mock's own header (the answer comes from the package's mock) is dropped unless kept.
      if (!keepIdentity(answered++)) delete out[MOCK_IDENTITY_HEADER];
      res.writeHead(status, { ...out, ...changed?.headers });
      res.end(changed?.body ?? body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port of 127.0.0.1 nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
