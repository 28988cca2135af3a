// openapi-fetch middleware: validates every response the client receives against the contract.
import type { Middleware } from "openapi-fetch";
import type { ContractResult } from "./types.js";
import type { ContractValidator } from "./validator.js";

/** Thrown by the middleware in "throw" mode. Carries the violations; never the request's headers. */
export class ContractViolationError extends Error {
  override readonly name = "ContractViolationError";
  readonly result: ContractResult;
  readonly method: string;
  readonly url: string;
  readonly status: number;

  constructor(result: ContractResult, context: { method: string; url: string; status: number }) {
    const lines = result.violations.map((v) => `  - [${v.kind}] ${v.message}`);
    super(`contract violation(s) in ${context.method} ${context.url} → ${context.status}:\n${lines.join("\n")}`);
    this.result = result;
    this.method = context.method;
    this.url = context.url;
    this.status = context.status;
  }
}

export interface ContractMiddlewareOptions {
  /** "throw" (default) rejects the client call with a ContractViolationError; "report" only calls onViolation. */
  mode?: "throw" | "report";
  /** Called for every response with violations, or with warnings in strict mode. */
  onViolation?: (result: ContractResult, context: { request: Request; response: Response }) => void;
  /** Report undocumented fields as warnings (passed to onViolation). */
  strict?: boolean;
}

/** The path of `url` below `baseUrl` (`/wallets/USDT`), or undefined when `url` is not under it. */
function pathBelow(url: string, baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  try {
    const base = new URL(baseUrl);
    const target = new URL(url);
    const prefix = base.pathname.replace(/\/+$/, "");
    if (target.origin !== base.origin || !target.pathname.startsWith(`${prefix}/`)) return undefined;
    return target.pathname.slice(prefix.length);
  } catch {
    return undefined;
  }
}

export function contractMiddleware(validator: ContractValidator, options: ContractMiddlewareOptions = {}): Middleware {
  const mode = options.mode ?? "throw";
  return {
    async onResponse({ request, response, schemaPath, options: clientOptions }) {
      const bodyText = await response.clone().text();
      const result = validator.validateResponse(
        {
          method: request.method,
          // The concrete path below the client's base URL, so a literal path of the spec wins over a template
          // the call named (`/wallets/USDT` over `/wallets/{currencyCode}`); else the template, else the URL.
          path: pathBelow(request.url, clientOptions?.baseUrl) ?? (schemaPath || request.url),
          status: response.status,
          headers: response.headers,
          bodyText,
        },
        { strict: options.strict ?? false },
      );
      if (!result.ok || result.warnings.length) options.onViolation?.(result, { request, response });
      if (!result.ok && mode === "throw") {
        throw new ContractViolationError(result, { method: request.method, url: request.url, status: response.status });
      }
      return undefined;
    },
  };
}
