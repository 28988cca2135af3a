// The ./msw handlers share the mock's answers, quotes included: Create Quote answers its documented
// example with an expiryDate its own expiresIn seconds after the answer, so the README's first example
// accepts against the handlers as against the mock (msw/node intercepting this package's own client).
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/contract/index.js";
import { MOCK_BASE_URL } from "../../src/index.js";
import { createHandlers } from "../../src/msw/index.js";
import { createQuote, freshQuoteTests, quoteExamples, quoteOp } from "../support/quote.js";
import { jsonMedia, listSpecOperations, mediaExamples, successKey } from "../support/spec.js";

const server = setupServer(...createHandlers());

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The examples of the operation in the bundled contract the handlers answer from (not a copy). */
function bundledExamples() {
  const bundled = listSpecOperations(openApiDocument).find((o) => o.key === quoteOp.key)!;
  return mediaExamples(openApiDocument, jsonMedia(bundled.responses[successKey(bundled)]));
}

describe("the msw handlers' Create Quote answer", () => {
  freshQuoteTests(() => MOCK_BASE_URL);

  it("leaves the bundled contract's examples unchanged (the handlers answer from its objects)", async () => {
    const documented = structuredClone(bundledExamples());
    for (const example of quoteExamples) await createQuote(MOCK_BASE_URL, `example=${example.name}`);
    expect(bundledExamples()).toEqual(documented);
    expect(documented).toEqual(quoteExamples);
  });
});
