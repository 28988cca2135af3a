// pins: control.origin
// The Host values the control API answers to (controlHosts): a sandbox listening on 0.0.0.0 or :: also answers to
// every address of the machine, with its port; none of them where the system will not list its interfaces (an
// interface without addresses adds none); an IPv6 host given in brackets is the same address without them, and
// only a whole bracketed host loses its brackets. The machine's interfaces are replaced here by a fixed list, so
// the names are known.
import type { NetworkInterfaceInfo } from "node:os";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

const interfaces = vi.hoisted(() => ({
  list: (): Record<string, Array<Pick<NetworkInterfaceInfo, "address">> | undefined> => ({}),
}));
vi.mock("node:os", async (importOriginal) => ({
  ...(await importOriginal<typeof import("node:os")>()),
  networkInterfaces: () => interfaces.list(),
}));

/** A machine with a loopback interface, an Ethernet one (an IPv4 and an IPv6 address) and one without addresses. */
const MACHINE = {
  lo: [{ address: "127.0.0.1" }, { address: "::1" }],
  eth0: [{ address: "192.0.2.7" }, { address: "FE80::1" }],
  tun0: undefined,
};

afterEach(() => {
  interfaces.list = () => ({});
});

// Imported afresh, after the mock: test:quick shares modules between files (isolate: false), so a control-origin.js
// loaded by an earlier file would still hold the real node:os.
let controlHosts: typeof import("../../src/sandbox/control-origin.js").controlHosts;
beforeAll(async () => {
  vi.resetModules();
  ({ controlHosts } = await import("../../src/sandbox/control-origin.js"));
});

const sortedHosts = (host: string, port: number) => [...controlHosts(host, port)].sort();

describe("the hosts a sandbox listening on every address answers to", () => {
  it("on 0.0.0.0: the loopback names, 0.0.0.0 and each address of the machine, with the port", () => {
    interfaces.list = () => MACHINE;
    expect(sortedHosts("0.0.0.0", 4020)).toEqual([
      "0.0.0.0:4020",
      "127.0.0.1:4020",
      "192.0.2.7:4020",
      "[::1]:4020",
      "[fe80::1]:4020",
      "localhost:4020",
    ]);
  });

  it("on :: (or [::]): the loopback names, [::] and each address of the machine, with the port", () => {
    interfaces.list = () => MACHINE;
    const expected = [
      "127.0.0.1:4020",
      "192.0.2.7:4020",
      "[::1]:4020",
      "[::]:4020",
      "[fe80::1]:4020",
      "localhost:4020",
    ];
    expect(sortedHosts("::", 4020)).toEqual(expected);
    expect(sortedHosts("[::]", 4020)).toEqual(expected);
  });

  it("where the system will not list its interfaces: the loopback names and the address it listens on", () => {
    interfaces.list = () => {
      throw new Error("uv_interface_addresses returned Unknown system error 1");
    };
    expect(sortedHosts("::", 4020)).toEqual(["127.0.0.1:4020", "[::1]:4020", "[::]:4020", "localhost:4020"]);
  });
});

describe("the hosts a sandbox listening on one address answers to", () => {
  it("does not add the machine's addresses", () => {
    interfaces.list = () => MACHINE;
    expect(sortedHosts("192.0.2.7", 4020)).toEqual([
      "127.0.0.1:4020",
      "192.0.2.7:4020",
      "[::1]:4020",
      "localhost:4020",
    ]);
  });

  it("takes an IPv6 address in brackets for the same address", () => {
    expect(sortedHosts("[::1]", 4020)).toEqual(["127.0.0.1:4020", "[::1]:4020", "localhost:4020"]);
    expect(sortedHosts("[2001:DB8::5]", 4020)).toEqual([
      "127.0.0.1:4020",
      "[2001:db8::5]:4020",
      "[::1]:4020",
      "localhost:4020",
    ]);
  });

  it("takes off brackets only around the whole host", () => {
    expect(sortedHosts("[]::1", 4020)).toEqual(["127.0.0.1:4020", "[::1]:4020", "[[]::1]:4020", "localhost:4020"]);
    expect(sortedHosts("::1[]", 4020)).toEqual(["127.0.0.1:4020", "[::1[]]:4020", "[::1]:4020", "localhost:4020"]);
  });
});
