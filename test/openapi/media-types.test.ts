// Media types (src/openapi): the media type of a Content-Type value, "is this JSON?" (application/json and
// any type/subtype+json, parameters and case aside), and the JSON media type object of a body or response.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isJsonMediaType, jsonMedia, mediaTypeOf, multipartMedia } from "../../src/openapi/index.js";

describe("mediaTypeOf", () => {
  it("is the type/subtype, lower case, without parameters or spaces; undefined when there is none", () => {
    expect(mediaTypeOf("application/json")).toBe("application/json");
    expect(mediaTypeOf(" Application/Problem+JSON ; charset=utf-8")).toBe("application/problem+json");
    expect(mediaTypeOf("text/plain;charset=us-ascii;format=flowed")).toBe("text/plain");
    for (const value of [undefined, null, "", " ", ";charset=utf-8"])
      expect(mediaTypeOf(value), String(value)).toBe(undefined);
  });

  it("reads each value anew, whichever it read before (it remembers the last one)", () => {
    const known: Record<string, string | undefined> = {
      "Text/Plain; a=b": "text/plain",
      "application/json": "application/json",
      " X/Y ": "x/y",
      ";q=1": undefined,
      "": undefined,
    };
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...Object.keys(known)), { maxLength: 12 }), (sequence) => {
        for (const value of sequence) expect(mediaTypeOf(value), value).toBe(known[value]);
      }),
    );
  });
});

describe("isJsonMediaType", () => {
  it("is application/json or a type/subtype+json, whatever the parameters and the case", () => {
    for (const value of [
      "application/json",
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "Application/Json;charset=UTF-8",
      "application/problem+json",
      "application/vnd.api+json; ext=bulk",
      "application/merge-patch+JSON",
      "text/x.custom+json",
    ])
      expect(isJsonMediaType(value), value).toBe(true);
  });

  it("is false for other media types, a JSON-like name that is not +json, and no value", () => {
    for (const value of [
      "text/plain",
      "text/json+xml",
      "application/jsonl",
      "application/x-ndjson",
      "application/json-seq",
      "application/+json",
      "+json",
      "json",
      "multipart/form-data; boundary=json",
      "",
      null,
      undefined,
    ])
      expect(isJsonMediaType(value), String(value)).toBe(false);
  });

  it("property: parameters, spaces and case never change the answer", () => {
    const mediaType = fc.constantFrom("application/json", "application/problem+json", "text/plain", "text/json+xml");
    const parameters = fc.array(fc.stringMatching(/^[a-z]{1,8}=[a-z0-9+]{0,8}$/), { maxLength: 3 });
    fc.assert(
      fc.property(mediaType, parameters, fc.boolean(), (type, params, upper) => {
        const value = ` ${upper ? type.toUpperCase() : type} ${params.map((p) => `; ${p}`).join("")}`;
        expect(isJsonMediaType(value)).toBe(isJsonMediaType(type));
        expect(mediaTypeOf(value)).toBe(type);
      }),
    );
  });
});

describe("jsonMedia", () => {
  it("jsonMedia: application/json or a +json type, as an object", () => {
    expect(jsonMedia({ content: { "text/plain": {}, "application/problem+json": { schema: 1 } } })).toEqual({
      schema: 1,
    });
    expect(jsonMedia({ content: { "application/json": "not an object" } })).toBeUndefined();
    expect(jsonMedia({ content: { "application/jsonx": {}, "text/json+xml": {} } })).toBeUndefined();
    expect(jsonMedia(undefined)).toBeUndefined();
  });

  it("takes the first JSON key of the content, with parameters or in upper case too", () => {
    expect(
      jsonMedia({ content: { "text/plain": { schema: 0 }, "application/json; charset=utf-8": { schema: 1 } } }),
    ).toEqual({ schema: 1 });
    expect(jsonMedia({ content: { "Application/JSON": { schema: 2 }, "application/json": { schema: 3 } } })).toEqual({
      schema: 2,
    });
    expect(jsonMedia({ content: "none" })).toBeUndefined();
    expect(jsonMedia({})).toBeUndefined();
  });
});

describe("multipartMedia", () => {
  const form = { schema: { type: "object" } };
  it("is the multipart/form-data media type object, parameters aside, whatever comes before it", () => {
    expect(multipartMedia({ content: { "application/json": {}, "multipart/form-data; boundary=x": form } })).toBe(form);
  });

  it("is undefined for a body of other media types only, or no content", () => {
    expect(multipartMedia({ content: { "text/plain": form, "application/json": form } })).toBeUndefined();
    expect(multipartMedia({})).toBeUndefined();
    expect(multipartMedia(undefined)).toBeUndefined();
  });
});
