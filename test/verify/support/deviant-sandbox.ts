// A deviant deployment for verify's flows: the package's sandbox behind a proxy on 127.0.0.1 that breaks one rule
// by rewriting what the sandbox answers (the control API passes through), so a test sees verify name that rule.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type StartedSandbox, startSandbox } from "../../../src/sandbox/server.js";
import { listenLocally } from "../../support/local-server.js";

/** An exchange as the proxy saw it: the request, and the sandbox's answer, which a deviation may replace. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  /** The request's API key (x-api-key), when it sent one. */
  apiKey?: string;
  /** The JSON answer, which a deviation rewrites. */
  body: any;
}

/** Rewrites an API answer: its status and body, and headers set over the sandbox's. */
export type Deviation = (
  exchange: Exchange,
  seen: Exchange[],
) => Pick<Exchange, "status" | "body"> & { headers?: Record<string, string> };

interface DeviantSandbox {
  baseUrl: string;
  sandbox: StartedSandbox;
  close(): Promise<void>;
}

/** How the sandbox behind the proxy is made. */
interface DeviantOptions {
  /** In place of the fetch the sandbox POSTs its webhooks with (to break how they are sent). */
  webhookFetch?: typeof fetch;
  /** The sandbox clock's start (it then moves only by advances); default real time. */
  clockStart?: number;
  /** The proxy passes a foreign Host on the control API (as the sandbox's own): the rebinding it lets through. */
  forwardAnyHost?: boolean;
  /** The sandbox refuses a key that has no account (its requireKnownKeys). */
  requireKnownKeys?: boolean;
  /** A control path the proxy answers 404, as a sandbox of a version without that route would. */
  missingControlPath?: string;
}

/** The sandbox behind a proxy that answers every API request through `deviate`. */
export async function deviantSandbox(deviate: Deviation, options: DeviantOptions = {}): Promise<DeviantSandbox> {
  const config = {
    ...(options.webhookFetch ? { webhooks: { fetch: options.webhookFetch } } : {}),
    ...(options.clockStart === undefined ? {} : { clock: { start: options.clockStart } }),
    ...(options.requireKnownKeys ? { requireKnownKeys: true } : {}),
  };
  const sandbox = await startSandbox({ port: 0, quiet: true, config });
  const seen: Exchange[] = [];
  const server = http.createServer(async (request, response) => {
    // fetch cannot pass a Host on: the proxy refuses a foreign one on the control API itself, as the sandbox
    // would (control.origin), so a flow that checks that rule sees it kept.
    const own = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (!options.forwardAnyHost && String(request.url).startsWith("/_sandbox") && request.headers.host !== own) {
      return void response.writeHead(421, { "content-type": "application/json" }).end('{"message":"foreign Host"}');
    }
    if (options.missingControlPath !== undefined && request.url === options.missingControlPath) {
      return void response.writeHead(404, { "content-type": "application/json" }).end('{"message":"Not found"}');
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !["host", "connection", "content-length"].includes(name)),
    ) as Record<string, string>;
    const answer = await fetch(`${sandbox.origin}${request.url}`, { method: request.method, headers, body });
    const text = await answer.text();
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!["content-length", "connection", "keep-alive"].includes(name)) out[name] = value;
    });
    const path = String(request.url);
    if (path.startsWith("/_sandbox") || !text) return void response.writeHead(answer.status, out).end(text);
    const apiKey = typeof request.headers["x-api-key"] === "string" ? { apiKey: request.headers["x-api-key"] } : {};
    const exchange = { method: String(request.method), path, status: answer.status, ...apiKey, body: JSON.parse(text) };
    const deviated = deviate(exchange, seen);
    seen.push(exchange);
    response.writeHead(deviated.status, { ...out, ...deviated.headers }).end(JSON.stringify(deviated.body));
  });
  const local = await listenLocally(server);
  return {
    baseUrl: `${local.origin}/v1`,
    sandbox,
    close: async () => {
      await local.close();
      await sandbox.stop();
    },
  };
}
