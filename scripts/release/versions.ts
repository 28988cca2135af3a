// Versions and bumps: the package version (package.json, the one source) against the released one, and
// the bump a set of classified changes needs (semver: breaking → major, additions → minor, anything else
// → patch).
import type { Change } from "./compare.js";

export const BUMPS = ["none", "patch", "minor", "major"] as const;
export type Bump = (typeof BUMPS)[number];

export const bumpRank = (bump: Bump): number => BUMPS.indexOf(bump);
export const maxBump = (bumps: Iterable<Bump>): Bump =>
  [...bumps].reduce<Bump>((a, b) => (bumpRank(b) > bumpRank(a) ? b : a), "none");
export const isBump = (value: unknown): value is Bump =>
  typeof value === "string" && (BUMPS as readonly string[]).includes(value);

interface Version {
  major: number;
  minor: number;
  patch: number;
  prerelease: string;
}

/** Parses `1.2.3` or `1.2.3-next.0` (build metadata ignored), or throws naming the text. */
export function parseVersion(text: string): Version {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!match) throw new Error(`not a semver version: ${JSON.stringify(text)}`);
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), prerelease: match[4] ?? "" };
}

/** Negative, zero or positive as `a` is below, equal to or above `b` (a prerelease is below its release). */
export function compareVersions(a: Version, b: Version): number {
  for (const key of ["major", "minor", "patch"] as const) if (a[key] !== b[key]) return a[key] - b[key];
  if (a.prerelease === b.prerelease) return 0;
  if (!a.prerelease) return 1;
  if (!b.prerelease) return -1;
  return comparePrereleases(a.prerelease, b.prerelease);
}

/**
 * -1, 0 or 1 as prerelease `a` is below, equal to or above `b` (semver 2.0.0, item 11): identifier by identifier
 * (split at dots), numbers by value (`next.9` below `next.10`) and below words, words in ASCII order; when one
 * list of identifiers begins the other, the shorter is below.
 */
function comparePrereleases(a: string, b: string): number {
  const idsA = a.split(".");
  const idsB = b.split(".");
  for (let i = 0; i < Math.min(idsA.length, idsB.length); i++) {
    const order = compareIdentifiers(idsA[i]!, idsB[i]!);
    if (order !== 0) return order;
  }
  return Math.sign(idsA.length - idsB.length);
}

function compareIdentifiers(a: string, b: string): number {
  const numeric = /^\d+$/;
  if (numeric.test(a) && numeric.test(b)) return Math.sign(Number(a) - Number(b));
  if (numeric.test(a) !== numeric.test(b)) return numeric.test(a) ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/** The bump that takes `from` to `to`: `major` when the major grew, and so on; `none` when `to` is not above `from`. */
export function bumpBetween(from: Version, to: Version): Bump {
  if (compareVersions(to, from) <= 0) return "none";
  if (to.major > from.major) return "major";
  if (to.major === from.major && to.minor > from.minor) return "minor";
  return "patch";
}

/** The bump the changes need: major for a breaking one, minor for an addition, patch for an annotation. */
export function requiredBump(changes: readonly Change[]): Bump {
  if (changes.some((c) => c.kind === "breaking")) return "major";
  if (changes.some((c) => c.kind === "non-breaking")) return "minor";
  return changes.length ? "patch" : "none";
}
