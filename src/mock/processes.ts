// Child processes and ports for the mock: a free port on 127.0.0.1, and process groups that are stopped
// as a whole (Prism's CLI may leave its server running when only the CLI process is killed).
import type { ChildProcess } from "node:child_process";
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

/** Rejects when something already listens on host:port. */
export function assertPortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", (error: NodeJS.ErrnoException) => reject(new Error(`mock: ${host}:${port} is not free (${error.code ?? error.message})`)));
    server.listen(port, host, () => server.close(() => resolve()));
  });
}

/** Ends a process group started with `detached: true` (SIGTERM, then SIGKILL after timeoutMs). */
export function stopProcessGroup(child: ChildProcess, timeoutMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
    const pid = child.pid;
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}
