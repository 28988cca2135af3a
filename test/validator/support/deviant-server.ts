// A node:http server on 127.0.0.1 that answers with canned responses, chosen per request by the
// `x-canned-response` header. Started on a free port by the test that uses it, and closed by it.
import http from "node:http";
import { listenLocally } from "../../support/local-server.js";
import type { CannedResponse } from "./mutants.js";

export const CANNED_HEADER = "x-canned-response";

export interface DeviantServer {
  origin: string;
  /** Requests received, by canned id. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startDeviantServer(responses: Map<string, CannedResponse>): Promise<DeviantServer> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers[CANNED_HEADER] ?? "");
      const canned = responses.get(id);
      if (!canned) {
        res.writeHead(599, { "content-type": "text/plain" });
        res.end(`no canned response ${id}`);
        return;
      }
      hits.set(id, (hits.get(id) ?? 0) + 1);
      res.writeHead(canned.status, { ...canned.headers, "content-length": Buffer.byteLength(canned.bodyText) });
      res.end(canned.bodyText);
    });
  });
  const { origin, close } = await listenLocally(server);
  return { origin, hits, close };
}
