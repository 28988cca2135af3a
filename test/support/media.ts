// Pieces of the small fixture contracts the edge tests write.

/** A JSON media type with its schema and example. */
export const json = (schema: object, example: unknown) => ({ content: { "application/json": { schema, example } } });
