// webhooks-sandbox-flow.mjs
import { createClient, unwrap } from "@trading-wallet-settlement/api-contract";
import { createSandboxControl } from "@trading-wallet-settlement/api-contract/sandbox";
import { startReceiver } from "./webhooks-sandbox-receiver.mjs";

const baseUrl = process.env.SANDBOX_URL ?? "http://127.0.0.1:4020/v1";
const control = createSandboxControl({ baseUrl }); // typed; a step it refuses throws
const secret = "whsec-flow";
const receiver = await startReceiver(secret, { down: 1 });
const account = { balances: { USDT: 100 }, webhookUrl: receiver.url, webhookSecret: secret };
await control.putAccount("hooks-key", account);
const api = createClient({ baseUrl, apiKey: "hooks-key", retry: false });

// Money in: a new deposit address, a payment to it, and where it shows.
const customer = { currency: "USDT", network: "TRX", uniqueUserIdentifier: "customer-1" };
const address = await unwrap(api.POST("/addresses/broker", { body: customer }));
const payment = { apiKey: "hooks-key", address: address.data.value, amount: 25 };
const deposit = await control.deposit(payment); // the transaction, as Get Transaction has it
const afterDeposit = await unwrap(api.GET("/wallets/USDT")); // 100 + 25
const history = await unwrap(api.GET("/transactions/me"));
const deposits = await unwrap(api.GET("/transactions/deposits/me"));
// The receiver answered 503: the webhook is pending until its retry, 1 min later on the sandbox clock.
await receiver.wasDown();
await control.advanceClock(60_000);
const [depositWebhook] = await receiver.taken(1);

// Money out: two withdrawals (PENDING at once), one settled SUCCESSFUL, the other FAILED.
const to = { address: "TJ8m3F6vQ2xWk9pL4rN7sB1cD5eH2aGyUz", network: "TRX" };
const withdrawal = { amount: 20, currency: "USDT", destination: to };
const withdraw = () => unwrap(api.POST("/wallets/ext/debit/crypto", { body: withdrawal }));
const paid = await withdraw();
const refunded = await withdraw();
const whileOut = await unwrap(api.GET("/wallets/USDT")); // 125 - 2 × (20 + the network's fee of 1)
await control.settleWithdrawal(paid.data.id, { status: "SUCCESSFUL" });
await control.settleWithdrawal(refunded.data.id, { status: "FAILED" });
const afterSettling = await unwrap(api.GET("/wallets/USDT")); // the failed one's 21 came back
const webhooks = await receiver.taken(5); // the deposit's, then two for each withdrawal

// Resend: the deposit's webhook again, the same bytes (and so the same signature).
const again = { params: { path: { transactionId: deposit.id } } };
await unwrap(api.POST("/transactions/{transactionId}/resendWebhook", again));
const resent = (await receiver.taken(6))[5];
const outbox = await control.webhooks("hooks-key");
await receiver.close();

const statuses = (id) => webhooks.filter((w) => w.payload.transactionId === id).map((w) => w.payload.status);
console.log(
  JSON.stringify({
    deposit: [deposit.category, deposit.deposit.status, deposit.deposit.destinationAddress === address.data.value],
    usdt: [afterDeposit.data.availableBalance, whileOut.data.availableBalance, afterSettling.data.availableBalance],
    seenIn: [history.data[0].id, deposits.data[0].id].map((id) => id === deposit.id),
    depositWebhook: [depositWebhook.payload.type, depositWebhook.payload.status, depositWebhook.payload.amount],
    retried: outbox[0].attempts.map((attempt) => attempt.status),
    withdrawals: [statuses(paid.data.id), statuses(refunded.data.id)],
    resentIdentical: resent.raw === depositWebhook.raw,
    outbox: outbox.length,
  }),
);
