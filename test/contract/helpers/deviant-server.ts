// A node:http server on 127.0.0.1 that answers with canned responses, chosen per request by the
// `x-canned-response` header. Started on a free port by the test that uses it, and closed by it.
import http from "node:http";
import type { AddressInfo } from "node:net";
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
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
