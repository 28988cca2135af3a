// ./msw's optional peer dependencies, loaded with import() so that a missing one is reported as what to install
// (a MockUnavailableError, as ./mock does for Prism's engine) rather than as Node's bare "Cannot find package
// 'msw'". msw (2 or 3) is what the entry needs; openapi-msw only createHttp needs, and openapi-msw 2 supports
// msw 2 alone (its peer range, msw ^2.10.5: npm refuses to install it next to msw 3). Each import() names its
// package literally, so bundlers see it.
import { MockUnavailableError } from "../mock/unavailable.js";

/** Whether `error` says that `name` itself cannot be found (not a package it imports). */
function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && String(message).includes(`'${name}'`);
}

/** What to do when openapi-msw is not installed: it goes with msw 2; with msw 3, msw's own `http`. */
const OPENAPI_MSW_MISSING =
  "createHttp builds on openapi-msw, an optional peer dependency of this package, which is not installed. " +
  "openapi-msw 2 supports msw 2 only (its peer range: msw ^2.10.5): with msw 2, install it next to the package " +
  "(npm install --save-dev openapi-msw); with msw 3, write your own handlers with msw's `http` " +
  "(createHandlers and createSandboxHandlers need msw alone).";

/**
 * msw, and openapi-msw or the error that says why it cannot be had. Throws a MockUnavailableError when msw is not
 * installed (with the install command that fits the openapi-msw there is or is not), and whatever else importing
 * msw threw.
 */
export async function loadPeers(): Promise<{
  msw: typeof import("msw");
  openapiMsw: typeof import("openapi-msw") | Error;
}> {
  const [msw, openapiMsw] = await Promise.allSettled([import("msw"), import("openapi-msw")]);
  if (msw.status === "rejected") {
    if (!isMissing(msw.reason, "msw")) throw msw.reason;
    // openapi-msw imports msw, so without msw it fails to load even when it is installed.
    const withOpenapiMsw = !(openapiMsw.status === "rejected" && isMissing(openapiMsw.reason, "openapi-msw"));
    throw new MockUnavailableError(
      "The ./msw handlers build on msw (2 or 3), an optional peer dependency of this package, which is not " +
        "installed. " +
        (withOpenapiMsw
          ? "openapi-msw is installed and supports msw 2 only: npm install --save-dev msw@2"
          : "Install it next to the package: npm install --save-dev msw (createHttp needs openapi-msw as well, " +
            "which supports msw 2 only: npm install --save-dev msw@2 openapi-msw)"),
    );
  }
  if (openapiMsw.status === "fulfilled") return { msw: msw.value, openapiMsw: openapiMsw.value };
  const reason = openapiMsw.reason;
  return {
    msw: msw.value,
    openapiMsw: isMissing(reason, "openapi-msw")
      ? new MockUnavailableError(OPENAPI_MSW_MISSING)
      : reason instanceof Error
        ? reason
        : new Error(String(reason)),
  };
}
