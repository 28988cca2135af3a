// sandbox-fixture.ts: one `api-contract sandbox` for every worker; each test gets its own key, account and clock
import { randomUUID } from "node:crypto";
import { createSandboxControl } from "@trading-wallet-settlement/api-contract/sandbox";
import { test as base } from "vitest";

const control = createSandboxControl({ baseUrl: process.env.SANDBOX_URL ?? "http://127.0.0.1:4020" });

export const test = base.extend<{ apiKey: string; advance: (ms: number) => Promise<number> }>({
  // A fresh key and account per test, removed after it (a reset of that key alone).
  // biome-ignore lint/correctness/noEmptyPattern: vitest wants a pattern here, which names the fixtures used (none).
  apiKey: async ({}, use) => {
    const apiKey = `test-${randomUUID()}`;
    await control.putAccount(apiKey, { balances: { USDT: 1000 } });
    await use(apiKey);
    await control.deleteAccount(apiKey);
  },
  // Moves this test's key's clock only; answers its new moment (ms since the epoch).
  advance: async ({ apiKey }, use) => {
    await use(async (ms) => (await control.advanceAccountClock(apiKey, ms)).now);
  },
});
