// Types of scripts/serve-docs.mjs, for the TypeScript tests and other importers.
export declare const DOCS_DIR: string;
export declare const DEFAULT_DOCS_PORT: number;
export interface DocsServer {
  /** The page's URL, for example http://127.0.0.1:4011/ */
  url: string;
  close(): Promise<void>;
}
export declare function startDocsServer(options?: { host?: string; port?: number; dir?: string }): Promise<DocsServer>;
