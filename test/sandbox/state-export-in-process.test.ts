// GET /_sandbox/state in process (`sandbox.fetch`): a Response whose body is a stream of the state's chunks, whose
// JSON is what `sandbox.snapshot()` gives (each account's apiSecret and webhookSecret left out unless
// `?secrets=true` asks for them); a store that breaks the control document errors the body, and is logged.
import { expect, it } from "vitest";
import { engineOf } from "../../src/sandbox/direct.js";
import { control, newSandbox, ORIGIN } from "./support/sandbox.js";

const SECRETS = { apiSecret: "api-secret-b", webhookSecret: "whsec-b" };

it("answers the state as a streamed body whose JSON is the snapshot, the secrets only when asked", async () => {
  const sandbox = newSandbox({ accounts: { "key-a": { balances: { USDT: 100 } }, "key-b": SECRETS } });
  const response = await sandbox.fetch(new Request(`${ORIGIN}/_sandbox/state`));
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json");
  expect(response.body).toBeInstanceOf(ReadableStream);
  const snapshot = sandbox.snapshot();
  const { apiSecret, webhookSecret, ...withoutSecrets } = snapshot.accounts["key-b"]!;
  expect([apiSecret, webhookSecret]).toEqual(["api-secret-b", "whsec-b"]);
  expect(JSON.parse(await response.text())).toEqual({
    ...snapshot,
    accounts: { ...snapshot.accounts, "key-b": withoutSecrets },
  });
  expect((await control(sandbox, "GET", "/_sandbox/state?secrets=true")).body).toEqual(sandbox.snapshot());
  expect(sandbox.bugs).toEqual([]);
});

it("errors the body, and logs the sandbox bug, when a store breaks the control document", async () => {
  const sandbox = newSandbox({ accounts: { "key-a": {}, "key/b": {} } });
  const store = engineOf(sandbox)!.state.accounts["key/b"]!;
  (store as { clockOffsetMs: unknown }).clockOffsetMs = "soon"; // reached into: no request makes this
  const response = await sandbox.fetch(new Request(`${ORIGIN}/_sandbox/state`));
  expect(response.status).toBe(200);
  await expect(response.text()).rejects.toThrow(
    "the sandbox's control answer breaks its document: GET /_sandbox/state 200: /accounts/key~1b/clockOffsetMs " +
      "must be integer",
  );
  expect(sandbox.bugs).toEqual([
    "sandbox bug: GET /_sandbox/state: the sandbox's control answer breaks its document: " +
      "GET /_sandbox/state 200: /accounts/key~1b/clockOffsetMs must be integer",
  ]);
});

it("errors the body when a restore replaces the state during the export (no mix of two states)", async () => {
  const sandbox = newSandbox();
  for (let n = 0; n < 400; n++) sandbox.putAccount(`key-${n}`, { balances: { USDT: n + 1 } }); // several chunks
  const saved = sandbox.snapshot();
  const response = await sandbox.fetch(new Request(`${ORIGIN}/_sandbox/state`));
  const reader = response.body!.getReader();
  expect((await reader.read()).done).toBe(false); // the first chunk: the export is under way
  sandbox.restore(saved);
  const rest = (async () => {
    for (;;) if ((await reader.read()).done) return "ended";
  })();
  await expect(rest).rejects.toThrow("the state was replaced (a restore) while it was being exported");
});
