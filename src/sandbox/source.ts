// The sandbox as the request pipeline's answer source: each operation the sandbox models answers from the state
// (operations/), every other one the documented example, as ./msw answers it (choices.ts, "answers.unmodelled").
// The caller's account is the one of its API key (the admission step, limits.ts, made it on first use).
import { createDocumentedSource } from "../pipeline/documented-source.js";
import type { AnswerSource } from "../pipeline/pipeline.js";
import { apiKeyOf, type Engine } from "./engine.js";
import { settleDue } from "./money/withdrawals.js";
import { HANDLERS } from "./operations/index.js";
import { SandboxRefusal } from "./refusal.js";
import { ownEntry } from "./state.js";

export function createSandboxSource(engine: Engine): AnswerSource {
  const documented = createDocumentedSource(engine.spec);
  return {
    // At once (no promise) for every modelled operation: the engine waits for nothing.
    answer(request) {
      const id = request.operation.operationId ?? "";
      const handler = Object.hasOwn(HANDLERS, id) ? HANDLERS[id] : undefined;
      if (!handler) return documented.answer(request);
      const key = apiKeyOf(request.headers);
      const account = key === undefined ? undefined : ownEntry(engine.state.accounts, key);
      // The caller's withdrawals whose moment the clock has reached settle before anything of its store is read.
      if (account) settleDue(engine, account);
      // The one place an operation's refusal becomes the API's answer.
      try {
        return handler({ engine, request, account });
      } catch (error) {
        if (!(error instanceof SandboxRefusal)) throw error;
        return { kind: "refused", status: error.status, reason: error.message };
      }
    },
  };
}
