// Type tests of the typed control client: compile-only; every line marked @ts-expect-error must fail to compile.
import { describe, expectTypeOf, it } from "vitest";
import {
  createSandboxControl,
  type SandboxAccount,
  type SandboxControl,
  type SandboxSettings,
} from "../../src/sandbox/index.js";

const control = createSandboxControl({ baseUrl: "http://127.0.0.1:4020/v1" });

describe("the control client's types", () => {
  it("answers the control document's types", () => {
    expectTypeOf(control.putAccount("k", { business: true })).resolves.toEqualTypeOf<SandboxAccount>();
    expectTypeOf(control.deposit).returns.resolves.toEqualTypeOf<
      SandboxControl.components["schemas"]["SandboxTransaction"]
    >();
    expectTypeOf(control.deleteAccount("k")).resolves.toBeUndefined();
    expectTypeOf(control.settings()).resolves.toEqualTypeOf<SandboxSettings>();
  });

  it("refuses what the control document does not allow", () => {
    // @ts-expect-error a setting the document does not have
    void control.putAccount("k", { vip: true });
    // @ts-expect-error a balance is a number
    void control.putAccount("k", { balances: { USDT: "5" } });
    // @ts-expect-error a deposit needs its amount
    void control.deposit({ apiKey: "k", currency: "USDT", network: "TRX" });
    // @ts-expect-error the clock moves by a number of ms
    void control.advanceClock("30s");
    // @ts-expect-error requireKnownKeys is a boolean
    void control.putSettings({ requireKnownKeys: "yes" });
    // @ts-expect-error the settings are put whole: requireKnownKeys is required
    void control.putSettings({});
  });
});
