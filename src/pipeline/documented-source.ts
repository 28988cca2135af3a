// The documented examples as the request pipeline's answer source (pipeline.ts): ./msw's, and the sandbox's for
// the operations it does not model. Apart from answers.ts, which pipeline.ts imports, so that no import goes
// back from answers.ts to pipeline.ts.
import { type OpenApiDocument, successKey } from "../openapi/document.js";
import { documentedAnswer } from "./answers.js";
import type { AnswerSource } from "./pipeline.js";

/**
 * The documented examples as the request pipeline's answer source (./msw's, which cannot load Prism in a
 * browser): the first success example, or the status and example `Prefer` names; an unknown one is refused
 * with 404, as Prism refuses it.
 */
export function createDocumentedSource(spec: OpenApiDocument): AnswerSource {
  return {
    async answer({ operation, preferences }) {
      const success = Number(successKey(operation) ?? 200);
      const answer = documentedAnswer(spec, operation, preferences.code ?? success, preferences.example);
      if (!answer) return { kind: "refused", status: 404, reason: "the contract documents no such answer" };
      return { kind: "answer", status: answer.status, headers: answer.headers, body: answer.body };
    },
  };
}
