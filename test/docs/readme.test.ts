// The README's TypeScript examples compile against this package (src/), so the first screen cannot rot.
import { afterAll, beforeAll, expect, it } from "vitest";
import { firstScreenExample } from "../support/readme.js";
import { scratchDir, tscErrors } from "../support/tsc.js";

let scratch: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => {
  scratch = await scratchDir("readme-");
});
afterAll(() => scratch.remove());

it("compiles the README's first-screen example, and a broken copy of it does not", async () => {
  const source = `${firstScreenExample()}\nexport {};\n`;
  const broken = source.replace('side: "SELL"', 'side: "HOLD"');
  expect(broken).not.toBe(source);
  const { errors } = await tscErrors(scratch.dir, { "readme.ts": source, "readme-broken.ts": broken });
  expect(
    errors.filter((line) => line.startsWith("readme.ts")),
    errors.join("\n"),
  ).toEqual([]);
  expect(errors.some((line) => line.startsWith("readme-broken.ts"))).toBe(true);
});
