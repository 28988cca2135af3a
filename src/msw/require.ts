// What require() of ./msw loads (package.json: the `require` condition of "./msw"; built to CommonJS as
// dist/msw.require.cjs). ./msw is ESM only, as openapi-msw and msw 3 are: this says so and how to import it,
// instead of Node's bare ERR_PACKAGE_PATH_NOT_EXPORTED.
import { PACKAGE_NAME } from "../pipeline/identity.js";

const entry = `${PACKAGE_NAME}/msw`;

throw Object.assign(
  new Error(
    `${entry} is an ES module only (it builds on msw and openapi-msw; openapi-msw and msw 3 are ESM only), ` +
      "so require() cannot load it. " +
      `Import it from an ES module (.mjs, .mts, or a package with "type": "module"): ` +
      `import { createHandlers, createHttp } from "${entry}"; ` +
      `or, from CommonJS, in an async function: const { createHandlers } = await import("${entry}");`,
  ),
  { code: "ERR_REQUIRE_ESM" },
);
