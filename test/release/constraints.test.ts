// The classifier's value constraints (CONSTRAINTS in scripts/release/compare.ts): a fixture for every keyword of
// its table, every way the keyword can change (lowered, raised, added, removed; changed, for a keyword without
// an order) and each side. In a request a narrower constraint refuses what consumers send, so it is breaking and
// a wider one is not; in a response a wider one may bring what consumers do not expect, so it is breaking and a
// narrower one is not. The fixtures are generated from the classifier's table; what each change is comes from
// EXPECTED below, written by hand, so a keyword added to the table fails here until EXPECTED says the same.
import { describe, expect, it } from "vitest";
import { CONSTRAINTS, compareContracts, formatChange } from "../../scripts/release/compare.js";
import { applyPatch, baseContract, type ChangeFixture, expectChangeFixture } from "./support.js";

type Verdict = "breaking" | "non-breaking";
type Side = "request" | "response";
type Direction = "lower" | "raise" | "add" | "remove" | "change";

/** A keyword with an order: its value before and lowered and raised, and each change's verdict on each side. */
interface Ordered {
  schema: Record<string, unknown>;
  values: { from: number; lower: number; raise: number };
  request: Record<"lower" | "raise" | "add" | "remove", Verdict>;
  response: Record<"lower" | "raise" | "add" | "remove", Verdict>;
}

/** A keyword without an order: its value before and after a change, and each change's verdict on each side. */
interface Unordered {
  schema: Record<string, unknown>;
  values: { from: unknown; change: unknown };
  request: Record<"change" | "add" | "remove", Verdict>;
  response: Record<"change" | "add" | "remove", Verdict>;
}

const NUMBER = { type: "number" };
const STRING = { type: "string" };
const ARRAY = { type: "array", items: { type: "string" } };
const B = "breaking";
const NB = "non-breaking";

/** What each change of each keyword is for a consumer, by hand (not read from the classifier). */
const EXPECTED: Record<string, Ordered | Unordered> = {
  pattern: {
    schema: STRING,
    values: { from: "^[a-z]+$", change: "^[a-z0-9]+$" },
    request: { change: B, add: B, remove: NB },
    response: { change: B, add: NB, remove: B },
  },
  format: {
    schema: STRING,
    values: { from: "date", change: "date-time" },
    request: { change: B, add: B, remove: NB },
    response: { change: B, add: NB, remove: B },
  },
  multipleOf: {
    schema: NUMBER,
    values: { from: 2, change: 3 },
    request: { change: B, add: B, remove: NB },
    response: { change: B, add: NB, remove: B },
  },
  minimum: {
    schema: NUMBER,
    values: { from: 10, lower: 5, raise: 20 },
    request: { lower: NB, raise: B, add: B, remove: NB },
    response: { lower: B, raise: NB, add: NB, remove: B },
  },
  exclusiveMinimum: {
    schema: NUMBER,
    values: { from: 10, lower: 5, raise: 20 },
    request: { lower: NB, raise: B, add: B, remove: NB },
    response: { lower: B, raise: NB, add: NB, remove: B },
  },
  minLength: {
    schema: STRING,
    values: { from: 2, lower: 1, raise: 4 },
    request: { lower: NB, raise: B, add: B, remove: NB },
    response: { lower: B, raise: NB, add: NB, remove: B },
  },
  minItems: {
    schema: ARRAY,
    values: { from: 2, lower: 1, raise: 4 },
    request: { lower: NB, raise: B, add: B, remove: NB },
    response: { lower: B, raise: NB, add: NB, remove: B },
  },
  maximum: {
    schema: NUMBER,
    values: { from: 10, lower: 5, raise: 20 },
    request: { lower: B, raise: NB, add: B, remove: NB },
    response: { lower: NB, raise: B, add: NB, remove: B },
  },
  exclusiveMaximum: {
    schema: NUMBER,
    values: { from: 10, lower: 5, raise: 20 },
    request: { lower: B, raise: NB, add: B, remove: NB },
    response: { lower: NB, raise: B, add: NB, remove: B },
  },
  maxLength: {
    schema: STRING,
    values: { from: 10, lower: 5, raise: 20 },
    request: { lower: B, raise: NB, add: B, remove: NB },
    response: { lower: NB, raise: B, add: NB, remove: B },
  },
  maxItems: {
    schema: ARRAY,
    values: { from: 10, lower: 5, raise: 20 },
    request: { lower: B, raise: NB, add: B, remove: NB },
    response: { lower: NB, raise: B, add: NB, remove: B },
  },
};

/** The field `probe` the fixtures add to base.yaml: in the request body of createItem, in getItem's 404 body. */
const PLACES = {
  request: {
    pointer: "/components/schemas/CreateItemRequest/properties/probe",
    where: "POST /items (createItem), request body",
  },
  response: {
    pointer: "/components/schemas/ErrorBody/properties/probe",
    where: "GET /items/{id} (getItem), response 404 body",
  },
} as const;
const PAST = { lower: "lowered", raise: "raised", add: "added", remove: "removed", change: "changed" } as const;

/** The rule a verdict means: a request refuses more (tightened), a response may hold more (loosened). */
function ruleOf(side: Side, direction: Direction, verdict: Verdict): ChangeFixture["rule"] {
  if (direction === "change") return `${side}-constraint-changed`;
  const tightened = (side === "request") === (verdict === "breaking");
  return tightened ? `${side}-constraint-tightened` : `${side}-constraint-loosened`;
}

/** The message the gate gives a keyword going from `was` to `now` (undefined: absent). */
function messageOf(keyword: string, was: unknown, now: unknown): string {
  if (was === undefined) return `${keyword} ${JSON.stringify(now)} added`;
  if (now === undefined) return `${keyword} ${JSON.stringify(was)} removed`;
  return `${keyword} changed from ${JSON.stringify(was)} to ${JSON.stringify(now)}`;
}

/** The fixture for one keyword changed one way on one side. */
function fixtureOf(keyword: string, side: Side, direction: Direction): ChangeFixture {
  const expected = EXPECTED[keyword]!;
  const values = expected.values as Record<string, unknown>;
  const was = direction === "add" ? undefined : values.from;
  const now = direction === "add" ? values.from : direction === "remove" ? undefined : values[direction];
  const { pointer, where } = PLACES[side];
  const verdict = (expected[side] as Record<string, Verdict>)[direction]!;
  const rule = ruleOf(side, direction, verdict);
  const field = `${pointer}/${keyword}`;
  return {
    name: `${keyword} ${PAST[direction]} in a ${side}`,
    verdict,
    rule,
    where,
    field: "probe",
    before: [{ set: pointer, value: was === undefined ? expected.schema : { ...expected.schema, [keyword]: was } }],
    after: [now === undefined ? { remove: field } : { set: field, value: now }],
    lines: [`${verdict.toUpperCase()}  ${rule}  ${where}: probe: ${messageOf(keyword, was, now)}`],
  };
}

/** Every fixture: each keyword of the classifier's table that EXPECTED knows, each way, each side. */
const fixtures = Object.keys(CONSTRAINTS)
  .filter((keyword) => keyword in EXPECTED)
  .flatMap((keyword) =>
    (["request", "response"] as const).flatMap((side) =>
      (Object.keys(EXPECTED[keyword]![side]) as Direction[]).map((direction) => fixtureOf(keyword, side, direction)),
    ),
  );

describe("compareContracts: each constraint keyword of the classifier, each way, in a request and a response", () => {
  it("knows by hand what every keyword of the classifier's table means, and no other keyword", () => {
    const keywords = Object.keys(CONSTRAINTS);
    expect(
      keywords.filter((k) => !(k in EXPECTED)),
      "keywords of the classifier without an expectation",
    ).toEqual([]);
    expect(
      Object.keys(EXPECTED).filter((k) => !keywords.includes(k)),
      "expected keywords it lacks",
    ).toEqual([]);
  });

  it.each(fixtures.map((f) => [`${f.name}: ${f.verdict}`, f] as const))("%s", (_, fixture) =>
    expectChangeFixture(fixture),
  );

  it("calls a lowered request maximum breaking and a lowered response maximum non-breaking", () => {
    const byName = new Map(fixtures.map((f) => [f.name, f]));
    expect(byName.get("maximum lowered in a request")?.lines).toEqual([
      "BREAKING  request-constraint-tightened  POST /items (createItem), request body: probe: maximum changed " +
        "from 10 to 5",
    ]);
    expect(byName.get("maximum lowered in a response")?.lines).toEqual([
      "NON-BREAKING  response-constraint-tightened  GET /items/{id} (getItem), response 404 body: probe: maximum " +
        "changed from 10 to 5",
    ]);
  });
});

describe("compareContracts: a constraint keyword in several parts of a schema", () => {
  const quantity = "/components/schemas/CreateItemRequest/properties/quantity";
  /** Every line the gate prints when createItem's quantity goes from `before` to `after`. */
  const lines = (before: unknown, after: unknown) => {
    const was = applyPatch(baseContract(), [{ set: quantity, value: before }]);
    return compareContracts(was, applyPatch(was, [{ set: quantity, value: after }])).map(formatChange);
  };

  it("finds a bound lowered in an allOf part through a $ref, beside a looser part", () => {
    const was = applyPatch(baseContract(), [
      { set: "/components/schemas/Quantity", value: { type: "integer", maximum: 10 } },
      { set: quantity, value: { allOf: [{ $ref: "#/components/schemas/Quantity" }, { maximum: 100 }] } },
    ]);
    const now = applyPatch(was, [{ set: "/components/schemas/Quantity/maximum", value: 5 }]);
    expect(compareContracts(was, now).map(formatChange)).toEqual([
      "BREAKING  request-constraint-tightened  POST /items (createItem), request body: quantity: maximum changed " +
        "from 10 to 5",
    ]);
  });

  it("finds a bound added in a second allOf part, and one removed from it", () => {
    const one = { allOf: [{ type: "integer", maximum: 100 }] };
    const two = { allOf: [{ type: "integer", maximum: 100 }, { maximum: 10 }] };
    expect(lines(one, two)).toEqual([
      "BREAKING  request-constraint-tightened  POST /items (createItem), request body: quantity: maximum 10 added",
    ]);
    expect(lines(two, one)).toEqual([
      "NON-BREAKING  request-constraint-loosened  POST /items (createItem), request body: quantity: maximum 10 " +
        "removed",
    ]);
  });

  it("finds no constraint change when the same bounds only move to other parts", () => {
    const before = { allOf: [{ type: "integer", maximum: 10 }, { maximum: 100 }] };
    const after = { allOf: [{ type: "integer", maximum: 100 }, { maximum: 10 }] };
    expect(lines(before, after)).toEqual([
      "ANNOTATION  annotation  the document: descriptions, examples, extensions or other parts the gate does not " +
        "model changed",
    ]);
  });
});
