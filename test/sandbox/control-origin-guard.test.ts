// pins: control.origin
// The control API's guard (createControlGuard) judging one request by its Host, its target and its Origin, called
// directly with the request's parts: a request without Host is refused 421 with a message that lists the hosts it
// answers to and says the Host is missing, and a target the URL parser cannot read is judged by its Host alone
// (the guard answers, it does not throw).
import type http from "node:http";
import { describe, expect, it } from "vitest";
import { createControlGuard } from "../../src/sandbox/control-origin.js";

const guard = createControlGuard(new Set(["127.0.0.1:4020", "localhost:4020"]));

/** A request as Node's HTTP server gives it to the guard: only the parts the guard reads. */
const request = (url: string, headers: http.IncomingHttpHeaders, method = "GET") =>
  ({ method, url, headers }) as http.IncomingMessage;

describe("the control API's guard", () => {
  it("refuses a request without Host (HTTP/1.0) with 421, naming the hosts it answers to", () => {
    expect(guard(request("/_sandbox/clock", {}))).toEqual({
      status: 421,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        message:
          "the control API answers only to the hosts 127.0.0.1:4020, localhost:4020, not to a request without Host",
      }),
      why: "the control API answers only to the hosts 127.0.0.1:4020, localhost:4020, not to a request without Host",
    });
  });

  it("judges a target the URL parser cannot read by its Host alone", () => {
    expect(guard(request("http://[/_sandbox/clock", { host: "localhost:4020" }))).toBeUndefined();
    expect(guard(request("http://[/_sandbox/clock", { host: "evil.example" }))?.why).toBe(
      "the control API answers only to the hosts 127.0.0.1:4020, localhost:4020, not to evil.example",
    );
  });
});
