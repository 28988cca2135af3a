// Keeps the API key out of anything an error or a hook exposes.

export const REDACTED = "[REDACTED]";

export type Redactor = (text: string) => string;

export const noRedaction: Redactor = (text) => text;

/** A function that replaces every occurrence of `secret` in a string. */
export function createRedactor(secret: string | undefined): Redactor {
  if (!secret) return noRedaction;
  return (text) => (text.includes(secret) ? text.split(secret).join(REDACTED) : text);
}

/** Deep copy of a JSON-like value with the secret removed from every string (keys included). */
export function redactValue(value: unknown, redact: Redactor, depth = 0): unknown {
  if (redact === noRedaction) return value;
  if (typeof value === "string") return redact(value);
  if (depth > 64 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[redact(key)] = redactValue(item, redact, depth + 1);
  return copy;
}

/**
 * An error safe to attach as `cause`: the original when neither it nor its own causes mention the
 * secret, otherwise a plain Error carrying the redacted name, message and stack.
 */
export function redactError(error: unknown, redact: Redactor, depth = 0): unknown {
  if (redact === noRedaction || !(error instanceof Error)) return error;
  const mentions = (e: Error) => redact(e.message) !== e.message || redact(String(e.stack)) !== String(e.stack);
  const nested = depth < 4 ? redactError(error.cause, redact, depth + 1) : undefined;
  if (!mentions(error) && nested === error.cause) return error;
  const copy = new Error(redact(error.message), nested === undefined ? undefined : { cause: nested });
  copy.name = error.name;
  copy.stack = redact(String(error.stack));
  return copy;
}
