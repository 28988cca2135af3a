// verify paces itself by the target's X-RateLimit-* headers (src/verify/send.ts): a limit an answer showed spent
// holds the key's next request counted by it until the limit's reset, read against the target's Date header (or,
// from a target that sends none, verify's time of day). The deployment here keeps fixed windows per API key, as
// the register's limits.windows says the sandbox does, and answers 429 to a request past a limit: a run that
// receives one paced wrongly. Time is a fake clock's; the deployment's clock is 12:00:00 UTC plus that clock.
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createSender } from "../../src/verify/send.js";
import { listenLocally } from "../support/local-server.js";

const NOON = Date.UTC(2026, 10, 28, 12, 0, 0);
const MINUTE = 60_000;
const HOUR = 3_600_000;

/** The verifier's clock: moves only when verify sleeps; `pauses` lists what it asked for. */
function fakeClock(start: number) {
  let time = 0;
  const pauses: number[] = [];
  return {
    pauses,
    now: () => time,
    timeOfDay: () => start + time,
    sleep: async (ms: number) => {
      pauses.push(ms);
      time += ms;
    },
  };
}

interface Window {
  scope: string;
  length: number;
  limit: number;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/**
 * A deployment of fixed windows per key: `perMinute` requests of any kind, `quotesPerHour` Create Quote calls.
 * Its answers describe the window with the fewest requests left; `arrivals` holds each request's time (ms after
 * noon) and status.
 */
async function limitedDeployment(
  clock: { now(): number },
  { perMinute, quotesPerHour = 100, start = NOON, sendDate = true }: Limits,
) {
  const used = new Map<string, number>();
  const arrivals: Array<{ key: string; at: number; status: number }> = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const now = start + clock.now();
      const key = String(request.headers["x-api-key"] ?? "");
      const quote = request.method === "POST" && request.url === "/v1/trades/quote";
      const windows: Window[] = [{ scope: "all", length: MINUTE, limit: perMinute }];
      if (quote) windows.push({ scope: "quote", length: HOUR, limit: quotesPerHour });
      const slots = windows.map((w) => `${key} ${w.scope} ${Math.floor(now / w.length)}`);
      const counts = slots.map((slot) => used.get(slot) ?? 0);
      const full = windows.some((w, i) => counts[i]! >= w.limit);
      if (!full) for (const [i, slot] of slots.entries()) used.set(slot, counts[i]! + 1);
      const left = windows.map((w, i) => Math.max(0, w.limit - counts[i]! - (full ? 0 : 1)));
      const shown = left.indexOf(Math.min(...left));
      const window = windows[shown]!;
      const status = full ? 429 : 200;
      arrivals.push({ key, at: now - NOON, status });
      response.sendDate = sendDate;
      if (sendDate) response.setHeader("date", new Date(now).toUTCString());
      response.writeHead(status, {
        "x-ratelimit-limit": String(window.limit),
        "x-ratelimit-remaining": String(left[shown]),
        "x-ratelimit-reset": String((Math.floor(now / window.length) + 1) * (window.length / 1000)),
      });
      response.end("{}");
    });
  });
  const { origin, close } = await listenLocally(server);
  closers.push(close);
  return { origin, arrivals };
}

interface Limits {
  perMinute: number;
  quotesPerHour?: number;
  /** The deployment's time when the verifier's clock reads 0 (default noon). */
  start?: number;
  sendDate?: boolean;
  /** How far verify's time of day is behind the deployment's (default 0). */
  verifyBehind?: number;
}

/** A sender on a fresh deployment of `limits`; `send` sends GET /v1/rates or, for "quote", Create Quote. */
async function pacedRun(limits: Limits) {
  const clock = fakeClock((limits.start ?? NOON) - (limits.verifyBehind ?? 0));
  const target = await limitedDeployment(clock, limits);
  const sender = createSender({ target: "deployment", minIntervalMs: 0, clock });
  const send = (kind: "get" | "quote", key = "k") =>
    sender.send({
      method: kind === "quote" ? "POST" : "GET",
      url: `${target.origin}/v1/${kind === "quote" ? "trades/quote" : "rates"}`,
      headers: { "x-api-key": key },
      body: kind === "quote" ? "{}" : undefined,
    });
  return { clock, sender, send, arrivals: target.arrivals };
}

describe("verify's pacing by the target's rate-limit headers", () => {
  it("waits from the answer that spent a limit to its reset: 2 a minute, 5 requests, two waits of 60 s", async () => {
    const run = await pacedRun({ perMinute: 2 });
    for (let i = 0; i < 5; i++) await run.send("get");
    expect(run.arrivals.map(({ at, status }) => [at, status])).toEqual([
      [0, 200],
      [0, 200],
      [60_000, 200],
      [60_000, 200],
      [120_000, 200],
    ]);
    expect(run.clock.pauses).toEqual([60_000, 60_000]);
    expect(run.sender.limitWaitMs).toBe(120_000);
  });

  it("keeps Create Quote's hourly limit while other answers tell the minute's: 4th of 3 an hour waits", async () => {
    const run = await pacedRun({ perMinute: 20, quotesPerHour: 3 });
    for (let i = 0; i < 4; i++) {
      await run.send("quote");
      await run.send("get");
    }
    // Noon to 13:00 is 3,600,000 ms: the fourth quote and the GET after it arrive then, nothing waits before.
    expect(run.arrivals.map(({ at }) => at)).toEqual([0, 0, 0, 0, 0, 0, 3_600_000, 3_600_000]);
    expect(run.arrivals.every(({ status }) => status === 200)).toBe(true);
    expect(run.clock.pauses).toEqual([3_600_000]);
  });

  it("paces each API key by its own limits: one a minute each, A B A B waits once", async () => {
    const run = await pacedRun({ perMinute: 1 });
    for (const key of ["A", "B", "A", "B"]) await run.send("get", key);
    expect(run.arrivals).toEqual([
      { key: "A", at: 0, status: 200 },
      { key: "B", at: 0, status: 200 },
      { key: "A", at: 60_000, status: 200 },
      { key: "B", at: 60_000, status: 200 },
    ]);
    expect(run.clock.pauses).toEqual([60_000]);
  });

  it("reads the reset against verify's time of day when the target sends no Date: 12:00:20 waits 40 s", async () => {
    const run = await pacedRun({ perMinute: 1, start: NOON + 20_000, sendDate: false });
    await run.send("get");
    await run.send("get");
    expect(run.arrivals.map(({ at, status }) => [at, status])).toEqual([
      [20_000, 200],
      [60_000, 200],
    ]);
    expect(run.clock.pauses).toEqual([40_000]);
  });

  it("reads the reset against the Date header when there is one: a Date of 12:00:45 waits 15 s", async () => {
    // verify's own time of day is 10 s behind the deployment's; the deployment's word on its time wins.
    const run = await pacedRun({ perMinute: 1, start: NOON + 45_000, verifyBehind: 10_000 });
    await run.send("get");
    await run.send("get");
    expect(run.arrivals.map(({ at, status }) => [at, status])).toEqual([
      [45_000, 200],
      [60_000, 200],
    ]);
    expect(run.clock.pauses).toEqual([15_000]);
  });
});
