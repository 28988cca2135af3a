// No single request stops the mock or gets a 5xx or a non-JSON answer: raw requests over real sockets,
// generated with fast-check (seeded; MOCK_FUZZ_SEED / MOCK_FUZZ_RUNS reproduce or enlarge a run): any
// method, paths of the contract with odd segments, header names and values with any byte (UTF-8 and
// control characters included), bodies of random bytes, JSON with Unicode property names (U+007F, above
// U+00FF, emoji), deep nesting, and bodies over the size limit. After every request the mock still answers.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_BODY_BYTES, type StartedMock, startMock } from "../../src/mock/index.js";
import { API_KEY_HEADER, listSpecOperations, loadSpec, SIGNING_HEADERS, RATE_LIMIT_HEADERS } from "../support/spec.js";
import { sendRaw } from "./support/raw-http.js";

const spec = loadSpec();
const operations = listSpecOperations(spec);
const runs = Number(process.env.MOCK_FUZZ_RUNS ?? 300);
const seed =
  process.env.MOCK_FUZZ_SEED !== undefined
    ? Number(process.env.MOCK_FUZZ_SEED)
    : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;

const unicodeName = fc.oneof(
  fc.constantFrom("a\u007f", "é€", "名前", "😀key", "\u0100", "\u2028", "\ufffd", "x\u0000y"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 8 }),
);
const jsonBody = fc
  .tuple(fc.dictionary(unicodeName, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), fc.nat({ max: 40 }))
  .map(([object, depth]) => {
    let value: unknown = object;
    for (let i = 0; i < depth; i++) value = { nested: value };
    return Buffer.from(JSON.stringify(value), "utf8");
  });
const body = fc.oneof(
  { weight: 3, arbitrary: jsonBody },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 256 }).map((bytes) => Buffer.from(bytes)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      Buffer.from("   "),
      Buffer.from("null"),
      Buffer.from("{}"),
      Buffer.from('{"ids":["a"]}'),
    ),
  },
  { weight: 1, arbitrary: fc.constant(Buffer.alloc(DEFAULT_MAX_BODY_BYTES + 1024, 0x20)) },
);
const headerValue = fc.oneof(
  // Mostly values Node accepts (any byte but controls, UTF-8 included), so requests reach the engine…
  {
    weight: 6,
    arbitrary: fc
      .string({ unit: "binary", maxLength: 24 })
      .map((text) => Buffer.from(text.replace(/[\u0000-\u001f\u007f]/g, "?"), "utf8")),
  },
  // …and sometimes any byte at all (Node's parser refuses those; the mock still answers JSON).
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes)) },
);
const headerName = fc.oneof(
  fc.constantFrom("content-type", "prefer", "accept", API_KEY_HEADER, SIGNING_HEADERS.signature, "x-custom"),
  fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,12}$/),
);
const otherMethod = fc.oneof(
  fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"),
  fc.stringMatching(/^[A-Z]{1,10}$/),
);
// An operation's path with its parameters replaced by any text (percent-encoded, or 1 in 6 raw bytes),
// mostly with its own method.
const target = fc
  .tuple(
    fc.constantFrom(...operations),
    fc.string({ unit: "binary", maxLength: 12 }),
    fc.nat({ max: 5 }),
    fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: otherMethod }),
  )
  .map(([operation, odd, pick, other]) => {
    const raw = pick === 0;
    const segment = raw ? odd : encodeURIComponent(odd);
    return {
      method: other ?? operation.method,
      path: `/v1${operation.path.replace(/\{[^}]+\}/g, segment || "x")}${raw ? "" : `?q=${encodeURIComponent(odd)}`}`,
    };
  });
const request = fc
  .record({
    target,
    headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 5 }),
    body: fc.option(body, { nil: undefined }),
    contentType: fc.constantFrom("application/json", "application/x-www-form-urlencoded", "text/plain", undefined),
  })
  .map((r) => {
    const head = [`${r.target.method} ${r.target.path} HTTP/1.1`, "host: 127.0.0.1", "connection: close"];
    if (r.contentType) head.push(`content-type: ${r.contentType}`);
    const parts: Buffer[] = [Buffer.from(`${head.join("\r\n")}\r\n`, "latin1")];
    for (const [name, value] of r.headers) parts.push(Buffer.from(`${name}: `, "latin1"), value, Buffer.from("\r\n"));
    parts.push(Buffer.from(`content-length: ${r.body?.length ?? 0}\r\n\r\n`), r.body ?? Buffer.alloc(0));
    return {
      summary:
        `${r.target.method} ${JSON.stringify(r.target.path).slice(0, 80)} ` +
        `(${r.headers.length} headers, body ${r.body?.length ?? 0} bytes)`,
      bytes: Buffer.concat(parts),
    };
  });

let mock: StartedMock;
const problems: string[] = [];
beforeAll(async () => {
  mock = await startMock({ log: (line) => (line.startsWith("mock:") ? problems.push(line) : undefined) });
});
afterAll(() => mock?.stop());

async function stillAnswers(): Promise<void> {
  const response = await fetch(`${mock.baseUrl}/currencies/fiat-rates`);
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

describe("the mock under any request", () => {
  it(`answers ${runs} raw requests with JSON and no 5xx, and keeps answering`, async () => {
    console.log(`mock fuzz: seed ${seed}, ${runs} runs (reproduce with MOCK_FUZZ_SEED=${seed} MOCK_FUZZ_RUNS=${runs})`);
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async ({ summary, bytes }) => {
        const answer = await sendRaw(mock.port, bytes);
        expect(answer, `${summary}: no answer`).toBeDefined();
        statuses.set(answer!.status, (statuses.get(answer!.status) ?? 0) + 1);
        expect(answer!.status, summary).toBeLessThan(500);
        expect(answer!.headers["content-type"] ?? "", summary).toMatch(/json/);
        if (answer!.body.length) expect(() => JSON.parse(answer!.body.toString("utf8")), summary).not.toThrow();
        await stillAnswers();
      }),
      { numRuns: runs, seed, endOnFailure: true },
    );
    console.log(
      `mock fuzz: statuses ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(" ")}; ${problems.length} absorbed problem(s)`,
    );
    expect(statuses.size).toBeGreaterThan(3);
  }, 300_000);

  it.each([
    ["a body property named with U+007F", '{"a\\u007f":1}'],
    ["a body property named above U+00FF", '{"\u20ac":1}'],
    ["an emoji property name", '{"😀":1}'],
  ])("survives %s (Prism's own server would crash writing sl-violations)", async (_, text) => {
    const answer = await sendRaw(
      mock.port,
      Buffer.from(
        `POST /v1/trades/quote HTTP/1.1\r\nhost: x\r\nconnection: close\r\n${API_KEY_HEADER}: t\r\n` +
          `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      ),
    );
    expect(answer?.status).toBe(422);
    expect(answer?.headers[RATE_LIMIT_HEADERS.limit]).toBeDefined();
    await stillAnswers();
  });

  it("answers a request Node cannot parse with a JSON 400 carrying the rate-limit headers", async () => {
    const answer = await sendRaw(
      mock.port,
      Buffer.from("GET /v1/currencies/fiat-rates HTTP/1.1\r\nhost: x\r\nx-bad: a\u0000b\r\n\r\n", "latin1"),
    );
    expect(answer?.status).toBe(400);
    expect(answer?.headers["content-type"]).toMatch(/json/);
    expect(answer?.headers[RATE_LIMIT_HEADERS.limit]).toBeDefined();
    await stillAnswers();
  });
});
