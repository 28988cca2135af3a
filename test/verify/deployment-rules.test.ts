// Why a case does not run on a deployment (src/verify/plan.ts): a path value it needs, a change of state, a second
// call of an operation's own quota; never on the mock. The last path parameter can come from what a POST of the
// parent path creates (creatorPath). On the small contract of ./support/things.ts.
import { describe, expect, it } from "vitest";
import { listOperations, type OpenApiDocument, successKeys } from "../../src/openapi/index.js";
import { creatorPath, planVerification } from "../../src/verify/index.js";
import { operation, operations, planned, spec } from "./support/things.js";

describe("planVerification: why a case does not run on a deployment", () => {
  it("skips what needs a real path value, changes state or spends an own quota twice; never on the mock", () => {
    const skips = (options: Parameters<typeof planVerification>[1]) =>
      Object.fromEntries(planVerification(spec, options).map((c) => [c.name, c.skip ?? "runs"]));
    expect(skips({})).toEqual({
      "listThings: GET /things": "runs",
      "createThing: POST /things": "POST changes state on the target (allow side effects to run it)",
      "getThing: GET /things/{id}": "runs", // its id comes from what POST /things creates
      "deleteThing: DELETE /things/{id}": "DELETE changes state on the target (allow side effects to run it)",
      "getItem: GET /groups/{group}/items/{item}":
        "needs a real value for {group}, {item} (the spec's example need not exist on the target): pass --param " +
        "group=… --param item=…",
      "ranged: GET /ranged": "runs",
      "open: GET /open": "runs",
      "spendQuota: POST /quota": "runs",
      "listThings: without API key": "runs",
      "listThings: query kind outside its enum": "runs",
      "createThing: without API key": "POST changes state on the target (allow side effects to run it)",
      "createThing: name of the wrong type": "POST changes state on the target (allow side effects to run it)",
      "createThing: required name missing": "POST changes state on the target (allow side effects to run it)",
      "createThing: malformed JSON": "POST changes state on the target (allow side effects to run it)",
      "getThing: without API key":
        "needs a real value for {id} (the spec's example need not exist on the target): pass --param id=…",
      "deleteThing: without API key":
        "needs a real value for {id} (the spec's example need not exist on the target): pass --param id=…",
      "getItem: without API key":
        "needs a real value for {group}, {item} (the spec's example need not exist on the target): pass --param " +
        "group=… --param item=…",
      "ranged: without API key": "runs",
      "spendQuota: without API key":
        "each call may count against this operation's own quota; only one call is spent (allow side effects to run it)",
      "spendQuota: n of the wrong type":
        "each call may count against this operation's own quota; only one call is spent (allow side effects to run it)",
      "spendQuota: malformed JSON":
        "each call may count against this operation's own quota; only one call is spent (allow side effects to run it)",
    });
    const allowed = skips({ allowSideEffects: true, params: { group: "g1" } });
    expect(Object.entries(allowed).filter(([, why]) => why !== "runs")).toEqual([
      [
        "getItem: GET /groups/{group}/items/{item}",
        "needs a real value for {item} (the spec's example need not exist on the target): pass --param item=…",
      ],
      [
        "getThing: without API key",
        "needs a real value for {id} (the spec's example need not exist on the target): pass --param id=…",
      ],
      [
        "deleteThing: without API key",
        "needs a real value for {id} (the spec's example need not exist on the target): pass --param id=…",
      ],
      [
        "getItem: without API key",
        "needs a real value for {item} (the spec's example need not exist on the target): pass --param item=…",
      ],
    ]);
    expect(Object.values(skips({ target: "mock" })).every((why) => why === "runs")).toBe(true);
    expect(
      Object.values(
        skips({ target: "deployment", allowSideEffects: true, params: { id: "1", group: "g", item: "i" } }),
      ).every((why) => why === "runs"),
    ).toBe(true);
  });

  it("creatorPath: the POST of the parent path, if there is one; successKeys: the 2xx keys", () => {
    expect(creatorPath(operations, operation("getThing"))).toBe("/things");
    expect(creatorPath(operations, operation("deleteThing"))).toBe("/things");
    expect(creatorPath(operations, operation("listThings"))).toBeUndefined();
    expect(creatorPath(operations, operation("getItem"))).toBeUndefined(); // no POST /groups/{group}/items
    // Only the last path parameter can come from the POST of the parent path: {x} of /a/{x}/b/{y} still needs a value.
    const xy = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" }, example: name });
    const nested = {
      openapi: "3.1.0",
      info: { title: "Nested", version: "1.0.0" },
      paths: {
        "/a/{x}/b": { post: { parameters: [xy("x")], responses: { "201": { description: "created" } } } },
        "/a/{x}/b/{y}": { get: { parameters: [xy("x"), xy("y")], responses: { "200": { description: "ok" } } } },
      },
    } as OpenApiDocument;
    expect(
      planned(planVerification(nested, { allowSideEffects: true }), "GET /a/{x}/b/{y}: GET /a/{x}/b/{y}").skip,
    ).toBe("needs a real value for {x} (the spec's example need not exist on the target): pass --param x=…");
    expect(successKeys(operation("getItem"))).toEqual(["200", "201"]);
    expect(successKeys(operation("open"))).toEqual([]);
    expect(
      successKeys({
        ...operation("open"),
        responses: { "2XX": {}, "2xx": {}, "200": {}, "20": {}, "2000": {}, "300": {}, x200: {} },
      }),
    ).toEqual(["200", "2XX", "2xx"]);
  });

  const ok = { responses: { "200": { description: "ok" } } };
  const ops = (paths: Record<string, Record<string, unknown>>) =>
    listOperations({ openapi: "3.1.0", paths } as OpenApiDocument);

  it("the creator is the POST of the path without its last parameter, and only when the path ends in one", () => {
    const withPost = ops({
      "/x": { post: ok },
      "/x/{id}": { get: ok },
      "/x/y": { post: ok },
      "/x/{id}/y": { get: ok },
    });
    expect(creatorPath(withPost, withPost.find((o) => o.path === "/x/{id}")!)).toBe("/x");
    expect(creatorPath(withPost, withPost.find((o) => o.path === "/x/{id}/y")!)).toBeUndefined();
    const withGet = ops({ "/x": { get: ok }, "/x/{id}": { get: ok } });
    expect(creatorPath(withGet, withGet.find((o) => o.path === "/x/{id}")!)).toBeUndefined();
  });
});
