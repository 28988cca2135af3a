// `api-contract verify` (a child process) on a sandbox of tight limits: it paces itself by the answers'
// X-RateLimit-* headers, receives no 429 it did not ask for, and says after the run how long it waited for the
// limits on the target's clock (the sandbox's, which verify moves through the control API: no wall-clock wait).
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { cli } from "./run-cli.js";

describe("api-contract verify: rate limits", () => {
  it("gets no 429 it did not ask for at 20 requests a minute and 3 quotes an hour; says what it waited", async () => {
    const lines: string[] = [];
    const limits = { requestsPerMinute: 20, quotesPerHour: 3 };
    const config = { clock: { start: Date.UTC(2026, 0, 1) }, limits };
    const sandbox = await startSandbox({ port: 0, config, log: (line) => lines.push(line) });
    try {
      const run = await cli(["verify", "--base-url", sandbox.baseUrl], { CONTRACT_API_KEY: "user-key" });
      expect(run.code, run.output).toBe(0);
      // The only 429s are the two the flows ask for: a quote past the spent limit of the limit-windows flow's own
      // key (limits.windows), and Get Tradeable Currencies' documented 429 picked by Prefer (answers.unmodelled).
      const refused = lines.filter((line) => line.includes(" → 429 ")).map((line) => line.replace(/ \(.*$/, ""));
      expect(refused).toEqual(["POST /v1/trades/quote → 429", "GET /v1/currencies/tradeable → 429"]);
      // More than 3 Create Quote calls: at least one hour waited, said to the second as the report holds it.
      const waited = run.output.match(/\nWaited (\d+) h( \d+ min)?( \d+ s)? of the target's time for spent rate /);
      expect(Number(waited?.[1])).toBeGreaterThanOrEqual(1);
      const elapsed = sandbox.sandbox.clock.now() - Date.UTC(2026, 0, 1);
      expect(Number(waited?.[1]) * 3_600_000).toBeLessThanOrEqual(elapsed);
    } finally {
      await sandbox.stop();
    }
  }, 120_000);
});
