// Spectral function: a (resolved) 2xx schema is the envelope: an object with `message` (string)
// and `data`, either directly or through allOf. It keeps its own small allOf walk on purpose: Spectral
// loads custom functions as plain JavaScript from .spectral.yaml's functionsDir, and hands them the
// already resolved schema, so it cannot import the project's TypeScript module (src/openapi/schema.ts).
function collect(schema, into) {
  if (!schema || typeof schema !== "object") return into;
  for (const [name, value] of Object.entries(schema.properties ?? {})) into.properties[name] = value;
  for (const name of schema.required ?? []) into.required.add(name);
  for (const part of schema.allOf ?? []) collect(part, into);
  return into;
}

export default function isEnvelope(schema) {
  const { properties, required } = collect(schema, { properties: {}, required: new Set() });
  const problems = [];
  if (properties.message?.type !== "string" || !required.has("message")) problems.push("a required string `message`");
  if (!("data" in properties) || !required.has("data")) problems.push("a required `data`");
  const extra = Object.keys(properties).filter((name) => !["message", "data", "meta"].includes(name));
  if (extra.length) problems.push(`no fields beyond message, data, meta (found ${extra.join(", ")})`);
  return problems.length ? [{ message: `A 2xx body must be the envelope: it needs ${problems.join("; ")}.` }] : [];
}
