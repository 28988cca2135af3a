// The control prefix itself (/_sandbox, no route after it) goes to the control API, which answers that it has no
// such route, not to the API pipeline.
import { describe, expect, it } from "vitest";
import { control, newSandbox } from "./support/sandbox.js";

describe("the control prefix alone", () => {
  it("is answered by the control API: 404, no control route", async () => {
    const answer = await control(newSandbox(), "GET", "/_sandbox");
    expect([answer.status, answer.body]).toEqual([404, { message: "no control route GET /_sandbox" }]);
  });
});
