// A test's own node:http server on a free port of 127.0.0.1, and how to stop it, open connections included
// (a keep-alive connection would otherwise hold close() until it times out).
import type http from "node:http";
import type { AddressInfo } from "node:net";

interface LocalServer {
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  close: () => Promise<void>;
}

export async function listenLocally(server: http.Server): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}
