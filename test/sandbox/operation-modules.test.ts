// pins: answers.unmodelled
// The sandbox's operation modules (src/sandbox/operations): each declares the operations it answers, its refusals
// and the register entries it applies; the handler table and the unmodelled operations are derived from those and
// the contract. No operation is answered by two modules, every one is an operation of the contract, every declared
// refusal and register entry exists, and the operations left to the documented examples are these 14.
import { describe, expect, it } from "vitest";
import { SANDBOX_CHOICES } from "../../src/sandbox/choices.js";
import { HANDLERS, OPERATION_MODULES, UNMODELLED_OPERATIONS } from "../../src/sandbox/operations/index.js";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { listSpecOperations, loadSpec } from "../support/spec.js";

const contractIds = listSpecOperations(loadSpec()).map((operation) => operation.operationId);

describe("the sandbox's operation modules", () => {
  it("answer each operation of the contract once, in one module", () => {
    const handled = OPERATION_MODULES.flatMap((module) => Object.keys(module.handlers));
    expect(handled.filter((id, at) => handled.indexOf(id) !== at)).toEqual([]);
    expect(handled.filter((id) => !contractIds.includes(id))).toEqual([]);
    expect(Object.keys(HANDLERS).sort()).toEqual([...handled].sort());
  });

  it("leave these operations, and only these, to the documented examples", () => {
    expect([...UNMODELLED_OPERATIONS].sort()).toEqual([
      "createInvoice",
      "createNgnDeposit",
      "getInvoice",
      "getTradeableCurrencies",
      "listGhsBanks",
      "listGhsMobileNetworks",
      "listMyInvoices",
      "listNgnBanks",
      "listNgnMerchants",
      "resolveGhsAccount",
      "resolveNgnAccount",
      "updateNgnDeposit",
      "updateNgnWithdrawal",
      "uploadInvoiceDocument",
    ]);
    expect([...Object.keys(HANDLERS), ...UNMODELLED_OPERATIONS].sort()).toEqual([...contractIds].sort());
  });

  it("declare refusals and register entries that exist", () => {
    const ids = new Set(SANDBOX_CHOICES.map((choice) => choice.id));
    const wrong = OPERATION_MODULES.flatMap((module) => [
      ...module.choices.filter((id) => !ids.has(id)).map((id) => `choice ${id}`),
      ...module.refusals.filter((name) => !Object.hasOwn(REFUSAL_STATUS, name)).map((name) => `refusal ${name}`),
    ]);
    expect(wrong).toEqual([]);
  });
});
