// Serves the docs on 127.0.0.1: the site (site/, `npm run docs`) when it is built, else the Redoc page
// (generated/docs). `npm run docs:serve [-- --port 4011]`; scripts/start-mock.ts imports startDocsServer to serve
// the docs next to the mock. The Redoc page is a single self-contained file; any other path without a file
// extension gets it too, so Redoc's own routes (/section/…, /tag-name) survive a reload. The site's clean URLs
// (/guide/sandbox) are its .html files (VitePress's cleanUrls); a path with no page gets its 404.html, status 404.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, stat } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import path from "node:path";
import { GENERATED_DIR, SITE_DIR } from "./lib/paths.js";

export const DOCS_DIR = path.join(GENERATED_DIR, "docs");
export const DEFAULT_DOCS_PORT = 4011;

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};

/** The file `wanted` (a URL path) names inside `dir`, if it is a file there. */
async function fileIn(dir: string, wanted: string): Promise<string | undefined> {
  const file = path.resolve(dir, `.${path.posix.normalize(`/${wanted}`)}`);
  if (file !== dir && !file.startsWith(`${dir}${path.sep}`)) return undefined;
  try {
    return (await stat(file)).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

async function fileFor(dir: string, urlPath: string, cleanUrls: boolean): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (!cleanUrls) return fileIn(dir, path.extname(decoded) === "" ? "index.html" : decoded);
  if (decoded.endsWith("/")) return fileIn(dir, `${decoded}index.html`);
  return (
    (await fileIn(dir, decoded)) ?? (path.extname(decoded) === "" ? await fileIn(dir, `${decoded}.html`) : undefined)
  );
}

export interface DocsServer {
  /** The page's URL, for example http://127.0.0.1:4011/ */
  url: string;
  close(): Promise<void>;
}

/** The site's folder when it is built, else the Redoc page's. */
export const servedDocsDir = async (): Promise<string> =>
  (await fileIn(SITE_DIR, "index.html")) ? SITE_DIR : DOCS_DIR;

/**
 * Starts a static server for the docs (the Redoc page's folder by default; a VitePress site is told by its
 * 404.html). Port 0 picks a free port.
 */
export async function startDocsServer({
  host = "127.0.0.1",
  port = DEFAULT_DOCS_PORT,
  dir = DOCS_DIR,
} = {}): Promise<DocsServer> {
  const docsDir = path.resolve(dir);
  const notFoundPage = await fileIn(docsDir, "404.html");
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
    const file = (await fileFor(docsDir, pathname, notFoundPage !== undefined)) ?? notFoundPage;
    if (!file) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(file === notFoundPage ? 404 : 200, {
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
    console.log(
      "Usage: npm run docs:serve [-- --port 4011] [--host 127.0.0.1]\n" +
        "Serves the docs site (site/, npm run docs), else generated/docs/index.html.",
    );
    process.exit(0);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`docs:serve: invalid --port ${values.port}`);
    process.exit(2);
  }
  try {
    const docs = await startDocsServer({ host: values.host, port, dir: await servedDocsDir() });
    console.log(`Docs: ${docs.url}  (Ctrl+C to stop)`);
    const stop = () => docs.close().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
