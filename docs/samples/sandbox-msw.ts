// Through MSW (msw/node's setupServer, or msw/browser's setupWorker): every request under the base URL and
// under its origin's /_sandbox goes to the sandbox; the client's fetch is the global one, which MSW intercepts.
import { setupServer } from "msw/node";
import { createClient } from "@trading-wallet-settlement/api-contract";
import { createSandboxHandlers } from "@trading-wallet-settlement/api-contract/msw";
import { createSandbox } from "@trading-wallet-settlement/api-contract/sandbox";

const baseUrl = "http://127.0.0.1:4020/v1";
const sandbox = createSandbox({ limits: { quotesPerHour: 3 } });
const server = setupServer(...createSandboxHandlers(sandbox, { baseUrl }));
server.listen({ onUnhandledRequest: "error" }); // in a test file: in beforeAll, and server.close() in afterAll
const api = createClient({ baseUrl, apiKey: "test-key" });

const rates = await api.GET("/currencies/fiat-rates");
// The sandbox answered, not a server on port 4020: its answers name its version in x-api-contract-sandbox.
console.log(JSON.stringify([rates.response.status, rates.response.headers.get("x-api-contract-sandbox")]));
server.close();
