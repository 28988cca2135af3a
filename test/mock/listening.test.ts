// Where the mock listens and when it will not start: the port it is given, IPv6 with the host in brackets,
// and a contract without operations refused.
import { expect, it } from "vitest";
import { startMock } from "../../src/mock/index.js";
import { findFreePort } from "../../src/mock/processes.js";
import { notesSpec } from "./support/notes-spec.js";
import { smallSpec } from "./support/small-spec.js";

it("listens on the port it is given", async () => {
  const port = await findFreePort();
  const own = await startMock({ spec: notesSpec({ bodyRequired: false }), port });
  try {
    expect(own.port).toBe(port);
    expect((await fetch(`http://127.0.0.1:${port}/v1/notes`)).status).toBe(200);
  } finally {
    await own.stop();
  }
});

it("refuses a contract without operations; listens on IPv6 with the host in brackets", async () => {
  await expect(startMock({ spec: { ...smallSpec(), paths: {} } })).rejects.toThrow(
    /^mock: the contract has no operations$/,
  );
  const v6 = await startMock({ spec: smallSpec(), host: "::1" });
  try {
    expect(v6.origin).toBe(`http://[::1]:${v6.port}`);
    expect(v6.baseUrl).toBe(`http://[::1]:${v6.port}/v1`);
    expect((await fetch(`${v6.baseUrl}/items`)).status).toBe(200);
  } finally {
    await v6.stop();
  }
});

it("refuses to start on a port another mock listens on, with Node's EADDRINUSE", async () => {
  const own = await startMock({ spec: smallSpec() });
  try {
    await expect(startMock({ spec: smallSpec(), port: own.port })).rejects.toMatchObject({ code: "EADDRINUSE" });
    expect((await fetch(`${own.baseUrl}/items`)).status).toBe(200);
  } finally {
    await own.stop();
  }
});

it("lists, once listening, what it answers unlike the contract (the expiry of a quote among it)", async () => {
  const own = await startMock({ spec: smallSpec() });
  try {
    expect(own.fixes.some((fix) => fix.includes("expiryDate") && fix.includes("expiresIn seconds"))).toBe(true);
  } finally {
    await own.stop();
  }
});
