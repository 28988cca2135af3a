// Create Deposit Address and Get Deposit Addresses at their edges: both identifier names with one value are one
// identifier (two values are refused, with the message saying so); an address is its currency's, so another
// currency on the same network with the same identifier gets its own; a master address's record holds no
// identifier key (the snapshot is plain JSON); the list is whole when neither page nor pageSize is sent and paged
// (30 by default) when either is.
import { describe, expect, it } from "vitest";
import { REFUSAL_STATUS } from "../../src/sandbox/rules.js";
import { successExample } from "../support/spec.js";
import { api, newSandbox } from "./support/sandbox.js";

const create = (sandbox: ReturnType<typeof newSandbox>, body: Record<string, unknown>) =>
  api(sandbox, "POST", "/addresses/broker", body);

describe("deposit address requests", () => {
  it("take uniqueUserIdentifier and purpose with one value as one identifier, and refuse two values", async () => {
    const sandbox = newSandbox();
    const pair = { currency: "USDT", network: "TRX" };
    const named = await create(sandbox, { ...pair, uniqueUserIdentifier: "cust-1" });
    const both = await create(sandbox, { ...pair, uniqueUserIdentifier: "cust-1", purpose: "cust-1" });
    expect([both.status, both.violations, both.body.data]).toEqual([200, [], named.body.data]);
    const two = await create(sandbox, { ...pair, uniqueUserIdentifier: "cust-1", purpose: "cust-2" });
    expect([two.status, two.body.message]).toEqual([
      REFUSAL_STATUS.invalidAddressRequest,
      "uniqueUserIdentifier and purpose name the same identifier: send one, or the same value in both",
    ]);
  });

  it("give another currency on the same network, for the same identifier, an address of its own", async () => {
    const networks = structuredClone(successExample("getActiveNetworks").data as any);
    networks.NGNX = { currencyName: "NGNX", networks: [{ ...networks.USDT.networks[0], networkCode: "TRX" }] };
    const sandbox = newSandbox({ catalogue: { networks } });
    const made = [];
    for (const currency of ["USDT", "NGNX"]) {
      const answer = await create(sandbox, { currency, network: "TRX", uniqueUserIdentifier: "cust-1" });
      expect(answer.status).toBe(200);
      made.push(answer.body.data);
    }
    expect(made.map((address) => address.purpose)).toEqual(["cust-1 USDT.TRX", "cust-1 NGNX.TRX"]);
    expect(made[1].id).not.toBe(made[0].id);
  });

  it("keep a master address's record without an identifier key: the snapshot is plain JSON", async () => {
    const sandbox = newSandbox();
    expect((await create(sandbox, { currency: "USDT", network: "TRX" })).body.data.isMaster).toBe(true);
    const snapshot = sandbox.snapshot();
    expect(snapshot).toStrictEqual(JSON.parse(JSON.stringify(snapshot)));
  });

  it("list every address unless page or pageSize is sent, and 30 a page when only one of them is", async () => {
    const sandbox = newSandbox();
    for (let customer = 1; customer <= 32; customer++)
      expect(
        (await create(sandbox, { currency: "USDT", network: "TRX", uniqueUserIdentifier: `c-${customer}` })).status,
      ).toBe(200);
    const counts = [];
    for (const query of ["", "?page=2", "?pageSize=1", "?page=1&pageSize=31"]) {
      const listed = await api(sandbox, "GET", `/addresses/me/broker${query}`);
      counts.push([query, listed.status, listed.body.data.length]);
    }
    // 32 addresses: all of them; page 2 of 30 holds 2; a page of 1; a page of 31.
    expect(counts).toEqual([
      ["", 200, 32],
      ["?page=2", 200, 2],
      ["?pageSize=1", 200, 1],
      ["?page=1&pageSize=31", 200, 31],
    ]);
  });
});
