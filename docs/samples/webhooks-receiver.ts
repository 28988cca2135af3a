// webhooks-receiver.ts
import type { IncomingMessage, ServerResponse } from "node:http";
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from "@trading-wallet-settlement/api-contract";
import type { WebhookPayload } from "@trading-wallet-settlement/api-contract";

const secret = process.env.WEBHOOK_SECRET ?? ""; // the webhook Signature Secret (not the API secret)
if (secret === "") throw new Error("WEBHOOK_SECRET is not set");

export async function receiveWebhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks); // 1. the bytes as sent: the signature is over these
  if (!(await verifyWebhookSignature(rawBody, req.headers[WEBHOOK_SIGNATURE_HEADER], secret))) {
    res.writeHead(401).end(); // 2. verify before anything reads the body
    return;
  }
  const event = JSON.parse(rawBody.toString("utf8")) as WebhookPayload; // 3. parse only now
  console.log(event.type, event.status, event.transactionId); // DEPOSIT | WITHDRAWAL, CONFIRMED, PENDING, …
  res.writeHead(200).end();
}
