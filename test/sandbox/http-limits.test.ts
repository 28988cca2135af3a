// pins: answers.http
// The figures of the shared HTTP front's limits, as the register gives them, on a real socket to `startSandbox`: a
// request body of 1 MiB (1 048 576 bytes) is read and judged, one byte more is refused 413; a URL of 8 KiB (8192
// bytes) is answered, one byte more 414; header fields of 16 KiB (16 384 bytes, each line with its CRLF) are
// answered, one byte more 431. (The 60 s a request has to arrive in is not waited for here; request-limits.test.ts
// in test/mock runs the 408 with a short limit.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedSandbox, startSandbox } from "../../src/sandbox/server.js";
import { sendRaw } from "../mock/support/raw-http.js";
import { API_KEY_HEADER, BASE_PATH } from "../support/spec.js";

let server: StartedSandbox;
beforeAll(async () => {
  server = await startSandbox({ port: 0, quiet: true });
});
afterAll(() => server.stop());

/** The status of a request of `head` lines (request line first) and `body`, sent as latin1 (a byte a character). */
async function statusOf(head: string[], body = ""): Promise<number | undefined> {
  const bytes = Buffer.from([...head, "", ""].join("\r\n") + body, "latin1");
  return (await sendRaw(server.port, bytes))?.status;
}

const SUMMARY = `${BASE_PATH}/trades/summary/me`;
const OWN_FIELDS = ["Host: 127.0.0.1", `${API_KEY_HEADER}: k`, "connection: close"];

describe("the sandbox's HTTP front", () => {
  it("reads a body of 1 048 576 bytes, refuses 1 048 577 with 413", async () => {
    const post = (length: number) =>
      statusOf(
        [
          `POST ${BASE_PATH}/trades/quote HTTP/1.1`,
          ...OWN_FIELDS,
          "content-type: application/json",
          `content-length: ${length}`,
        ],
        " ".repeat(length),
      );
    // Whitespace only: read whole, then refused as no JSON body (400), not as too large.
    expect([await post(1_048_576), await post(1_048_577)]).toEqual([400, 413]);
  });

  it("answers a URL of 8192 bytes, refuses 8193 with 414", async () => {
    const prefix = `${SUMMARY}?pad=`;
    const get = (length: number) =>
      statusOf([`GET ${prefix}${"a".repeat(length - prefix.length)} HTTP/1.1`, ...OWN_FIELDS]);
    expect([await get(8192), await get(8193)]).toEqual([200, 414]);
  });

  it("answers header fields of 16 384 bytes, refuses 16 385 with 431", async () => {
    // The own fields, 100-byte lines (98 characters and CRLF), and an x-fill line that brings the sum to `total`.
    const pads = Array.from({ length: 160 }, (_, i) => `x-pad-${String(i).padStart(4, "0")}: ${"v".repeat(86)}`);
    const own = OWN_FIELDS.reduce((sum, line) => sum + line.length + 2, 0);
    const get = (total: number) => {
      const fill = `x-fill: ${"f".repeat(total - own - pads.length * 100 - "x-fill: ".length - 2)}`;
      const fields = [...OWN_FIELDS, ...pads, fill];
      expect(fields.reduce((sum, line) => sum + line.length + 2, 0)).toBe(total);
      return statusOf([`GET ${SUMMARY} HTTP/1.1`, ...fields]);
    };
    expect([await get(16_384), await get(16_385)]).toEqual([200, 431]);
  });
});
