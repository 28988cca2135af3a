// The published webhook samples as request bodies (the fixture files: one line of JSON each, exactly the bytes
// hashed) and their signatures under a test secret, computed with OpenSSL, not with the code under test:
//   $ openssl dgst -sha512 -hmac webhook-signature-secret test/webhooks/fixtures/withdrawal.body \
//       test/webhooks/fixtures/deposit.body
//   HMAC-SHA2-512(test/webhooks/fixtures/withdrawal.body)= df08562701857422360e46f1f5026f9a35ae20508313e3bf
//     fe6c4184a04ebb46e193012dc680c6b5b51a9a2387999b3f996f5202c0c224619a4a0ff9927c9604
//   HMAC-SHA2-512(test/webhooks/fixtures/deposit.body)= 171c4986cef4e1a7edb7d8a69480051660611862d0c9aeda
//     77e25361cc4b098e4aa4a9e426a56bf590fff13bc08398094ec4fd8c27f48bdab40c42c6db5dccb3
// (OpenSSL 3.0.19; each digest printed on one line, wrapped here.)
import { readFileSync } from "node:fs";

export const SECRET = "webhook-signature-secret";

export const VECTORS = [
  {
    file: "withdrawal.body",
    example: "WithdrawalWebhook",
    signature:
      "df08562701857422360e46f1f5026f9a35ae20508313e3bf" +
      "fe6c4184a04ebb46e193012dc680c6b5b51a9a2387999b3f996f5202c0c224619a4a0ff9927c9604",
  },
  {
    file: "deposit.body",
    example: "DepositWebhook",
    signature:
      "171c4986cef4e1a7edb7d8a69480051660611862d0c9aeda" +
      "77e25361cc4b098e4aa4a9e426a56bf590fff13bc08398094ec4fd8c27f48bdab40c42c6db5dccb3",
  },
];

/** A fixture body's bytes. */
export const bodyOf = (file: string): Buffer => readFileSync(new URL(`../fixtures/${file}`, import.meta.url));
