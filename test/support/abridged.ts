// A docs sample that shows what a command printed, abridged: its lines must be the output's, in their order, so
// the page cannot show output the command no longer prints.

/**
 * The lines of `abridged` that `full` lacks in their order, both masked by `mask` first (ports, times, ids): "…"
 * stands for lines left out, and a line ending in "…" for one cut there. Empty when the sample is true to `full`.
 */
export function unmatchedLines(abridged: string, full: string, mask: (line: string) => string): string[] {
  const lines = full.split("\n").map(mask);
  let at = 0;
  const unmatched: string[] = [];
  for (const line of abridged.trimEnd().split("\n").map(mask)) {
    if (line === "…") continue;
    const same = (candidate: string) =>
      line.endsWith("…") ? candidate.startsWith(line.slice(0, -1)) : candidate === line;
    const found = lines.findIndex((candidate, index) => index >= at && same(candidate));
    if (found < 0) unmatched.push(line);
    else at = found + 1;
  }
  return unmatched;
}
