// Keeps the API key and the API secret out of anything an error or a hook exposes.

const REDACTED = "[REDACTED]";

export type Redactor = (text: string) => string;

const noRedaction: Redactor = (text) => text;

/** A function that replaces every occurrence of each secret (the API key, the API secret) in a string. */
export function createRedactor(...secrets: Array<string | undefined>): Redactor {
  // Longest first, so a secret containing another is replaced whole.
  const present = secrets.filter((secret): secret is string => Boolean(secret)).sort((a, b) => b.length - a.length);
  if (present.length === 0) return noRedaction;
  return (text) => {
    let out = text;
    for (const secret of present) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
}

/**
 * Deep copy of a JSON-like value with the secret removed from every string (keys included). Past 64 levels
 * the rest is kept as its JSON text, redacted (or REDACTED when it cannot be written out), so nothing deeper leaks.
 */
export function redactValue(value: unknown, redact: Redactor, depth = 0): unknown {
  if (redact === noRedaction) return value;
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > 64) return redactedJsonText(value, redact);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[redact(key)] = redactValue(item, redact, depth + 1);
  return copy;
}

function redactedJsonText(value: object, redact: Redactor): string {
  try {
    return redact(JSON.stringify(value));
  } catch {
    return REDACTED; // a cycle, or too deep to write out
  }
}

/**
 * An error safe to attach as `cause`: the original when neither it nor its own causes mention the
 * secret, otherwise a plain Error carrying the redacted name, message and stack.
 */
export function redactError(error: unknown, redact: Redactor, depth = 0): unknown {
  if (redact === noRedaction || !(error instanceof Error)) return error;
  const { message, cause } = error;
  const stack = String(error.stack);
  const nested = depth < 4 ? redactError(cause, redact, depth + 1) : undefined;
  if (redact(stack) === stack && redact(message) === message && nested === cause) return error;
  const copy = new Error(redact(message), nested === undefined ? undefined : { cause: nested });
  copy.name = error.name;
  copy.stack = redact(stack);
  return copy;
}
