// In-process webhooks: a callback instead of a URL, retries driven by the sandbox clock.
import { verifyWebhookSignature } from "@trading-wallet-settlement/api-contract";
import { createSandbox } from "@trading-wallet-settlement/api-contract/sandbox";

const secret = "whsec-test";
const taken: string[] = [];
let down = true; // the receiver is down for the first attempt
const sandbox = createSandbox({
  clock: { start: Date.parse("2026-01-01T00:00:00Z") },
  accounts: { "test-key": { balances: { USDT: 100 }, webhookSecret: secret } },
  webhooks: {
    retry: [60_000, 300_000], // two retries: 1 min, then 5 min, after the attempt before
    onWebhook: async ({ body, signature }) => {
      if (!(await verifyWebhookSignature(body, signature, secret))) return 401;
      if (down) {
        down = false;
        return 503;
      }
      taken.push(body);
      return 200;
    },
  },
});
const deposit = sandbox.deposit({ apiKey: "test-key", currency: "USDT", network: "TRX", amount: 25 });
await sandbox.webhooks.settled(); // the first attempt has ended (503); the retry is due 1 min later
sandbox.clock.advance(60_000); // the retry goes out
await sandbox.webhooks.settled();
const [webhook] = await sandbox.webhooks.list("test-key");
const attempts = webhook?.attempts.map((attempt) => [attempt.at, attempt.status]);
console.log(JSON.stringify({ about: webhook?.transactionId === deposit.id, status: webhook?.status, attempts, taken }));
// about true, status "delivered", attempts [["2026-01-01T00:00:00.000Z", 503], ["2026-01-01T00:01:00.000Z", 200]]
