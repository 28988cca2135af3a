// How the sandbox reads its defaults from a contract (catalogue.ts, templates.ts): a contract that lacks what it
// reads (an operation, a success example, FiatRate's constant base, a webhook example) is refused with a message
// that names what is missing, and a documented wallet without a currency gives no default balance.
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/contract/bundled.js";
import { listOperations, type OpenApiDocument } from "../../src/openapi/document.js";
import { baseCodeOf, documentedBalances, exampleBody } from "../../src/sandbox/catalogue.js";
import { readTemplates } from "../../src/sandbox/templates.js";
import { thrownBy } from "./support/sandbox.js";

/** A copy of the contract, changed by `edit`. */
function contractWith(edit: (spec: any) => void): OpenApiDocument {
  const spec = structuredClone(openApiDocument);
  edit(spec);
  return spec;
}

/** Puts `media` in place of the JSON content of `operationId`'s 200 answer in `spec`. */
function successMedia(spec: OpenApiDocument, operationId: string, media: unknown): void {
  const operation = listOperations(spec).find((candidate) => candidate.operationId === operationId)!;
  (operation.responses["200"] as any).content["application/json"] = media;
}

describe("reading a contract's success examples", () => {
  it("refuses an operation the contract does not have, by its name", () => {
    expect(thrownBy(() => exampleBody(openApiDocument, "getNothing"))?.message).toBe(
      "sandbox: the contract has no operation getNothing",
    );
  });

  it("refuses an operation whose success answer documents no example, or one that is no JSON object", () => {
    const without = contractWith((spec) => successMedia(spec, "getFiatRates", {}));
    const text = contractWith((spec) => successMedia(spec, "getFiatRates", { example: "the rates" }));
    expect([without, text].map((spec) => thrownBy(() => exampleBody(spec, "getFiatRates"))?.message)).toEqual([
      "sandbox: getFiatRates documents no success example",
      "sandbox: getFiatRates documents no success example",
    ]);
  });

  it("gives no default balance for a documented wallet without a currency", () => {
    const wallets = [
      { availableBalance: 7 },
      { availableBalance: 12.5, currency: { code: "NGNX" } },
      { availableBalance: 99, currency: { code: "NGNX" } },
    ];
    const spec = contractWith((edited) => successMedia(edited, "getMyWallets", { example: { data: wallets } }));
    expect(documentedBalances(spec)).toEqual({ NGNX: 12.5 });
  });
});

describe("reading the rest of a contract", () => {
  it("refuses a FiatRate schema without a constant base", () => {
    const spec = contractWith((edited) => delete edited.components.schemas.FiatRate.properties.base);
    expect(thrownBy(() => baseCodeOf(spec))?.message).toBe("sandbox: the contract's FiatRate has no constant base");
  });

  it("refuses a contract whose deposit webhook has no example", () => {
    const spec = contractWith((edited) => delete edited.webhooks.deposit.post.requestBody.content);
    expect(thrownBy(() => readTemplates(spec))?.message).toBe(
      "sandbox: the contract documents no deposit webhook example",
    );
  });
});
