// The sandbox's admission step in the request pipeline (src/pipeline/pipeline.ts `admit`), before any check of the
// operation: the key's account (made on first use, or refused when the sandbox requires known keys), its
// signature when the account has a secret, then the rate limits. Every answer to the request carries the
// rate-limit headers this step computes from the real counters (choices.ts, "limits.counting").
import type { Admission, AdmissionRequest, Eventually } from "../pipeline/pipeline.js";
import type { Accounts } from "./accounts.js";
import { createSignatureCheck } from "./auth.js";
import { REFUSAL_STATUS } from "./rules.js";
import { apiKeyOf, type Engine, nowOf } from "./engine.js";
import { KEYLESS, type Limits } from "./limits.js";
import { type AccountRecord, ownEntry } from "./state.js";

interface AdmissionContext {
  engine: Engine;
  accounts: Accounts;
  limits: Limits;
  /** The sandbox's settings, read at each request: PUT /_sandbox/settings changes them while it runs. */
  settings: { readonly requireKnownKeys: boolean };
  /** The client's wall clock a signature's timestamp is checked against (ms since the epoch). */
  signatureClock: () => number;
}

export function createAdmission({ engine, accounts, limits, settings, signatureClock }: AdmissionContext) {
  const signatureProblem = createSignatureCheck();
  /** The limits' decision once the signature of a key with a secret is checked (Web Crypto: a promise). */
  const signedAdmission = async (
    account: AccountRecord,
    key: string,
    request: AdmissionRequest,
  ): Promise<Admission> => {
    const clocks = { wall: signatureClock(), sandbox: nowOf(engine, account) }; // the key's clock, not another's
    const problem = await signatureProblem(account.apiSecret!, request, clocks);
    if (!problem) return limits.admit(key, request.operation);
    return {
      refusal: { status: REFUSAL_STATUS.badSignature, why: problem },
      headers: limits.headersOf(key, request.operation),
    };
  };
  // At once (no promise) for a key without a secret.
  return (request: AdmissionRequest): Eventually<Admission> => {
    const key = apiKeyOf(request.headers);
    if (key === undefined) return limits.admit(KEYLESS, request.operation);
    if (!accounts.has(key)) {
      if (settings.requireKnownKeys) {
        const why = "this API key has no account in the sandbox (it requires known keys)";
        return {
          refusal: { status: REFUSAL_STATUS.unknownKey, why },
          headers: limits.headersOf(key, request.operation),
        };
      }
      accounts.ensure(key);
    }
    const account = ownEntry(engine.state.accounts, key);
    return account?.apiSecret === undefined
      ? limits.admit(key, request.operation)
      : signedAdmission(account, key, request);
  };
}
