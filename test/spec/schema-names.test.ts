// A rename of an exported type (schema name) must show up in review: snapshot the sorted names.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

const spec = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));

it("keeps the sorted list of schema names", () => {
  expect(Object.keys(spec.components.schemas).sort()).toMatchSnapshot();
});
