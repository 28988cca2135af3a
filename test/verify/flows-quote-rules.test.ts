// verify's quote flows (src/verify/flows/quote-rules.ts): on a fresh sandbox they pass and confirm their nine register
// entries; against the sandbox behind a proxy that breaks one of those rules, the run fails with that entry
// contradicted and the exchange that shows it; on the mock, and on a deployment where they need the control API,
// they are untested, saying why. The rules are held here as literal values a person can check.
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { VerifyOptions } from "../../src/verify/index.js";
import { closeServers, closers, type Report, run } from "./support/flow-runs.js";
import { type Deviation, deviantSandbox } from "./support/deviant-sandbox.js";

afterEach(closeServers);

async function againstDeviant(deviate: Deviation, options: Partial<VerifyOptions> = {}) {
  const deviant = await deviantSandbox(deviate);
  closers.push(() => deviant.close());
  return run(deviant.baseUrl, options);
}

const asIs: Deviation = ({ status, body }) => ({ status, body });
const isCreateQuote = (method: string, path: string) => method === "POST" && path === "/v1/trades/quote";

/** The quote flows' names, in the order they run. */
const FLOWS = {
  catalogue: "catalogue: the currencies, pairs, rates and networks are the contract's examples",
  refusals: "quote refusals: requests incomplete or invalid, and currencies that do not trade",
  sides: "sides: a SELL and a BUY of the pair accepted, and the pair named the other way",
  money: "money.exact: the largest amounts quoted, beyond them refused, a balance at the most",
  reservation: "no reservation: two quotes of a whole balance, both made, the second accepted first",
  summary: "trades summary: two trades summed, by currency, and paged",
  rates: "rates: a fiat and a dollar rate set, answered at once, then put back",
  ids: "ids: a quote's and a trade's ids, and the same quote id again after a restore",
} as const;
const NAMES: readonly string[] = Object.values(FLOWS);

/** The quote flows' results, by name. */
const quoteFlows = (report: Report) =>
  Object.fromEntries(report.flows!.filter((f) => NAMES.includes(f.flow)).map((f) => [f.flow, f.reason ?? f.outcome]));

const verdictOf = (report: Report, id: string) => report.choices!.find((choice) => choice.id === id)!;

/** The run failed, with `id` contradicted by evidence matching `evidence`, and `flow` failed naming it. */
function expectContradicted(report: Report, id: string, flow: string, evidence: RegExp) {
  const verdict = verdictOf(report, id);
  expect(verdict.verdict).toBe("contradicted");
  expect(verdict.evidence).toMatch(evidence);
  expect(report.flows!.find((f) => f.flow === flow)).toMatchObject({ outcome: "failed" });
  expect(report.flows!.find((f) => f.flow === flow)?.reason).toContain(id);
  expect(report.ok).toBe(false);
}

describe("verify's quote flows on a fresh sandbox", () => {
  it("pass, confirming each of their entries", async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true });
    closers.push(() => sandbox.stop());
    const report = await run(sandbox.baseUrl);
    expect(quoteFlows(report)).toEqual(Object.fromEntries(NAMES.map((name) => [name, "passed"])));
    const ids = [
      "quotes.sides",
      "quotes.not-tradable",
      "quotes.invalid-request",
      "money.exact",
      "quotes.no-reservation",
      "ids",
      "trades.summary",
      "rates.update",
      "catalogue",
    ];
    expect(Object.fromEntries(ids.map((id) => [id, verdictOf(report, id)]))).toEqual(
      Object.fromEntries(ids.map((id) => [id, { id, verdict: "confirmed" }])),
    );
    // Any flow of the run that failed (another module's too), with why, before the verdict that sums them up.
    expect(report.flows!.filter((flow) => flow.outcome === "failed")).toEqual([]);
    expect(report.ok).toBe(true);
    // The rates flow put the rates back as they were: the contract's examples.
    expect(sandbox.sandbox.setRates({})).toEqual({
      fiat: [
        { currency: "NGNX", buyRate: 1652.4, sellRate: 1611.8 },
        { currency: "GHS", buyRate: 15.86, sellRate: 15.21 },
      ],
      dollar: { USDT: 1, NGNX: 0.00062042 },
    });
  });

  it("restore every other account as it was, its secrets and webhook settings included (ids)", async () => {
    const other = { apiSecret: "s3cret", webhookUrl: "http://127.0.0.1:9/hooks", webhookSecret: "whsec-1" };
    const sandbox = await startSandbox({ port: 0, quiet: true, config: { accounts: { other } } });
    closers.push(() => sandbox.stop());
    const report = await run(sandbox.baseUrl, { rules: ["ids"] });
    expect([verdictOf(report, "ids").verdict, report.ok]).toEqual(["confirmed", true]);
    expect(sandbox.sandbox.getAccount("other")).toMatchObject({
      hasApiSecret: true,
      webhookUrl: "http://127.0.0.1:9/hooks",
      hasWebhookSecret: true,
    });
  });
});

describe("verify's quote flows against a sandbox that breaks one of their rules", () => {
  it("a BUY quoted at the sellRate: quotes.sides contradicted", async () => {
    // Paying NGNX (BUY) receives USDT at NGNX's buyRate 1652.4; this one answers the sellRate 1611.8.
    const sellRate: Deviation = ({ method, path, status, body }) =>
      isCreateQuote(method, path) && status === 200 && body.data.side === "BUY"
        ? { status, body: { ...body, data: { ...body.data, rate: 1611.8 } } }
        : { status, body };
    const report = await againstDeviant(sellRate, { rules: ["quotes.sides"] });
    expectContradicted(report, "quotes.sides", FLOWS.sides, /"rate":1611\.8,.*: BUY expected rate 1652\.4, /);
  });

  it("the pair named the other way quoted: quotes.sides and quotes.not-tradable contradicted", async () => {
    // sourceId NGNX, targetId USDT names no pair: answered with the quote made before it.
    const reversed: Deviation = ({ method, path, status, body }, seen) => {
      const made = [...seen].reverse().find((e) => isCreateQuote(e.method, e.path) && e.status === 200);
      const other = isCreateQuote(method, path) && status === 400 && /^no trade pair NGNX\/USDT/.test(body.message);
      return other && made ? { status: 200, body: made.body } : { status, body };
    };
    const report = await againstDeviant(reversed, { rules: ["quotes.sides", "quotes.not-tradable"] });
    expectContradicted(report, "quotes.sides", FLOWS.sides, /^the other order: POST \/trades\/quote → 200 /);
    expectContradicted(
      report,
      "quotes.not-tradable",
      FLOWS.refusals,
      /^the pair the other way: POST \/trades\/quote → 200 /,
    );
  });

  it("an id of no currency answered 404: quotes.not-tradable contradicted", async () => {
    const notFound: Deviation = ({ method, path, status, body }) =>
      isCreateQuote(method, path) && status === 400 && /^targetId [0-9a-f-]{36} is no currency/.test(body.message)
        ? { status: 404, body }
        : { status, body };
    const report = await againstDeviant(notFound, { rules: ["quotes.not-tradable"] });
    expectContradicted(
      report,
      "quotes.not-tradable",
      FLOWS.refusals,
      /^targetId an id of no currency: POST \/trades\/quote → 404 /,
    );
    expect(verdictOf(report, "quotes.invalid-request").verdict).toBe("confirmed");
  });

  it("amount 0 answered 400: quotes.invalid-request contradicted", async () => {
    const status400: Deviation = ({ method, path, status, body }) =>
      isCreateQuote(method, path) && status === 422 && /amount must be above 0/.test(body.message)
        ? { status: 400, body }
        : { status, body };
    const report = await againstDeviant(status400, { rules: ["quotes.invalid-request"] });
    expectContradicted(report, "quotes.invalid-request", FLOWS.refusals, /^amount 0: POST \/trades\/quote → 400 /);
  });

  it("7 decimals of USDT (it has 6) quoted: quotes.invalid-request contradicted", async () => {
    const taken: Deviation = ({ method, path, status, body }, seen) => {
      const made = seen.find((e) => isCreateQuote(e.method, e.path) && e.status === 200);
      const decimals = isCreateQuote(method, path) && status === 422 && /more than 6 decimals/.test(body.message);
      return decimals && made ? { status: 200, body: made.body } : { status, body };
    };
    const report = await againstDeviant(taken, { rules: ["quotes.invalid-request"] });
    expectContradicted(
      report,
      "quotes.invalid-request",
      FLOWS.refusals,
      /^amount of 7 decimals: POST \/trades\/quote → 200 /,
    );
  });

  it("an amount of 10^15 minor units quoted: money.exact contradicted", async () => {
    // USDT has 6 decimals: 999999999.999999 is 999,999,999,999,999 minor units, the most; 1000000000 is one more.
    const taken: Deviation = ({ method, path, status, body }, seen) => {
      const made = seen.find((e) => isCreateQuote(e.method, e.path) && e.status === 200);
      const message = status === 422 ? String(body.message) : "";
      const beyond = isCreateQuote(method, path) && /^amount has more than 999999999\.999999 USDT/.test(message);
      return beyond && made ? { status: 200, body: made.body } : { status, body };
    };
    const report = await againstDeviant(taken, { rules: ["money.exact"] });
    expectContradicted(
      report,
      "money.exact",
      FLOWS.money,
      /^SELL 1000000000 USDT: POST \/trades\/quote → 200 .* \(expected 422\)$/,
    );
  });

  it("a trade into a wallet at its most accepted: money.exact contradicted", async () => {
    // NGNX has 2 decimals: 9999999999999.99 is the most; 1 USDT more (1611.8 NGNX) must be refused, 400.
    const accepted: Deviation = ({ method, path, status, body }, seen) => {
      const trade = seen.find((e) => /^\/v1\/trades\/quote\/[^/]+$/.test(e.path) && e.status === 200);
      const tooHigh =
        method === "POST" &&
        status === 400 &&
        /^\/v1\/trades\/quote\/[^/]+$/.test(path) &&
        /exact|most/.test(body.message);
      return tooHigh && trade ? { status: 200, body: trade.body } : { status, body };
    };
    const report = await againstDeviant(accepted, { rules: ["money.exact"] });
    expectContradicted(
      report,
      "money.exact",
      FLOWS.money,
      /^NGNX at 9999999999999\.99, accepting: POST \/trades\/quote\/\S+ → 200 /,
    );
  });

  it("a second quote of a whole balance refused: quotes.no-reservation contradicted", async () => {
    // The flow's account holds 2 USDT; its first quote of 2 USDT would hold them.
    const reserving: Deviation = ({ method, path, status, body }, seen) => {
      const quotes = seen.filter((e) => isCreateQuote(e.method, e.path));
      const first = quotes.find((e) => e.status === 200 && e.body.data.amount === 2);
      const refusal = quotes.find((e) => e.status === 400);
      const again = isCreateQuote(method, path) && status === 200 && body.data.amount === 2 && first;
      return again && refusal ? { status: 400, body: refusal.body } : { status, body };
    };
    const report = await againstDeviant(reserving, { rules: ["quotes.no-reservation"] });
    expectContradicted(report, "quotes.no-reservation", FLOWS.reservation, /^POST \/trades\/quote → 400 /);
  });

  it("a summary that ignores an unknown currencyId: trades.summary contradicted", async () => {
    // The flow's two trades: 1 USDT (dollar rate 1) = 1.00, and 1000 NGNX × 0.00062042 = 0.62: 1.62 in all.
    const ids = ["1d9f6a7e-3c2b-4f8a-9e51-0b7c2d4e6f81", "5b2e8c14-7a3d-4e9f-8c60-2f1a9b3d7e52"];
    const unfiltered: Deviation = ({ method, path, status, body }, seen) => {
      const filtered = /^\/v1\/trades\/summary\/me\?currencyId=(.+)$/.exec(path);
      if (method !== "GET" || !filtered || ids.includes(filtered[1]!)) return { status, body };
      const all = [...seen].reverse().find((e) => e.path === "/v1/trades/summary/me");
      return { status, body: all?.body ?? body };
    };
    const report = await againstDeviant(unfiltered, { rules: ["trades.summary"] });
    expectContradicted(
      report,
      "trades.summary",
      FLOWS.summary,
      /^GET \/trades\/summary\/me\?currencyId=\S+ → 200 \{.*"totalDollarVolume":1\.62\}\} \(expected 0\)$/,
    );
  });

  it("a summary that counts only its page: trades.summary contradicted", async () => {
    const paged: Deviation = ({ method, path, status, body }) =>
      method === "GET" && path === "/v1/trades/summary/me?page=2&pageSize=1"
        ? { status, body: { ...body, data: { totalDollarVolume: 0.62 } } }
        : { status, body };
    const report = await againstDeviant(paged, { rules: ["trades.summary"] });
    expectContradicted(
      report,
      "trades.summary",
      FLOWS.summary,
      /pageSize=1 → 200 .*"totalDollarVolume":0\.62.* \(expected 1\.62\)$/,
    );
  });

  it("Get Fiat Rates cached: rates.update contradicted", async () => {
    // NGNX set to 1652.4 + 100 = 1752.4 (buy) and 1611.8 + 100 = 1711.8 (sell); the first answer is given again.
    const cached: Deviation = ({ method, path, status, body }, seen) => {
      if (method !== "GET" || path !== "/v1/currencies/fiat-rates") return { status, body };
      return { status, body: seen.find((e) => e.path === path)?.body ?? body };
    };
    const report = await againstDeviant(cached, { rules: ["rates.update"] });
    expectContradicted(
      report,
      "rates.update",
      FLOWS.rates,
      /"sellRate":1611\.8.*: after setting NGNX 1752\.4\/1711\.8, the others kept$/,
    );
  });

  it("a dollar rate set but not used: rates.update contradicted", async () => {
    // NGNX's dollar rate set to 0.00062042 × 2 = 0.00124084; the quote answers the documented one.
    const kept: Deviation = ({ method, path, status, body }) =>
      isCreateQuote(method, path) && status === 200 && body.data.targetDollarRate === 0.00124084
        ? { status, body: { ...body, data: { ...body.data, targetDollarRate: 0.00062042 } } }
        : { status, body };
    const report = await againstDeviant(kept, { rules: ["rates.update"] });
    expectContradicted(
      report,
      "rates.update",
      FLOWS.rates,
      /: after setting NGNX's dollar rate 0\.00124084, USDT's kept$/,
    );
  });

  it("another quote id after a restore: ids contradicted", async () => {
    const fresh: Deviation = ({ method, path, status, body }, seen) => {
      if (!isCreateQuote(method, path) || status !== 200) return { status, body };
      const repeated = seen.some((e) => isCreateQuote(e.method, e.path) && e.body.data?.id === body.data.id);
      return repeated
        ? { status, body: { ...body, data: { ...body.data, id: `${body.data.id.slice(0, -1)}Z` } } }
        : { status, body };
    };
    const report = await againstDeviant(fresh, { rules: ["ids"] });
    expectContradicted(
      report,
      "ids",
      FLOWS.ids,
      /^after the restore, POST \/trades\/quote → 200 .* \(first qt_[A-Za-z0-9]{16}\)$/,
    );
  });

  it("a trade id that is not a UUID: ids contradicted", async () => {
    // Quote ids are qt_ and 16 letters or digits; every other id (a trade's) is a UUID.
    const tradeId: Deviation = ({ method, path, status, body }) =>
      method === "POST" && /^\/v1\/trades\/quote\/[^/]+$/.test(path) && status === 200
        ? { status, body: { ...body, data: { ...body.data, id: "trade-1" } } }
        : { status, body };
    const report = await againstDeviant(tradeId, { rules: ["ids"] });
    expectContradicted(report, "ids", FLOWS.ids, /^ids not UUIDs: trade-1$/);
  });

  it("a currency other than Get Currencies' example: catalogue contradicted", async () => {
    // The documented USDT is named "Tether USD".
    const renamed: Deviation = ({ method, path, status, body }) =>
      method === "GET" && path === "/v1/currencies"
        ? {
            status,
            body: {
              ...body,
              data: body.data.map((c: { code: string }) => (c.code === "USDT" ? { ...c, name: "Tether" } : c)),
            },
          }
        : { status, body };
    const report = await againstDeviant(renamed, { rules: ["catalogue"] });
    expectContradicted(
      report,
      "catalogue",
      FLOWS.catalogue,
      /^GET \/currencies → 200 .*"name":"Tether",.*: not the documented example of getCurrencies$/,
    );
  });

  it("GHS quoted: catalogue contradicted", async () => {
    // GHS has a documented fiat rate (15.86/15.21) but no documented currency: it cannot be quoted.
    const ghs: Deviation = ({ method, path, status, body }, seen) => {
      const made = seen.find((e) => isCreateQuote(e.method, e.path) && e.status === 200);
      const refused = isCreateQuote(method, path) && status === 400 && /^targetId GHS /.test(body.message);
      return refused && made ? { status: 200, body: made.body } : { status, body };
    };
    const report = await againstDeviant(ghs, { rules: ["catalogue"] });
    expectContradicted(report, "catalogue", FLOWS.catalogue, /^GHS quoted: POST \/trades\/quote → 200 /);
  });
});

describe("verify's quote flows where they cannot run", () => {
  it("are untested on the mock", async () => {
    const report = await againstDeviant(asIs, { target: "mock" });
    expect(quoteFlows(report)).toEqual(
      Object.fromEntries(NAMES.map((name) => [name, "the mock keeps no state between requests"])),
    );
  });

  it("on a deployment, those that need the control API are untested; the refusals only with side effects", async () => {
    const safe = await againstDeviant(asIs, {
      target: "deployment",
      minIntervalMs: 0,
      rules: ["quotes.invalid-request"],
    });
    expect(quoteFlows(safe)[FLOWS.refusals]).toBe(
      "it sends 8 Create Quote requests, which count against the hourly limit (allow side effects to run it)",
    );
    const report = await againstDeviant(asIs, { target: "deployment", minIntervalMs: 0, allowSideEffects: true });
    const control = (what: string) => `it needs ${what}, which only the package's sandbox gives it (control API)`;
    expect(quoteFlows(report)).toEqual({
      [FLOWS.catalogue]:
        "the contract's examples are the sandbox's catalogue; a deployment's currencies and rates are its own",
      [FLOWS.refusals]: "passed",
      [FLOWS.sides]: "passed",
      [FLOWS.money]: control("an account with a balance at the most it keeps"),
      [FLOWS.reservation]: control("an account with a balance of its choosing"),
      [FLOWS.summary]: control("an account whose only trades are its own"),
      [FLOWS.rates]: control("to set the sandbox's rates"),
      [FLOWS.ids]: control("to save and restore the sandbox's state"),
    });
    expect(verdictOf(report, "quotes.invalid-request").verdict).toBe("confirmed");
    expect(verdictOf(report, "quotes.not-tradable").verdict).toBe("confirmed");
    expect(verdictOf(report, "money.exact")).toEqual({
      id: "money.exact",
      verdict: "untested",
      reason: `${FLOWS.money}: ${control("an account with a balance at the most it keeps")}`,
    });
  });
});
