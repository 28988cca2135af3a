// `Prefer` passed to Prism, over real sockets on a small contract: `dynamic` and `seed` give a generated
// answer, the same for the same seed; a malformed one is refused 422. (Every documented status and example of
// the real contract picked with `Prefer: code=` and `example=`: answers.test.ts; its parsing:
// documented-answers.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedMock, startMock } from "../../src/mock/index.js";
import { smallSpec } from "./support/small-spec.js";

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock({ spec: smallSpec() });
});
afterAll(() => mock?.stop());

const violations = (response: Response): Array<{ location: string[]; message: string }> =>
  JSON.parse(response.headers.get("sl-violations") ?? "[]");

describe("Prefer: dynamic and seed", () => {
  it("passes Prefer: dynamic and seed to Prism: a generated answer, the same for the same seed", async () => {
    const get = async (prefer?: string) => {
      const response = await fetch(`${mock.baseUrl}/items`, prefer ? { headers: { prefer } } : {});
      expect(response.status).toBe(200);
      return (await response.json()) as { n: number };
    };
    expect(await get()).toEqual({ n: 1 });
    expect(await get("dynamic=false")).toEqual({ n: 1 });
    const seeded = await get("dynamic=true, seed=one");
    expect(seeded.n).toBeGreaterThanOrEqual(1000);
    expect(await get("dynamic=true; seed=one")).toEqual(seeded);
    const unseeded = new Set<number>();
    for (let i = 0; i < 4; i++) unseeded.add((await get("dynamic=true")).n);
    expect(unseeded.size).toBeGreaterThan(1);
    const bad = await fetch(`${mock.baseUrl}/items`, { headers: { prefer: "dynamic=maybe" } });
    expect(bad.status).toBe(422);
    expect(violations(bad)[0]?.message).toBe('Prefer: dynamic must be true or false, got "maybe"');
  });
});
