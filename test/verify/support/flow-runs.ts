// What the tests of verify's flows share: a run of verify with the user's key against a base URL, its report's
// type, and the servers a test started, stopped after it (each file registers `afterEach(closeServers)`).
import { openApiDocument } from "../../../src/contract/bundled.js";
import { createContractValidator } from "../../../src/contract/index.js";
import { type VerifyOptions, verify } from "../../../src/verify/index.js";

const validator = createContractValidator(openApiDocument);

/** verify with the key "user-key" against `baseUrl`, with `options` over it. */
export const run = (baseUrl: string, options: Partial<VerifyOptions> = {}) =>
  verify(openApiDocument, validator, { baseUrl, apiKey: "user-key", ...options });

export type Report = Awaited<ReturnType<typeof run>>;

/** How the servers of the running test stop. */
export const closers: Array<() => Promise<void>> = [];

/** Stops the servers the test started, in order. */
export async function closeServers(): Promise<void> {
  for (const close of closers.splice(0)) await close();
}
