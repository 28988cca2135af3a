// Why a request got no HTTP answer (src/verify/no-answer.ts), one line per way: from the errors fetch really raises
// against local servers (a timeout, a closed port, TLS to a plain-http server, garbage, a dropped or reset
// connection) and from the system errors it wraps (DNS, certificates, OpenSSL).
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noAnswerReason } from "../../src/verify/index.js";
import { closedPort } from "../support/deployments.js";

/** The error fetch rejects with for `url` (it must reject). */
async function fetchError(url: string, init?: RequestInit): Promise<unknown> {
  try {
    await fetch(url, init);
  } catch (error) {
    return error;
  }
  throw new Error(`${url} answered`);
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

const servers: net.Server[] = [];
async function tcp(onData: (socket: net.Socket) => void): Promise<string> {
  const server = net.createServer((socket) => {
    socket.on("error", () => {});
    socket.once("data", () => onData(socket));
  });
  servers.push(server);
  return `127.0.0.1:${await listen(server)}`;
}

afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

describe("noAnswerReason: one line per way a request gets no HTTP answer", () => {
  let plainHost: string;
  beforeAll(async () => {
    const plain = http.createServer((_req, res) => res.end("plain http"));
    servers.push(plain);
    plainHost = `127.0.0.1:${await listen(plain)}`;
  });

  it("a timeout names the host and the limit in seconds", async () => {
    const host = await tcp(() => {}); // reads the request, never answers
    const url = `http://${host}/v1/x`;
    const error = await fetchError(url, { signal: AbortSignal.timeout(50) });
    expect(noAnswerReason(error, url, 50)).toBe(`${host} did not answer within 0.05 s`);
    expect(noAnswerReason(error, url, 15_000)).toBe(`${host} did not answer within 15 s`);
  });

  it("a refused connection says so and asks whether the service runs", async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/v1/x`;
    expect(noAnswerReason(await fetchError(url), url, 1000)).toBe(
      `cannot connect to 127.0.0.1:${port}: connection refused (ECONNREFUSED); is the service running there?`,
    );
  });

  it("an unresolvable host (ENOTFOUND, EAI_AGAIN), whether fetch wraps the system error or not", () => {
    const url = "https://api.example.invalid/v1/x";
    const system = (code: string) => Object.assign(new Error(`getaddrinfo ${code} api.example.invalid`), { code });
    expect(noAnswerReason(new TypeError("fetch failed", { cause: system("ENOTFOUND") }), url, 1000)).toBe(
      "cannot resolve the host of api.example.invalid (ENOTFOUND)",
    );
    expect(noAnswerReason(system("EAI_AGAIN"), url, 1000)).toBe(
      "cannot resolve the host of api.example.invalid (EAI_AGAIN)",
    );
  });

  it("https to a plain-http server: TLS failed, OpenSSL's reason, and the hint that it speaks plain http", async () => {
    const url = `https://${plainHost}/v1/x`;
    expect(noAnswerReason(await fetchError(url), url, 1000)).toBe(
      `TLS with ${plainHost} failed: wrong version number (ERR_SSL_WRONG_VERSION_NUMBER); does it speak plain ` +
        `http rather than https?`,
    );
  });

  it("certificate problems hint at NODE_EXTRA_CA_CERTS; other OpenSSL errors say TLS and their message", () => {
    const url = "https://api.example.com/v1/x";
    const tls = (fields: Record<string, unknown>, message = "certificate has expired\nat TLSSocket") =>
      new TypeError("fetch failed", { cause: Object.assign(new Error(message), fields) });
    for (const code of [
      "CERT_HAS_EXPIRED",
      "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      "SELF_SIGNED_CERT_IN_CHAIN",
      "ERR_TLS_CERT_ALTNAME_INVALID",
    ]) {
      expect(noAnswerReason(tls({ code }), url, 1000)).toBe(
        `TLS with api.example.com failed: certificate has expired (${code}); for a private CA, set ` +
          `NODE_EXTRA_CA_CERTS to its PEM file`,
      );
    }
    for (const code of ["DEPTH_ZERO_SELF_SIGNED_CERT", "HOSTNAME_MISMATCH"]) {
      expect(noAnswerReason(tls({ code }), url, 1000)).toMatch(
        /; for a private CA, set NODE_EXTRA_CA_CERTS to its PEM file$/,
      );
    }
    expect(
      noAnswerReason(
        tls({ code: "ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE", reason: "sslv3 alert handshake failure" }),
        url,
        1000,
      ),
    ).toBe("TLS with api.example.com failed: sslv3 alert handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)");
    expect(noAnswerReason(tls({ code: "ERR_OSSL_EVP_BAD_DECRYPT" }, "bad decrypt"), url, 1000)).toBe(
      "TLS with api.example.com failed: bad decrypt (ERR_OSSL_EVP_BAD_DECRYPT)",
    );
    expect(noAnswerReason(tls({ library: "SSL routines", reason: 42 }, "  handshake failed  \nmore"), url, 1000)).toBe(
      "TLS with api.example.com failed: handshake failed (TLS)",
    );
  });

  it("not HTTP/1.1, a dropped connection, and anything else (its first line, its code if any)", async () => {
    const garbage = await tcp((socket) => socket.end("garbage\r\n\r\n"));
    const parserUrl = `http://${garbage}/v1/x`;
    expect(noAnswerReason(await fetchError(parserUrl), parserUrl, 1000)).toBe(
      `${garbage} did not answer in HTTP/1.1 (Response does not match the HTTP/1.1 protocol (Expected HTTP/, ` +
        `RTSP/ or ICE/)); an https server behind an http URL?`,
    );
    const dropped = await tcp((socket) => socket.destroy());
    const droppedUrl = `http://${dropped}/v1/x`;
    expect(noAnswerReason(await fetchError(droppedUrl), droppedUrl, 1000)).toBe(
      `${dropped} closed the connection without an answer (UND_ERR_SOCKET)`,
    );
    const reset = await tcp((socket) => socket.resetAndDestroy());
    const resetUrl = `http://${reset}/v1/x`;
    expect(noAnswerReason(await fetchError(resetUrl), resetUrl, 1000)).toBe(
      `${reset} closed the connection without an answer (ECONNRESET)`,
    );

    const url = "http://api.example.com/v1/x";
    expect(noAnswerReason(Object.assign(new Error(" broken pipe \nstack"), { code: "EPIPE" }), url, 1000)).toBe(
      "no answer from api.example.com: broken pipe (EPIPE)",
    );
    expect(noAnswerReason(new Error("something odd"), url, 1000)).toBe("no answer from api.example.com: something odd");
    expect(noAnswerReason(Object.assign(new Error("odd code"), { code: 7 }), url, 1000)).toBe(
      "no answer from api.example.com: odd code",
    );
    expect(noAnswerReason("a thrown string", url, 1000)).toBe("no answer from api.example.com: a thrown string");
    expect(noAnswerReason(new Error("no URL"), "not a url", 1000)).toBe("no answer from not a url: no URL");
  });
});
