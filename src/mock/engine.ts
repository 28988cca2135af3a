// Prism's HTTP engine (@stoplight/prism-http: routing, request validation, security, example and status
// selection), run in this process: the answer source of the mock's request pipeline (pipeline.ts); Prism's
// CLI and its HTTP server are not used, so there is no second hop, and nothing Prism does can take the
// process down (its answers are checked and its header values made safe before they are written).
import { createRequire } from "node:module";
import type { OpenApiDocument } from "../openapi/document.js";
import type { Preferences } from "../pipeline/answers.js";
import { type AnswerSource, MAX_VIOLATIONS, type SourceAnswer, type Violation } from "../pipeline/pipeline.js";
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

interface PrismInput {
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

export { MAX_VIOLATIONS };

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
      `The mock runs Prism's engine, ${PRISM_ENGINE_PACKAGE}, an optional peer dependency of this package ` +
        "that is not installed. " +
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

/** Prism's mock settings for a request's preferences (RFC 7240 `Prefer`). */
function mockConfig(base: PrismConfig["mock"], preferences: Preferences): PrismConfig["mock"] {
  return {
    ...base,
    ...(preferences.code !== undefined ? { code: preferences.code } : {}),
    ...(preferences.example !== undefined ? { exampleKey: preferences.example } : {}),
    ...(preferences.dynamic !== undefined ? { dynamic: preferences.dynamic } : {}),
    ...(preferences.seed !== undefined ? { seed: preferences.seed } : {}),
  };
}

/** Prism's findings about the request, then about its answer, at most MAX_VIOLATIONS, as sl-violations lists them. */
function violationsOf(validations: { input: PrismViolation[]; output: PrismViolation[] }): Violation[] {
  return [
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
}

/** Prism's answer as the pipeline takes it: a refusal says it is Prism's. */
function sourceAnswerOf(result: PrismEither): SourceAnswer {
  if (result._tag === "Left") {
    const problem = result.left;
    const reason = [problem.name, problem.message ?? problem.detail].filter(Boolean).join(": ");
    return { kind: "refused", status: problem.status ?? 500, reason: `Prism refused the request: ${reason}` };
  }
  const { output, validations } = result.right;
  const violations = violationsOf(validations);
  return { kind: "answer", status: output.statusCode, headers: output.headers ?? {}, body: output.body, violations };
}

/** Prism's engine on a (mock-only, base-path-prefixed) contract, as the request pipeline's answer source. */
export async function createPrismSource(spec: OpenApiDocument): Promise<AnswerSource> {
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
    async answer(request) {
      const input: PrismInput = {
        method: request.method.toLowerCase(),
        url: { path: request.path, query: request.query },
        headers: request.headers,
        body: request.body,
      };
      const mock = mockConfig(config.mock, request.preferences);
      return sourceAnswerOf(await prism.request(input, operations, { ...config, mock })());
    },
  };
}
