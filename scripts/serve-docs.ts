// Serves the docs page (generated/docs) on 127.0.0.1. `npm run docs:serve [-- --port 4011]`;
// scripts/start-mock.ts imports startDocsServer to serve the docs next to the mock.
// The page is a single self-contained file; any other path without a file extension gets it too,
// so Redoc's own routes (/section/…, /tag-name) survive a reload.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, stat } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import path from "node:path";
import { GENERATED_DIR } from "./lib/paths.js";

export const DOCS_DIR = path.join(GENERATED_DIR, "docs");
export const DEFAULT_DOCS_PORT = 4011;

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

async function fileFor(dir: string, urlPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const wanted = path.extname(decoded) === "" ? "index.html" : decoded;
  const file = path.resolve(dir, `.${path.posix.normalize(`/${wanted}`)}`);
  if (file !== dir && !file.startsWith(`${dir}${path.sep}`)) return undefined;
  try {
    return (await stat(file)).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

export interface DocsServer {
  /** The page's URL, for example http://127.0.0.1:4011/ */
  url: string;
  close(): Promise<void>;
}

/** Starts a static server for the docs page. Port 0 picks a free port. */
export async function startDocsServer({
  host = "127.0.0.1",
  port = DEFAULT_DOCS_PORT,
  dir = DOCS_DIR,
} = {}): Promise<DocsServer> {
  const docsDir = path.resolve(dir);
  try {
    await stat(path.join(docsDir, "index.html"));
  } catch {
    throw new Error(
      `docs: ${path.join(docsDir, "index.html")} is missing; run \`npm run build\` (or \`npm run docs\`)`,
    );
  }
  const server = createServer(async (req, res) => {
    const { pathname } = new URL(req.url ?? "/", "http://localhost");
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD" }).end();
      return;
    }
    const file = await fileFor(docsDir, pathname);
    if (!file) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        "Content-Type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream",
        "Content-Length": body.length,
        "Cache-Control": "no-cache",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch {
      res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("Cannot read the docs page\n");
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: String(DEFAULT_DOCS_PORT) },
      host: { type: "string", default: "127.0.0.1" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log("Usage: npm run docs:serve [-- --port 4011] [--host 127.0.0.1]\nServes generated/docs/index.html.");
    process.exit(0);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`docs:serve: invalid --port ${values.port}`);
    process.exit(2);
  }
  try {
    const docs = await startDocsServer({ host: values.host, port });
    console.log(`Docs: ${docs.url}  (Ctrl+C to stop)`);
    const stop = () => docs.close().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
