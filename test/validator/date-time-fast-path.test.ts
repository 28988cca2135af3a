// The validator's quick date-time check (an optimisation) must never accept a string that ajv-formats' own date-time
// check rejects, and must accept the canonical form the API sends: dates and times just outside their ranges, leap
// years, and what ajv-formats alone accepts (a leap second) still accepted by the validator.
import { fullFormats } from "ajv-formats/dist/formats.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createContractValidator } from "../../src/contract/index.js";
import { isCanonicalDateTime } from "../../src/contract/schemas.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { Failures } from "../spec/failures.js";

const ajvDateTime = (fullFormats["date-time"] as { validate: (s: string) => boolean }).validate;
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const canonical = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    millis: fc.option(fc.integer({ min: 0, max: 999 })),
    zone: fc.constantFrom("Z", "z", "+01:00", "-05:30", "+14:00"),
  })
  .map((t) => {
    const fraction = t.millis === null ? "" : `.${pad(t.millis, 3)}`;
    const time = `${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${fraction}`;
    return `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${time}${t.zone}`;
  });
// Canonical strings with one character replaced, inserted or removed, plus arbitrary strings.
const mutated = fc.oneof(
  fc
    .tuple(canonical, fc.nat(), fc.constantFrom(..."0123456789:-+.TtZz x/9".split("")))
    .map(([s, i, c]) => s.slice(0, i % s.length) + c + s.slice((i % s.length) + 1)),
  fc
    .tuple(canonical, fc.nat(), fc.constantFrom(..."0:-.9".split("")))
    .map(([s, i, c]) => s.slice(0, i % s.length) + c + s.slice(i % s.length)),
  fc.tuple(canonical, fc.nat()).map(([s, i]) => s.slice(0, i % s.length) + s.slice((i % s.length) + 1)),
  fc.string(),
);

it(`never accepts what ajv-formats rejects (seed ${seed})`, () => {
  fc.assert(
    fc.property(mutated, (s) => !isCanonicalDateTime(s) || ajvDateTime(s)),
    { seed, numRuns: 20_000 },
  );
});

it("accepts the canonical form, with the same verdict as ajv-formats", () => {
  fc.assert(
    fc.property(canonical, (s) => isCanonicalDateTime(s) && ajvDateTime(s)),
    { seed, numRuns: 5_000 },
  );
  expect(isCanonicalDateTime("2026-11-22T10:00:24.907Z")).toBe(true);
  expect(isCanonicalDateTime("2026-02-30T10:00:24.907Z")).toBe(false);
  expect(isCanonicalDateTime("2024-02-29T23:59:59Z")).toBe(true);
  expect(isCanonicalDateTime("22/11/2026")).toBe(false);
});

describe("the quick check against ajv-formats, at the edges", () => {
  // [text, whether it is a date-time]
  const edges: Array<[string, boolean]> = [
    ["2026-11-22T10:00:24.907Z", true],
    ["2026-11-22T10:00:24z", true],
    ["2026-11-22T23:59:59+23:59", true],
    ["2026-11-22T10:00:24-00:00", true],
    ["2024-02-29T00:00:00Z", true], // leap year
    ["2000-02-29T00:00:00Z", true], // divisible by 400
    ["2026-01-31T00:00:00Z", true],
    ["2026-12-31T00:00:00Z", true],
    ["1900-02-29T00:00:00Z", false], // divisible by 100, not by 400
    ["2026-02-29T00:00:00Z", false],
    ["2026-04-31T00:00:00Z", false],
    ["2026-13-01T00:00:00Z", false],
    ["2026-00-10T00:00:00Z", false],
    ["2026-01-00T00:00:00Z", false],
    ["2026-01-32T00:00:00Z", false],
    ["2026-01-01T24:00:00Z", false],
    ["2026-01-01T00:60:00Z", false],
    ["2026-01-01T00:00:60Z", false],
    ["2026-01-01T00:00:00+24:00", false],
    ["2026-01-01T00:00:00+00:60", false],
  ];
  it(`judges each edge as ajv-formats does (${edges.length} strings)`, () => {
    const failures = new Failures();
    for (const [text, expected] of edges)
      failures.check(`${text} (${expected ? "a date-time" : "not a date-time"})`, () => {
        expect(isCanonicalDateTime(text), "the quick check").toBe(expected);
        expect(ajvDateTime(text), "ajv-formats").toBe(expected);
      });
    failures.expectNone("the edges");
  });

  it("takes the 30th and 31st of long months in a leap year, and refuses month 00", () => {
    expect(isCanonicalDateTime("2024-01-30T00:00:00Z")).toBe(true);
    expect(isCanonicalDateTime("2024-03-31T00:00:00Z")).toBe(true);
    expect(isCanonicalDateTime("2020-00-10T00:00:00Z")).toBe(false);
  });
});

/** A GET /t whose 200 body is this schema. */
const documentWith = (schema: unknown): OpenApiDocument => ({
  openapi: "3.1.0",
  paths: {
    "/t": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema } } } } } },
  },
});

const problems = (document: OpenApiDocument, body: unknown) =>
  createContractValidator(document)
    .validateResponse({
      method: "GET",
      path: "/t",
      status: 200,
      headers: { "content-type": "application/json" },
      body,
    })
    .violations.map((v) => `${v.pointer} ${v.message}`);

/** The violations of a body sent as JSON text with a fetch Headers, as a client receives it. */
const problemsAsSent = (document: OpenApiDocument, body: unknown) =>
  createContractValidator(document).validateResponse({
    method: "GET",
    path: "/t",
    status: 200,
    headers: new Headers({ "content-type": "application/json" }),
    bodyText: JSON.stringify(body),
  }).violations;

describe("the validator on date-time fields", () => {
  it("accepts only real date-times in a date-time field, quick check or not", () => {
    const document = documentWith({
      type: "object",
      properties: { at: { type: "string", format: "date-time" } },
      additionalProperties: false,
    });
    expect(problems(document, { at: "2026-11-22T10:00:24.907Z" })).toEqual([]);
    // not canonical, still valid: the full check says so
    expect(problems(document, { at: "2026-11-22t10:00:24Z" })).toEqual([]);
    expect(problems(document, { at: "2026-13-22T10:00:24Z" })).toEqual([
      '/at GET /t 200: /at must match format "date-time"',
    ]);
    expect(problems(document, { at: "yesterday" })).toEqual(['/at GET /t 200: /at must match format "date-time"']);
    expect(problems(document, { at: "2026-11-22T10:00:24Z", extra: 1 })).toEqual([
      "/extra GET /t 200: /extra is not allowed (additional property)",
    ]);
  });

  it("leaves to ajv-formats what it does not take: a leap second is still a valid date-time", () => {
    expect(isCanonicalDateTime("2016-12-31T23:59:60Z")).toBe(false);
    const document = documentWith({ type: "string", format: "date-time" });
    expect(problemsAsSent(document, "2016-12-31T23:59:60Z")).toEqual([]);
    expect(problemsAsSent(document, "2016-12-31T23:59:61Z")).toHaveLength(1);
  });
});
