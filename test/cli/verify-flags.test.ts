// `api-contract verify`'s flags (a child process): --api-key and --api-secret override the environment and are
// never printed; bad arguments exit 2 with the reason.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type Seen, uniformDeployment } from "../support/deployments.js";
import { API_KEY_HEADER, BASE_PATH, SIGNING_HEADERS } from "../support/spec.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { cli } from "./run-cli.js";

describe("api-contract verify: flags", () => {
  it("--sandbox-token and CONTRACT_SANDBOX_TOKEN give verify the sandbox's control API, never printed", async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true, controlToken: "sandbox-t0ken" });
    try {
      const fromEnv = await cli(["verify", "--base-url", sandbox.baseUrl], { CONTRACT_SANDBOX_TOKEN: "sandbox-t0ken" });
      expect(fromEnv.code).toBe(0);
      // Before its first request, what it would spend on a deployment.
      expect(fromEnv.output).toContain(
        "\n  what it spends there, at most: 150 requests (46 for the cases, 104 for 5 flows), 60 a minute (the " +
          "contract allows 200 per 60 s); 1 Create Quote call (its own limit: 100 per 3600 s); 0 trades of 1 unit; " +
          "0 deposit addresses; no deposit or withdrawal\n\n",
      );
      expect(fromEnv.output).toContain("\nOn the sandbox, verify prepared an account of its own (api-contract-verify-");
      // Its flows ran there, and the register's verdicts are counted.
      expect(fromEnv.output).toContain(
        "\nFlows:\n  ✓ swap: quote → accept → accept again → wallets and history\n" +
          "  ✓ expiry: a quote accepted at its expiryDate (after it, on a deployment)\n",
      );
      expect(fromEnv.output).toMatch(
        /\nThe sandbox's register on this target: 53 confirmed, 0 contradicted, 0 untested/,
      );
      const wrong = await cli(["verify", "--base-url", sandbox.baseUrl, "--sandbox-token", "wrong-t0ken"], {
        CONTRACT_SANDBOX_TOKEN: "sandbox-t0ken",
      });
      expect(wrong.code).toBe(1);
      expect(wrong.output).toContain(
        "\nOn the sandbox, verify not prepared (putSandboxAccount: the sandbox answered 401",
      );
      for (const output of [fromEnv.output, wrong.output]) expect(output).not.toMatch(/t0ken/);
    } finally {
      await sandbox.stop();
    }
  }, 120_000);

  it("--api-key and --api-secret override CONTRACT_API_KEY and CONTRACT_API_SECRET", async () => {
    const server = await uniformDeployment(401, {});
    const env = { CONTRACT_API_KEY: "env-key", CONTRACT_API_SECRET: "env-secret" };
    const signedWith = (secret: string, seen: Seen) =>
      seen.headers[SIGNING_HEADERS.signature] ===
      createHmac("sha256", secret)
        .update(`${seen.method}${seen.url}${String(seen.headers[SIGNING_HEADERS.timestamp])}`)
        .digest("hex");
    try {
      const fromFlags = await cli(
        [
          "verify",
          "--base-url",
          server.baseUrl,
          "--min-interval-ms",
          "0",
          "--api-key",
          "flag-key",
          "--api-secret",
          "flag-secret",
        ],
        env,
      );
      expect(fromFlags.code).toBe(1);
      expect(fromFlags.output).toContain("key from --api-key, requests signed (secret from --api-secret)");
      const keyed = server.seen.filter((s) => s.headers[API_KEY_HEADER] !== undefined);
      expect(keyed.length).toBeGreaterThan(0);
      expect(new Set(keyed.map((s) => s.headers[API_KEY_HEADER]))).toEqual(new Set(["flag-key"]));
      for (const seen of server.seen) expect(signedWith("flag-secret", seen), seen.url).toBe(true);
      server.seen.length = 0;
      const fromEnv = await cli(["verify", "--base-url", server.baseUrl, "--min-interval-ms", "0"], env);
      expect(fromEnv.output).toContain("key from CONTRACT_API_KEY, requests signed (secret from CONTRACT_API_SECRET)");
      expect(
        new Set(
          server.seen.filter((s) => s.headers[API_KEY_HEADER] !== undefined).map((s) => s.headers[API_KEY_HEADER]),
        ),
      ).toEqual(new Set(["env-key"]));
      for (const seen of server.seen) expect(signedWith("env-secret", seen), seen.url).toBe(true);
      // Neither the key nor the secret is printed.
      for (const output of [fromFlags.output, fromEnv.output])
        expect(output).not.toMatch(/flag-key|flag-secret|env-key|env-secret/);
    } finally {
      await server.close();
    }
  }, 120_000);

  it("CONTRACT_SECOND_API_KEY adds the isolation flow to a deployment's budget, unprinted; empty: exit 2", async () => {
    const server = await uniformDeployment(401, {});
    try {
      const env = {
        CONTRACT_API_KEY: "env-key",
        CONTRACT_SECOND_API_KEY: "second-env-key",
        CONTRACT_WEBHOOK_SECRET: "whsec-env",
      };
      const given = await cli(["verify", "--base-url", server.baseUrl, "--min-interval-ms", "0"], env);
      expect(given.output).toContain(
        "  key from CONTRACT_API_KEY; a second key for the isolation flow; a webhook secret for the webhook flow\n",
      );
      // The five reading flows' 104 requests and the isolation flow's 6: 110 for 6 flows; its quote and trade.
      expect(given.output).toContain(
        "\n  what it spends there, at most: 156 requests (46 for the cases, 110 for 6 flows)",
      );
      expect(given.output).toContain("; 2 Create Quote calls (its own limit: 100 per 3600 s); 1 trade of 1 unit; ");
      // Without side effects the webhook flow does not run on a deployment: it adds nothing.
      expect(given.output).not.toMatch(/second-env-key|whsec-env/);
    } finally {
      await server.close();
    }
    const empty = await cli(["verify", "--base-url", `http://127.0.0.1:9${BASE_PATH}`, "--second-api-key", ""]);
    expect([empty.code, empty.output]).toEqual([
      2,
      expect.stringContaining("--second-api-key is empty (leave it out to use CONTRACT_SECOND_API_KEY)"),
    ]);
  }, 120_000);

  it("exit 2 for bad arguments: no base path, unknown option, empty --api-key, --report vs --report-dir", async () => {
    const noBase = await cli(["verify", "--base-url", "http://127.0.0.1:9"]);
    expect(noBase.code).toBe(2);
    expect(noBase.output).toContain(`ending in ${BASE_PATH}`);
    const unknown = await cli(["verify", "--nope"]);
    expect(unknown.code).toBe(2);
    const emptyKey = await cli(["verify", "--base-url", `http://127.0.0.1:9${BASE_PATH}`, "--api-key", ""], {
      CONTRACT_API_KEY: "k",
    });
    expect(emptyKey.code).toBe(2);
    expect(emptyKey.output).toContain("--api-key is empty");
    const both = await cli([
      "verify",
      "--base-url",
      `http://127.0.0.1:9${BASE_PATH}`,
      "--report",
      "a",
      "--report-dir",
      "b",
    ]);
    expect(both.code).toBe(2);
    expect(both.output).toContain("--report is the old name of --report-dir");
    const typo = await cli([
      "verify",
      "--base-url",
      `http://127.0.0.1:9${BASE_PATH}`,
      "--allow-divergence",
      "quote.expired",
    ]);
    expect(typo.code).toBe(2);
    expect(typo.output).toContain(
      "--allow-divergence quote.expired: no entry of the sandbox's register has that id (GET /_sandbox/choices)",
    );
    const rule = await cli(["verify", "--base-url", `http://127.0.0.1:9${BASE_PATH}`, "--rule", "quote.expired"]);
    expect(rule.code).toBe(2);
    expect(rule.output).toContain(
      "--rule quote.expired: no entry of the sandbox's register has that id (GET /_sandbox/choices)",
    );
  });

  it("--rule runs only the flows that check the rules named: its entry and answers.checked confirmed", async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true });
    try {
      const run = await cli(["verify", "--base-url", sandbox.baseUrl, "--rule", "quotes.expired"], {
        CONTRACT_API_KEY: "user-key",
      });
      expect(run.code, run.output).toBe(0);
      // On a deployment the expiry flow trades, so without side effects none of the flows asked for runs there.
      expect(run.output).toContain("(46 for the cases, 0 for 0 flows)");
      expect(run.output).toContain(
        "\nFlows:\n  ✓ expiry: a quote accepted at its expiryDate (after it, on a deployment)\n" +
          "  – 40 more not run: it checks none of the rules asked for (--rule)\n",
      );
      expect(run.output).toMatch(/\nThe sandbox's register on this target: 2 confirmed, 0 contradicted, 51 untested/);
    } finally {
      await sandbox.stop();
    }
  }, 120_000);
});
