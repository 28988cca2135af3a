// A table of probes is one test with one message per failing case: a test runs every case of one component (a
// schema, an operation, a group of related examples), keeps going past a failing case, and fails once, listing each
// failing case on a line of its own ("<case> — <what was wrong>"). test/spec and test/validator use it.
import { expect } from "vitest";

/** A value in a failure line: JSON, cut after 300 characters. */
const shown = (value: unknown): string => {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/** What went wrong, on one line: the error's message, and what an assertion got and wanted when they are not plain. */
function problemOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { actual, expected } = error as Error & { actual?: unknown; expected?: unknown };
  const structured = [actual, expected].some((value) => typeof value === "object" && value !== null);
  const values = "actual" in error && structured ? ` (got ${shown(actual)}, want ${shown(expected)})` : "";
  return `${error.message.replace(/ \/\/ Object\.is equality$/, "")}${values}`.replace(/\s*\n\s*/g, " ");
}

/** The failing cases of one test. */
export class Failures {
  /** One line per failing case. */
  readonly lines: string[] = [];
  /** How many cases ran. */
  cases = 0;

  /** Runs the case `name`; an assertion or any error it throws is recorded and the next case still runs. */
  check(name: string, run: () => void): void {
    this.cases++;
    try {
      run();
    } catch (error) {
      this.lines.push(`${name} — ${problemOf(error)}`);
    }
  }

  /** `check` for a case that awaits. */
  async checkAsync(name: string, run: () => Promise<void>): Promise<void> {
    this.cases++;
    try {
      await run();
    } catch (error) {
      this.lines.push(`${name} — ${problemOf(error)}`);
    }
  }

  /** Fails the test once if any case failed: the message counts them, the list names each one. */
  expectNone(what: string): void {
    expect(this.lines, `${this.lines.length} of ${this.cases} cases of ${what} fail`).toEqual([]);
  }
}
