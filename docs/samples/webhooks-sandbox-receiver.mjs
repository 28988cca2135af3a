// webhooks-sandbox-receiver.mjs
import http from "node:http";
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from "@trading-wallet-settlement/api-contract";

/** A receiver on 127.0.0.1 that is down (answers 503) for its first `down` webhooks, to show a retry. */
export async function startReceiver(secret, { down = 0 } = {}) {
  const received = []; // the webhooks taken, in the order they arrived: { payload, raw }
  let refused = 0;
  const waiting = new Set();
  const server = http.createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const raw = Buffer.concat(chunks).toString("utf8"); // the bytes as sent: the signature is over these
    if (!(await verifyWebhookSignature(raw, request.headers[WEBHOOK_SIGNATURE_HEADER], secret))) {
      response.writeHead(401).end(); // not signed with our secret: never parsed, never acted on
    } else if (refused < down) {
      refused += 1;
      response.writeHead(503).end();
    } else {
      received.push({ payload: JSON.parse(raw), raw }); // parsed only once verified
      response.writeHead(200).end();
    }
    for (const check of waiting) check();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  /** Resolves once `test()` holds: the receiver says when, nothing sleeps. */
  const when = (test) =>
    new Promise((resolve) => {
      const check = () => {
        if (!test()) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
    });
  return {
    url: `http://127.0.0.1:${server.address().port}/webhooks`,
    /** The first `count` webhooks taken, once they have arrived. */
    taken: (count) => when(() => received.length >= count).then(() => received.slice(0, count)),
    /** Resolves once it has refused every webhook it was to refuse. */
    wasDown: () => when(() => refused >= down),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
