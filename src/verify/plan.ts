// Which cases verify sends to a target, and why the others are skipped. On a deployment it is safe by default:
// operations that change state run only when allowed, an operation with its own quota is called once, and path
// parameters need real values (their examples name nothing that exists, unless the spec documents the value),
// except the last one of a path whose parent a POST of this run creates. On the package's mock and sandbox every
// case runs.
import { listOperations, type OpenApiDocument, type Operation } from "../openapi/document.js";
import { type CaseInputs, hasOwnQuota, negativeCases, positiveCases, type VerifyCase } from "./cases.js";
import type { VerifyOptions } from "./types.js";

export interface PlannedCase extends VerifyCase {
  /** Why the case does not run against this target, or undefined. */
  skip: string | undefined;
}

type PlanOptions = Pick<VerifyOptions, "target" | "allowSideEffects" | "params"> & Pick<CaseInputs, "bodies">;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The cases for a target, each with the reason it is skipped, if it is. */
export function planVerification(spec: OpenApiDocument, options: PlanOptions): PlannedCase[] {
  const operations = listOperations(spec);
  const onDeployment = (options.target ?? "deployment") === "deployment";
  const inputs = { params: options.params ?? {}, bodies: options.bodies ?? {} };
  return [...positiveCases(spec, operations, inputs), ...negativeCases(spec, operations, inputs)].map((c) => ({
    ...c,
    skip: onDeployment ? skipOnDeployment(operations, c, options) : undefined,
  }));
}

/** Why a case is not sent to a deployment: a path value it lacks, a change of state, a second call of a quota. */
function skipOnDeployment(operations: Operation[], c: VerifyCase, options: PlanOptions): string | undefined {
  const params = options.params ?? {};
  // The last path parameter of a positive case can come from what a POST of the parent path creates in this run.
  const fromCreator = createdParameter(operations, c);
  const missing = c.pathParameters.filter((name) => !(name in params) && name !== fromCreator);
  if (missing.length) {
    const wanted = missing.map((n) => `{${n}}`).join(", ");
    const flags = missing.map((n) => `--param ${n}=…`).join(" ");
    return `needs a real value for ${wanted} (the spec's example need not exist on the target): pass ${flags}`;
  }
  if (options.allowSideEffects) return undefined;
  if (hasOwnQuota(c.operation) && c.kind === "negative")
    return (
      "each call may count against this operation's own quota; only one call is spent " +
      "(allow side effects to run it)"
    );
  if (!SAFE_METHODS.has(c.operation.method) && !hasOwnQuota(c.operation))
    return `${c.operation.method} changes state on the target (allow side effects to run it)`;
  return undefined;
}

/**
 * The path parameter of a positive case that the id a POST of its parent path creates stands for: its last, if a
 * placeholder.
 */
export function createdParameter(operations: Operation[], c: VerifyCase): string | undefined {
  const last = /\{([^}]+)\}$/.exec(c.operation.path)?.[1];
  if (c.kind !== "positive" || last === undefined || !c.pathParameters.includes(last)) return undefined;
  return creatorPath(operations, c.operation) !== undefined ? last : undefined;
}

/**
 * The path of the POST operation whose created id can stand in for `operation`'s last path parameter (`/x` creates
 * what `/x/{id}` uses).
 */
export function creatorPath(operations: Operation[], operation: Operation): string | undefined {
  const parent = operation.path.replace(/\/\{[^}]+\}$/, "");
  if (parent === operation.path) return undefined;
  return operations.some((other) => other.method === "POST" && other.path === parent) ? parent : undefined;
}
