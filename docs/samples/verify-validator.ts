// The contract validator in a test of your own. The answers here come from the sandbox in this process (its
// fetch, no server); in your tests they come from your service, or a fake of it.
import { createClient } from "@trading-wallet-settlement/api-contract";
import { contractMiddleware, createBundledContractValidator } from "@trading-wallet-settlement/api-contract/contract";
import { createSandbox } from "@trading-wallet-settlement/api-contract/sandbox";

const sandbox = createSandbox();
const baseUrl = "http://sandbox.test/v1";
const fetch = (request: Request) => sandbox.fetch(request);
const res = await fetch(new Request(`${baseUrl}/trades/summary/me`, { headers: { "x-api-key": "my-key" } }));

const validator = createBundledContractValidator(); // compiled once from the bundled spec, shared
const bodyText = await res.text();
const answer = { method: "GET", path: "/v1/trades/summary/me", status: res.status, headers: res.headers };
const result = validator.validateResponse({ ...answer, bodyText });
if (!result.ok) console.log(result.violations); // [{ kind, location, pointer: "/data/totalDollarVolume", message }]

// The same answer with the volume as a string, as a server drifting from the contract would send it.
const body = JSON.parse(bodyText);
const drifted = JSON.stringify({ ...body, data: { ...body.data, totalDollarVolume: "1250.5" } });
const wrong = validator.validateResponse({ ...answer, bodyText: drifted });

// Every answer the client receives, checked: "throw" fails the call with a ContractViolationError.
const api = createClient({ baseUrl, apiKey: "my-key", fetch });
api.use(contractMiddleware(validator, { mode: "throw" })); // or { mode: "report", onViolation }
const { response } = await api.GET("/trades/summary/me");

console.log(
  JSON.stringify({
    ok: result.ok,
    drifted: wrong.ok ? [] : wrong.violations.map((violation) => violation.pointer),
    throughTheClient: response.status,
  }),
);
