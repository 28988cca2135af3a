// Prism's HTTP engine (@stoplight/prism-http: routing, request validation, security, example and status
// selection), run in this process. The mock's own server (server.ts) feeds it parsed requests; Prism's
// CLI and its HTTP server are not used, so there is no second hop, and nothing Prism does can take the
// process down (its answers are checked and its header values made safe before they are written).
import { createRequire } from "node:module";
import type { OpenApiDocument } from "../openapi/document.js";
import type { Preferences } from "./answers.js";
import { MockUnavailableError } from "./unavailable.js";

/** The subset of @stoplight/prism-http this module uses. */
interface PrismHttp {
  getHttpOperationsFromSpec(spec: object): Promise<unknown[]>;
  createInstance(
    config: PrismConfig,
    components: { logger: unknown },
  ): {
    request(input: PrismInput, operations: unknown[], config: PrismConfig): () => Promise<PrismEither>;
  };
}

interface PrismConfig {
  validateRequest: boolean;
  validateResponse: boolean;
  checkSecurity: boolean;
  errors: boolean;
  isProxy: false;
  mock: { dynamic: boolean; code?: number; exampleKey?: string; seed?: string };
}

export interface PrismInput {
  method: string;
  url: { path: string; query: Record<string, string | string[]> };
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

interface PrismViolation {
  path?: string[];
  severity: number;
  code?: string | number;
  message: string;
}

type PrismEither =
  | { _tag: "Left"; left: { status?: number; name?: string; message?: string; detail?: string } }
  | {
      _tag: "Right";
      right: {
        output: { statusCode: number; headers?: Record<string, string | string[]>; body?: unknown };
        validations: { input: PrismViolation[]; output: PrismViolation[] };
      };
    };

/** A validation finding of Prism's, as Prism reports it in its `sl-violations` header. */
export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

export type EngineAnswer =
  | {
      kind: "answer";
      status: number;
      headers: Record<string, string | string[]>;
      body: unknown;
      violations: Violation[];
    }
  | { kind: "refused"; status: number; reason: string };

export interface MockEngine {
  answer(input: PrismInput, preferences: Preferences): Promise<EngineAnswer>;
}

/**
 * Most violations of one request the mock reports (in sl-violations): Prism finds every one, a body of
 * numbers where strings are expected one per item; twenty say what is wrong, and fit in a header.
 */
export const MAX_VIOLATIONS = 20;

/** The package the mock needs; an optional peer dependency of this package. */
export const PRISM_ENGINE_PACKAGE = "@stoplight/prism-http";

export { MockUnavailableError };

const require = createRequire(import.meta.url);

function loadPrismHttp(): PrismHttp {
  try {
    return require(PRISM_ENGINE_PACKAGE) as PrismHttp;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    throw new MockUnavailableError(
      `The mock runs Prism's engine, ${PRISM_ENGINE_PACKAGE}, an optional peer dependency of this package that is not installed. ` +
        `Install it next to the package: npm install --save-dev ${PRISM_ENGINE_PACKAGE}`,
    );
  }
}

const SEVERITIES = ["Error", "Warning", "Information", "Hint"];

/** Prism's logger is pino with extra levels: one that drops everything. */
const silentLogger: unknown = new Proxy(
  {},
  { get: (_target, key) => (key === "child" ? () => silentLogger : () => {}) },
);

/** Loads Prism's engine on a (mock-only, base-path-prefixed) contract. */
export async function createMockEngine(spec: OpenApiDocument): Promise<MockEngine> {
  const prismHttp = loadPrismHttp();
  const operations = await prismHttp.getHttpOperationsFromSpec(structuredClone(spec));
  if (operations.length === 0) throw new Error("mock: the contract has no operations");
  const config: PrismConfig = {
    validateRequest: true,
    validateResponse: true,
    checkSecurity: true,
    errors: false,
    isProxy: false,
    mock: { dynamic: false },
  };
  const prism = prismHttp.createInstance(config, { logger: silentLogger });
  return {
    async answer(input, preferences) {
      const mock = {
        ...config.mock,
        ...(preferences.code !== undefined ? { code: preferences.code } : {}),
        ...(preferences.example !== undefined ? { exampleKey: preferences.example } : {}),
        ...(preferences.dynamic !== undefined ? { dynamic: preferences.dynamic } : {}),
        ...(preferences.seed !== undefined ? { seed: preferences.seed } : {}),
      };
      const result = await prism.request(input, operations, { ...config, mock })();
      if (result._tag === "Left") {
        const problem = result.left;
        return {
          kind: "refused",
          status: problem.status ?? 500,
          reason: [problem.name, problem.message ?? problem.detail].filter(Boolean).join(": "),
        };
      }
      const { output, validations } = result.right;
      const violations: Violation[] = [
        ...validations.input.slice(0, MAX_VIOLATIONS).map((v) => ({ ...v, where: "request" })),
        ...validations.output.slice(0, MAX_VIOLATIONS).map((v) => ({ ...v, where: "response" })),
      ]
        .slice(0, MAX_VIOLATIONS)
        .map((v) => ({
          location: [v.where, ...(v.path ?? [])],
          severity: SEVERITIES[v.severity] ?? String(v.severity),
          code: v.code,
          message: v.message,
        }));
      return {
        kind: "answer",
        status: output.statusCode,
        headers: output.headers ?? {},
        body: output.body,
        violations,
      };
    },
  };
}
