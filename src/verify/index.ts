// Contract verification of a running deployment: the cases, the runner and its report.
export {
  type CaseRequest,
  hasOwnQuota,
  negativeCases,
  positiveCases,
  sampleRequest,
  type VerifyCase,
} from "./cases.js";
export { reportJunit, reportMarkdown, targetLabel, violationLine, writeReport } from "./report.js";
export {
  type CaseResult,
  createVerifier,
  creatorPath,
  documentedSuccess,
  noAnswerReason,
  type PlannedCase,
  planVerification,
  type Verifier,
  type VerifyClock,
  type VerifyOptions,
  type VerifyReport,
  type VerifyTarget,
  verify,
} from "./run.js";
