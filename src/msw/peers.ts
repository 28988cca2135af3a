// ./msw's optional peer dependencies, msw and openapi-msw, loaded with import() so that a missing one is
// reported as what to install (a MockUnavailableError, as ./mock does for Prism's engine) rather than as
// Node's bare "Cannot find package 'msw'". Each import() names its package literally, so bundlers see it.
import { MockUnavailableError } from "../mock/unavailable.js";

const MSW_PEERS = ["msw", "openapi-msw"] as const;

/** Whether `error` says that `name` itself cannot be found (not a package it imports). */
function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && String(message).includes(`'${name}'`);
}

/** Both peers; throws a MockUnavailableError naming each that is not installed. */
export async function loadPeers(): Promise<[typeof import("msw"), typeof import("openapi-msw")]> {
  const settled = await Promise.allSettled([import("msw"), import("openapi-msw")]);
  const missing = MSW_PEERS.filter(
    (name, i) => settled[i]!.status === "rejected" && isMissing((settled[i] as PromiseRejectedResult).reason, name),
  );
  if (missing.length) {
    throw new MockUnavailableError(
      `The ./msw handlers build on ${MSW_PEERS.join(" and ")}, optional peer dependencies of this package; ` +
        `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not installed. ` +
        `Install ${missing.length === 1 ? "it" : "them"} next to the package: ` +
        `npm install --save-dev ${missing.join(" ")}`,
    );
  }
  for (const result of settled) if (result.status === "rejected") throw result.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as [
    typeof import("msw"),
    typeof import("openapi-msw"),
  ];
}
