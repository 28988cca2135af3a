// Which hosts count as loopback (the sandbox listens there without a control token): only a whole bracketed
// IPv6 address loses its brackets, and only an IPv4 address starting 127. is loopback, not a name starting so.
import { describe, expect, it } from "vitest";
import { isLoopbackHost } from "../../src/sandbox/server.js";

describe("isLoopbackHost", () => {
  it("takes off brackets only around the whole host", () => {
    expect(isLoopbackHost("[127.0.0.1]")).toBe(true);
    expect(isLoopbackHost("[]127.0.0.1")).toBe(false);
    expect(isLoopbackHost("127.0.0.1[]")).toBe(false);
  });

  it("does not take a host name starting 127. for a loopback address", () => {
    expect(isLoopbackHost("127.example.com")).toBe(false);
  });
});
