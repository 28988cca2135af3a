// The mock says it is this package's mock: every answer of the HTTP mock (src/mock/server.ts) and of the ./msw
// handlers carries MOCK_IDENTITY_HEADER with this package's version, so a verifier can tell the package's
// own mock from a deployment without guessing from the host. It is the mock's header, not the API's: the
// contract does not declare it, and the contract validator lets undeclared headers through. The sandbox, a mock
// with state, carries the mock's header (what waits for a mock also waits for it) and its own beside it.
import packageJson from "../../package.json" with { type: "json" };

/** This package's name (package.json). */
export const PACKAGE_NAME: string = packageJson.name;

/** This package's version (package.json). */
export const PACKAGE_VERSION: string = packageJson.version;

/** The mock's own response header (lower-cased, like the other header constants): `X-Api-Contract-Mock`. */
export const MOCK_IDENTITY_HEADER = "x-api-contract-mock";

/** The header every answer of the mock carries. */
export const MOCK_IDENTITY: Readonly<Record<string, string>> = { [MOCK_IDENTITY_HEADER]: PACKAGE_VERSION };

/** The sandbox's own response header (lower-cased): `X-Api-Contract-Sandbox`. */
export const SANDBOX_IDENTITY_HEADER = "x-api-contract-sandbox";

/** The headers every API answer of the sandbox carries: the mock's and its own. */
export const SANDBOX_IDENTITY: Readonly<Record<string, string>> = {
  ...MOCK_IDENTITY,
  [SANDBOX_IDENTITY_HEADER]: PACKAGE_VERSION,
};
