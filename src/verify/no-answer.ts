// Why a request got no HTTP answer, in one line a person can act on: verify reports it instead of a stack, and
// a target that gives no answer to its first request is not checked further (run.ts).

const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

/** A Node.js system error as fetch hands it on (usually as its cause): the fields this file reads. */
type SystemError = Error & { code?: unknown; reason?: unknown; library?: unknown };

/** The host of `url`, or `url` itself when it is no URL. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A TLS failure in words: OpenSSL's reason and its code, with a hint for the two usual mistakes. */
function tlsFailure(host: string, cause: SystemError, code: string, detail: string): string {
  const reason = typeof cause.reason === "string" ? cause.reason : detail;
  const hint =
    code === "ERR_SSL_WRONG_VERSION_NUMBER"
      ? "; does it speak plain http rather than https?"
      : /CERT|UNABLE_TO|SELF_SIGNED|HOSTNAME/.test(code)
        ? "; for a private CA, set NODE_EXTRA_CA_CERTS to its PEM file"
        : "";
  return `TLS with ${host} failed: ${reason} (${code || "TLS"})${hint}`;
}

/** Why a request got no HTTP answer, in one line: connection refused, DNS, TLS, timeout or a dropped connection. */
export function noAnswerReason(error: unknown, url: string, timeoutMs: number): string {
  const host = hostOf(url);
  if (error instanceof Error && error.name === "TimeoutError")
    return `${host} did not answer within ${timeoutMs / 1000} s`;
  const cause: SystemError | undefined =
    error instanceof Error && error.cause instanceof Error ? error.cause : error instanceof Error ? error : undefined;
  const code = typeof cause?.code === "string" ? cause.code : "";
  const detail = (cause?.message ?? String(error)).split("\n")[0]!.trim();
  if (code === "ECONNREFUSED")
    return `cannot connect to ${host}: connection refused (ECONNREFUSED); is the service running there?`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `cannot resolve the host of ${host} (${code})`;
  if (cause !== undefined && (TLS_CODE.test(code) || cause.library !== undefined))
    return tlsFailure(host, cause, code, detail);
  if (cause?.name === "HTTPParserError")
    return `${host} did not answer in HTTP/1.1 (${detail}); an https server behind an http URL?`;
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET")
    return `${host} closed the connection without an answer (${code})`;
  return `no answer from ${host}: ${detail}${code ? ` (${code})` : ""}`;
}
