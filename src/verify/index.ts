// Contract verification of a running deployment: the cases, their plan, the sender, the runner and its report.
export {
  type CaseRequest,
  hasOwnQuota,
  negativeCases,
  positiveCases,
  sampleRequest,
  type VerifyCase,
} from "./cases.js";
export { noAnswerReason } from "./no-answer.js";
export { creatorPath, type PlannedCase, planVerification } from "./plan.js";
export { reportJunit, reportMarkdown, targetLabel, violationLine, writeReport } from "./report.js";
export {
  type CaseResult,
  createVerifier,
  type Verifier,
  type VerifyOptions,
  type VerifyReport,
  type VerifyTarget,
  verify,
} from "./run.js";
export type { VerifyClock } from "./send.js";
