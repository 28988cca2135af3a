// Comparing what one key saw in two runs of a sandbox whose ids differ: each sandbox draws its ids from a generator
// of its own seed, and another key's requests shift the draws, so two runs can only agree up to a renaming of ids.
/** The fields that hold a value drawn from the sandbox-wide generator: ids, references, hashes, addresses. */
const DRAWN = /^(id|.*Id|.*Reference|reference|.*[hH]ash|value|.*[aA]ddress)$/;

/**
 * Why `one` and `other` differ otherwise than by a one-to-one renaming of the values of DRAWN fields, or
 * undefined: the same shape, numbers, booleans and nulls; every other string equal once the renamed values in it are
 * renamed (a message names a quote's id).
 */
export function differenceBeyondIds(
  one: unknown,
  other: unknown,
  names = new Map<string, string>(),
  at = "",
): string | undefined {
  if (typeof one === "string" && typeof other === "string") {
    const field = at.slice(at.lastIndexOf("/") + 1);
    if (!DRAWN.test(field)) {
      let renamed = one;
      for (const [from, to] of names) renamed = renamed.replaceAll(from, to);
      return renamed === other ? undefined : `${at}: ${one} ≠ ${other}`;
    }
    const known = names.get(one);
    if (known !== undefined) return known === other ? undefined : `${at}: ${one} is ${known} and ${other}`;
    if ([...names.values()].includes(other)) return `${at}: ${other} stands for two ids`;
    names.set(one, other);
    return undefined;
  }
  if (typeof one !== "object" || one === null || typeof other !== "object" || other === null)
    return Object.is(one, other) ? undefined : `${at}: ${JSON.stringify(one)} ≠ ${JSON.stringify(other)}`;
  if (Array.isArray(one) !== Array.isArray(other)) return `${at}: an array and an object`;
  const keys = Object.keys(one);
  if (keys.join() !== Object.keys(other).join()) return `${at}: fields ${keys} ≠ ${Object.keys(other)}`;
  for (const key of keys) {
    const found = differenceBeyondIds((one as any)[key], (other as any)[key], names, `${at}/${key}`);
    if (found) return found;
  }
  return undefined;
}
