// Contract verification of a running deployment, for this repository's tests and suite: the plan of cases, the
// runner and its report (the command, src/cli.ts, imports the modules themselves).
export { noAnswerReason } from "./no-answer.js";
export { creatorPath, type PlannedCase, planVerification } from "./plan.js";
export { reportJunit, reportMarkdown, violationLine, writeReport } from "./report.js";
export { createVerifier, type Verifier, verify } from "./run.js";
export type { CaseResult, VerifyOptions, VerifyReport, VerifyTarget } from "./types.js";
