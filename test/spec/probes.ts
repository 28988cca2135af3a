// Probe values built from the expectations of description.ts (never from the spec): a valid value, and
// each single deviation from it (absent, null, wrong type, undocumented enum value, ...) with the verdict
// the description gives. test/spec/conformance.test.ts validates them against the spec's schemas.
//
// A resource that is a component schema of its own is probed in full ONCE, at that component
// (`rootProbes`); wherever it is embedded (another component, an operation's data) the probes only show
// that the place holds that resource: absent / null / wrong type, plus ONE deep probe (a required field
// of it removed fails; for a timestamp, a form the convention excludes fails). A variant without a
// component of its own is probed in full where it first appears, and like a component after that.
import { SAMPLE_TIME, type Field, type Shape } from "./description.js";

type Path = (string | number)[];

export interface Probe {
  name: string;
  value: unknown;
  valid: boolean;
}

const NUMBER_SAMPLE = 100; // fractional values are probed separately
const INTEGER_SAMPLE = 2;
const UNDOCUMENTED = "UNDOCUMENTED_VALUE";

type ObjectShape = Extract<Shape, { kind: "object" }>;

export function sampleOf(shape: Shape): unknown {
  switch (shape.kind) {
    case "string":
      return shape.sample;
    case "dateTime":
      return SAMPLE_TIME;
    case "number":
      return NUMBER_SAMPLE;
    case "integer":
      return INTEGER_SAMPLE;
    case "boolean":
      return true;
    case "enum":
      return shape.values[0];
    case "const":
      return shape.value;
    case "object":
      return Object.fromEntries(Object.entries(shape.fields).map(([name, field]) => [name, sampleOf(field)]));
    case "array":
      return [sampleOf(shape.items)];
    case "map":
      return { [shape.sampleKey]: sampleOf(shape.values) };
    case "emptyObject":
      return {};
    case "any":
      return {};
  }
}

/** A value of the wrong JSON type for the shape. */
function wrongTypeOf(shape: Shape): unknown {
  switch (shape.kind) {
    case "string":
    case "dateTime":
    case "enum":
    case "const":
      return 12345;
    case "number":
    case "integer":
      return "12";
    case "boolean":
      return "true";
    case "array":
      return {};
    case "object":
    case "map":
    case "emptyObject":
      return [];
    case "any":
      throw new Error("any JSON value has the right type");
  }
}

/** `label` (a component's name, or "" for an operation's body) then the path: `Wallet.currency`, `data[0].id`. */
function formatPath(label: string, path: Path): string {
  let text = label;
  for (const part of path) text += typeof part === "number" ? `[${part}]` : text === "" ? part : `.${part}`;
  return text;
}

/** A copy of `root` with the value at `path` replaced or removed (the empty path is the root itself). */
function changed(root: unknown, path: Path, change: { set: unknown } | { remove: true }): unknown {
  if (path.length === 0) {
    if ("remove" in change) throw new Error("cannot remove the root");
    return change.set;
  }
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const part of path.slice(0, -1)) node = node[part] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if ("remove" in change) delete node[last];
  else node[last] = change.set;
  return copy;
}

/** The last field an object shape requires: its own fields come last, after the base fields. */
function lastRequiredField(shape: ObjectShape): string {
  const required = Object.entries(shape.fields).filter(([, field]) => field.optional !== true);
  const last = required[required.length - 1];
  if (!last) throw new Error(`${shape.name} requires no field: no deep probe can show that a value is one`);
  return last[0];
}

/** Timestamp forms that Conventions 4 ("ISO 8601 UTC strings with milliseconds") excludes. */
const EXCLUDED_TIMESTAMPS: Array<[what: string, value: string]> = [
  ["a non-date string", "yesterday"],
  ["an offset", "2025-05-17T10:39:37+01:00"],
  ["an offset with milliseconds", "2025-05-17T10:39:37.553+01:00"],
  ["no milliseconds", "2025-05-17T10:39:37Z"],
  ["a space separator", "2025-05-17 10:39:37.553Z"],
  ["two fraction digits", "2025-05-17T10:39:37.55Z"],
  ["microseconds", "2025-05-17T10:39:37.553123Z"],
  ["an impossible date", "2025-02-30T10:39:37.553Z"],
];
/** The timestamp the convention gives as its example. */
const CONVENTION_EXAMPLE = "2025-05-17T10:39:37.553Z";
/** The excluded form the deep probe of an embedded timestamp uses (a plain `format: date-time` accepts it). */
const DEEP_TIMESTAMP: [string, string] = ["no milliseconds", "2025-05-17T10:39:37Z"];

/**
 * Builds probes in one order for the whole test file, remembering which variants (objects without a
 * component of their own) were already probed in full.
 */
export class Prober {
  private readonly probedVariants = new Set<string>();

  /** Probes of a value on its own: a component schema, or a parameter. The sample passes, then every deviation. */
  rootProbes(label: string, shape: Shape): Probe[] {
    if (shape.kind === "object" && shape.component === undefined) this.probedVariants.add(shape.name);
    const root = sampleOf(shape);
    return [
      {
        name: `${label}: the sample built from the description ${JSON.stringify(root).slice(0, 60)} passes`,
        value: root,
        valid: true,
      },
      ...this.valueProbes(label, root, [], shape, false, true),
    ];
  }

  /** Probes of the field at `path` of `root`: absent (as its optionality says), then its value. */
  fieldProbes(label: string, root: unknown, path: Path, field: Field): Probe[] {
    const absent: Probe = {
      name: `${formatPath(label, path)}: absent ${field.optional ? "(optional) passes" : "(required) fails"}`,
      value: changed(root, path, { remove: true }),
      valid: field.optional === true,
    };
    return [absent, ...this.valueProbes(label, root, path, field, field.nullable === true, false)];
  }

  /**
   * Probes of the value at `path` (a sample of `shape` inside `root`): null, a wrong type, then what the
   * shape itself says, in full at its own place (`own`) or for a variant seen here first; else one deep probe.
   */
  private valueProbes(
    label: string,
    root: unknown,
    path: Path,
    shape: Shape,
    nullable: boolean,
    own: boolean,
  ): Probe[] {
    const where = formatPath(label, path);
    const probes: Probe[] = [];
    const probe = (what: string, value: unknown, valid: boolean) =>
      probes.push({
        name: `${where}: ${what} ${valid ? "passes" : "fails"}`,
        value: changed(root, path, { set: value }),
        valid,
      });

    if (shape.kind === "any") {
      // No source declares the shape: every JSON value is accepted there.
      for (const value of [null, 0, "text", true, [], [{ id: "x" }], { id: "x" }])
        probe(`undeclared shape: ${JSON.stringify(value)}`, value, true);
      return probes;
    }
    probe(nullable ? "null (or null)" : "null", null, nullable);
    probe(`wrong type ${JSON.stringify(wrongTypeOf(shape))}`, wrongTypeOf(shape), false);
    if (!own && this.probedElsewhere(shape)) {
      probes.push(this.deepProbe(label, root, path, shape));
      return probes;
    }
    switch (shape.kind) {
      case "number":
        probe("fractional number 1.25", 1.25, true);
        break;
      case "integer":
        probe("non-integer 1.5", 1.5, false);
        break;
      case "dateTime":
        // Conventions 4: ISO 8601 UTC strings with milliseconds, and nothing else.
        for (const [what, value] of EXCLUDED_TIMESTAMPS) probe(`${what} ${JSON.stringify(value)}`, value, false);
        probe(`the convention's example ${JSON.stringify(CONVENTION_EXAMPLE)}`, CONVENTION_EXAMPLE, true);
        break;
      case "const":
        probe(`other value "NOT_${shape.value}"`, `NOT_${shape.value}`, false);
        break;
      case "enum":
        for (const value of shape.values) probe(`documented value ${value}`, value, true);
        probe(`undocumented value (${shape.open ? "open" : "closed"} enum)`, UNDOCUMENTED, shape.open);
        if (!shape.open)
          probe(
            `lower-case variant "${shape.values[0]!.toLowerCase()}" (closed enum)`,
            shape.values[0]!.toLowerCase(),
            false,
          );
        break;
      case "object":
        for (const [name, field] of Object.entries(shape.fields))
          probes.push(...this.fieldProbes(label, root, [...path, name], field));
        break;
      case "array":
        probes.push(...this.valueProbes(label, root, [...path, 0], shape.items, false, false));
        break;
      case "map": {
        probe("any currency code as key", { OTHERCODE: sampleOf(shape.values) }, true);
        probes.push(...this.valueProbes(label, root, [...path, shape.sampleKey], shape.values, false, false));
        break;
      }
      case "emptyObject":
        probe('a non-empty object {"id":"x"}', { id: "x" }, false);
        break;
      default:
        break;
    }
    return probes;
  }

  /**
   * True when the shape is probed in full elsewhere: a component, or a variant already probed (marks a new variant
   * as probed).
   */
  private probedElsewhere(shape: Shape): boolean {
    if ((shape.kind === "object" || shape.kind === "dateTime") && shape.component !== undefined) return true;
    if (shape.kind !== "object") return false;
    if (this.probedVariants.has(shape.name)) return true;
    this.probedVariants.add(shape.name);
    return false;
  }

  /** The one probe showing that the value at `path` is the resource `shape` (probed in full elsewhere). */
  deepProbe(label: string, root: unknown, path: Path, shape: Shape): Probe {
    const where = formatPath(label, path);
    switch (shape.kind) {
      case "object": {
        const field = lastRequiredField(shape);
        return {
          name: `${where}: is a ${shape.name} (its required ${field} absent fails)`,
          value: changed(root, [...path, field], { remove: true }),
          valid: false,
        };
      }
      case "dateTime": {
        const [what, value] = DEEP_TIMESTAMP;
        return {
          name: `${where}: is a Timestamp (${what} ${JSON.stringify(value)} fails)`,
          value: changed(root, path, { set: value }),
          valid: false,
        };
      }
      case "array":
        return this.deepProbe(label, root, [...path, 0], shape.items);
      case "map":
        return this.deepProbe(label, root, [...path, shape.sampleKey], shape.values);
      default:
        throw new Error(`${where}: no deep probe for a ${shape.kind}`);
    }
  }
}
