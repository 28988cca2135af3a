// A free port on 127.0.0.1 (for tests and tools that start a mock or a server of their own).
import net from "node:net";

/** A port that was free a moment ago on `host`. */
export function findFreePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
