// The sandbox's control API document (generated/sandbox-control.json, built from openapi-sandbox/control.yaml):
// a valid OpenAPI 3.1 document (the OpenAPI Initiative's 3.1 schema, as Spectral ships it), every example valid
// for the package's own validator (src/contract, which the sandbox checks its control answers with), and exactly
// the routes, statuses and shapes agreed for the sandbox: closed request bodies, open answers, an optional token.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { GENERATED_DIR } from "../../scripts/lib/paths.js";
import { createContractValidator } from "../../src/contract/index.js";
import {
  isObject,
  type JsonObject,
  listOperations,
  namedExamples,
  type OpenApiDocument,
} from "../../src/openapi/index.js";
import { createSigner } from "../../src/client/signing.js";
import { BASE_PATH, SIGNING_HEADERS } from "../support/spec.js";
import { api, control, newSandbox, ORIGIN } from "./support/sandbox.js";

const document = JSON.parse(readFileSync(path.join(GENERATED_DIR, "sandbox-control.json"), "utf8")) as OpenApiDocument;
const validator = createContractValidator(document);
const operations = listOperations(document);

/** The routes of the brief, each with every status it answers. */
const AGREED_ROUTES: Record<string, string[]> = {
  "PUT /_sandbox/accounts/{apiKey}": ["200", "400", "401"],
  "GET /_sandbox/accounts/{apiKey}": ["200", "401", "404"],
  "DELETE /_sandbox/accounts/{apiKey}": ["204", "401", "404"],
  "POST /_sandbox/deposits": ["201", "400", "401", "404"],
  "POST /_sandbox/withdrawals/{transactionId}/settle": ["200", "400", "401", "404", "409"],
  "GET /_sandbox/webhooks": ["200", "401"],
  "GET /_sandbox/accounts/{apiKey}/clock": ["200", "401", "404"],
  "GET /_sandbox/accounts/{apiKey}/state": ["200", "400", "401", "404"],
  "PUT /_sandbox/accounts/{apiKey}/state": ["204", "400", "401"],
  "POST /_sandbox/accounts/{apiKey}/clock/advance": ["200", "400", "401", "404"],
  "GET /_sandbox/clock": ["200", "401"],
  "POST /_sandbox/clock/advance": ["200", "400", "401"],
  "GET /_sandbox/rates": ["200", "401"],
  "PUT /_sandbox/rates": ["200", "400", "401"],
  "GET /_sandbox/settings": ["200", "401"],
  "PUT /_sandbox/settings": ["200", "400", "401"],
  "GET /_sandbox/state": ["200", "400", "401"],
  "PUT /_sandbox/state": ["204", "400", "401", "413"],
  "GET /_sandbox/choices": ["200", "401"],
  "GET /_sandbox/openapi.json": ["200", "401"],
};

/**
 * The OpenAPI 3.1 schema (without schema-object validation) that @stoplight/spectral-rulesets ships, with the
 * dialect and meta-schema it refers to, in an ajv of its own (the oracle of this test, not the product's).
 */
function openApi31Validator(): (value: unknown) => string[] {
  const fromHere = createRequire(import.meta.url);
  const fromSpectral = createRequire(fromHere.resolve("@stoplight/spectral-cli/package.json"));
  const dir = path.join(
    path.dirname(fromSpectral.resolve("@stoplight/spectral-rulesets/package.json")),
    "dist/oas/schemas",
  );
  const read = (file: string) => JSON.parse(readFileSync(path.join(dir, file), "utf8")) as object;
  // Formats are not what this checks (the document's structure is): not validated, so ajv warns of none it lacks.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  for (const file of ["json-schema/draft-2020-12/index.json", "json-schema/draft-2020-12/validation.json"])
    ajv.addSchema(read(file));
  ajv.addSchema(read("oas/v3.1/dialect.schema.json")).addSchema(read("oas/v3.1/meta.schema.json"));
  const validate = ajv.compile(read("oas/v3.1/index.json"));
  return (value) => (validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
}

/** The named examples and `example` of a request body's or response's JSON media type. */
const jsonExamples = (holder: JsonObject | undefined) => {
  const content = holder?.content;
  return isObject(content) ? namedExamples(document, content["application/json"]) : [];
};

/** Every JSON example of every answer, with the operation and the status it illustrates. */
const responseExamples = operations.flatMap((op) =>
  Object.entries(op.responses).flatMap(([status, response]) =>
    jsonExamples(response).map(({ name, value }) => ({ op, status: Number(status), name, example: value })),
  ),
);
/** Every JSON example of every request body, with its operation. */
const requestExamples = operations.flatMap((op) =>
  jsonExamples(op.requestBody).map(({ name, value }) => ({ op, name, example: value })),
);

const checkAnswer = (op: (typeof operations)[number], status: number, body: unknown) =>
  validator.validateResponse({
    method: op.method,
    path: op.path,
    status,
    headers: { "content-type": "application/json" },
    body,
  }).violations;

describe("the control API document", () => {
  it("is a valid OpenAPI 3.1 document, its schemas accepted by the package's validator", () => {
    const openApi31 = openApi31Validator();
    expect(openApi31(document)).toEqual([]);
    expect(openApi31({ ...document, paths: { "/_sandbox/clock": { get: { responses: "none" } } } })).not.toEqual([]);
    expect(document.openapi).toBe("3.1.0");
    expect(document["x-generated"]).toMatch(/^Generated by `npm run build` from openapi-sandbox\//);
  });

  it("has exactly the agreed routes, each with exactly its agreed statuses", () => {
    const described = Object.fromEntries(operations.map((op) => [op.key, Object.keys(op.responses).sort()]));
    expect(described).toEqual(AGREED_ROUTES);
    expect(new Set(operations.map((op) => op.operationId)).size).toBe(operations.length);
  });

  it("has a JSON example for every answer with a body (all but the two 204s) and every request body", () => {
    const bodies = operations.flatMap((op) => [
      ...Object.entries(op.responses).map(([status, response]) => ({ where: `${op.key} ${status}`, holder: response })),
      ...(op.requestBody ? [{ where: `${op.key} request`, holder: op.requestBody }] : []),
    ]);
    const withoutBody = bodies.filter(({ holder }) => holder.content === undefined).map(({ where }) => where);
    expect(withoutBody.sort()).toEqual([
      "DELETE /_sandbox/accounts/{apiKey} 204",
      "PUT /_sandbox/accounts/{apiKey}/state 204",
      "PUT /_sandbox/state 204",
    ]);
    const withBody = bodies.filter(({ holder }) => holder.content !== undefined);
    expect(withBody.filter(({ holder }) => jsonExamples(holder).length === 0).map(({ where }) => where)).toEqual([]);
    expect(responseExamples.length + requestExamples.length).toBeGreaterThanOrEqual(withBody.length);
  });

  it.each(responseExamples.map((entry) => [`${entry.op.key} ${entry.status} (${entry.name})`, entry] as const))(
    "the example of %s passes the package's validator",
    (_name, { op, status, example }) => {
      expect(checkAnswer(op, status, example)).toEqual([]);
    },
  );

  it.each(requestExamples.map((entry) => [`${entry.op.key} (${entry.name})`, entry] as const))(
    "the request example of %s passes the package's validator",
    (_name, { op, example }) => {
      expect(validator.validateRequestBody(op.method, op.path, example)).toEqual([]);
    },
  );

  it("refuses a field a request body does not name (every body but the state, which is the state's own)", () => {
    const closed = requestExamples.filter(({ op }) => op.key !== "PUT /_sandbox/state");
    expect(closed).toHaveLength(9);
    for (const { op, example } of closed) {
      const violations = validator.validateRequestBody(op.method, op.path, { ...(example as JsonObject), extra: 1 });
      expect(
        violations.map((v) => v.pointer),
        op.key,
      ).toEqual(["/extra"]);
    }
    const fiatEntry = { currency: "GHS", buyRate: 16, sellRate: 15, base: "USDT" };
    const rates = validator.validateRequestBody("PUT", "/_sandbox/rates", { fiat: [fiatEntry] });
    // The entry is the answer's open schema closed by unevaluatedProperties: the finding is at the entry.
    expect(rates.map((v) => v.message)).toEqual([
      expect.stringMatching(/ \/fiat\/0 must NOT have unevaluated properties/),
    ]);
    expect(validator.validateRequestBody("PUT", "/_sandbox/state", { version: 1, accounts: {} })).toEqual([]);
  });

  it("accepts a field an answer does not name (answers are open), but in a state (closed, as restored)", () => {
    const isState = ({ op, status }: (typeof responseExamples)[number]) =>
      ["GET /_sandbox/state", "GET /_sandbox/accounts/{apiKey}/state"].includes(op.key) && status === 200;
    for (const entry of responseExamples.filter(({ example }) => isObject(example))) {
      const violations = checkAnswer(entry.op, entry.status, { ...(entry.example as JsonObject), later: true });
      expect(
        violations.map((v) => v.pointer),
        `${entry.op.key} ${entry.status}`,
      ).toEqual(isState(entry) ? ["/later"] : []);
    }
    expect(responseExamples.filter(isState)).toHaveLength(2);
  });

  it("holds the agreed shapes: clock moves by a whole ms >= 0, fiat rates of NGNX and GHS, no secret answered", () => {
    const advance = (ms: unknown) => validator.validateRequestBody("POST", "/_sandbox/clock/advance", { ms });
    expect(advance(0)).toEqual([]);
    expect(advance(-1)).not.toEqual([]);
    expect(advance(1.5)).not.toEqual([]);
    expect(validator.validateRequestBody("POST", "/_sandbox/clock/advance", {})).not.toEqual([]);
    const fiat = [{ currency: "EUR", buyRate: 1, sellRate: 1 }];
    expect(validator.validateRequestBody("PUT", "/_sandbox/rates", { fiat })).not.toEqual([]);
    expect(validator.validateRequestBody("PUT", "/_sandbox/rates", {})).toEqual([]);
    expect(validator.validateRequestBody("PUT", "/_sandbox/accounts/k", { balances: { USDT: "1" } })).not.toEqual([]);
    const getAccount = operations.find((op) => op.key === "GET /_sandbox/accounts/{apiKey}")!;
    const account = { apiKey: "k", balances: {}, business: false, collectionCustomers: [] };
    expect(
      checkAnswer(getAccount, 200, account)
        .map((v) => v.pointer)
        .sort(),
    ).toEqual(["/hasApiSecret", "/hasWebhookSecret"]);
    const state = responseExamples.find(({ op, status }) => op.key === "GET /_sandbox/state" && status === 200)!;
    const later = { ...(state.example as JsonObject), version: 3 };
    expect(checkAnswer(state.op, 200, later).map((v) => v.pointer)).toEqual(["/version"]);
    const clock = operations.find((op) => op.key === "GET /_sandbox/clock")!;
    expect(checkAnswer(clock, 200, { now: 0, iso: "yesterday" }).map((v) => v.pointer)).toEqual(["/iso"]);
  });

  it("holds the agreed money and webhook shapes: a deposit's address or pair, a settlement's end, no secret", () => {
    const deposit = (body: object) => validator.validateRequestBody("POST", "/_sandbox/deposits", body);
    expect(deposit({ apiKey: "k", address: "T1", amount: 1 })).toEqual([]);
    expect(deposit({ apiKey: "k", currency: "USDT", network: "TRX", amount: 1, hash: "0x1" })).toEqual([]);
    expect(deposit({ apiKey: "k", currency: "USDT", amount: 1 })).not.toEqual([]);
    expect(deposit({ apiKey: "k", address: "T1", amount: 0 })).not.toEqual([]);
    expect(deposit({ address: "T1", amount: 1 })).not.toEqual([]);
    const settle = (status: string) =>
      validator.validateRequestBody("POST", "/_sandbox/withdrawals/t/settle", { status });
    expect(settle("SUCCESSFUL")).toEqual([]);
    expect(settle("FAILED")).toEqual([]);
    expect(settle("REJECTED")).not.toEqual([]);
    const put = (body: object) => validator.validateRequestBody("PUT", "/_sandbox/accounts/k", body);
    expect(put({ webhookUrl: "http://127.0.0.1:4040/hook", webhookSecret: "s" })).toEqual([]);
    expect(put({ webhookUrl: "not a url" })).not.toEqual([]);
    expect(put({ webhookSecret: "" })).not.toEqual([]);
    expect(put({ apiSecret: "" })).not.toEqual([]);
    const webhooks = operations.find((op) => op.key === "GET /_sandbox/webhooks")!;
    const [example] = responseExamples.find(({ op }) => op === webhooks)!.example as JsonObject[];
    expect(checkAnswer(webhooks, 200, [{ ...example, signature: "ABC" }]).map((v) => v.pointer)).toEqual([
      "/0/signature",
    ]);
    expect(checkAnswer(webhooks, 200, [{ ...example, status: "sent" }]).map((v) => v.pointer)).toEqual(["/0/status"]);
    expect(checkAnswer(webhooks, 200, [{ ...example, url: null, signature: null }])).toEqual([]);
  });

  it("its webhook example is signed as the service signs: HMAC-SHA512 of the exact body, the account's secret", () => {
    const putAccount = requestExamples.find(({ op }) => op.key === "PUT /_sandbox/accounts/{apiKey}")!;
    const { webhookSecret } = putAccount.example as { webhookSecret: string };
    const webhooks = responseExamples.find(({ op }) => op.key === "GET /_sandbox/webhooks")!;
    const [webhook] = webhooks.example as Array<{ body: string; signature: string }>;
    expect(createHmac("sha512", webhookSecret).update(webhook!.body).digest("hex")).toBe(webhook!.signature);
    const deposit = responseExamples.find(({ op }) => op.key === "POST /_sandbox/deposits")!.example as JsonObject;
    expect(JSON.parse(webhook!.body)).toMatchObject({ type: "DEPOSIT", transactionId: deposit.id });
  });

  it("requires nothing, or a bearer token (the sandbox started with one); errors are { message }", () => {
    expect(operations.every((op) => op.security === "optional")).toBe(true);
    expect(document.components?.securitySchemes).toEqual({
      controlToken: expect.objectContaining({ type: "http", scheme: "bearer" }),
    });
    const clock = operations.find((op) => op.key === "GET /_sandbox/clock")!;
    expect(checkAnswer(clock, 401, { message: "token" })).toEqual([]);
    expect(checkAnswer(clock, 401, { error: "token" }).map((v) => v.pointer)).toEqual(["/message"]);
  });

  it("its request examples are taken by a sandbox, each answered its success (the state's is abridged)", async () => {
    // The webhooks the examples cause go to the example's URL through this fetch, never to the network.
    const posted: string[] = [];
    const sandbox = newSandbox({
      webhooks: {
        fetch: async (url) => {
          posted.push(String(url));
          return new Response(null, { status: 200 });
        },
      },
    });
    const taken = requestExamples.filter(({ op }) => op.key !== "PUT /_sandbox/state");
    expect(taken).toHaveLength(9);
    const account = taken.find(({ op }) => op.key === "PUT /_sandbox/accounts/{apiKey}")!.example as JsonObject;
    /** An API request of the example's account, signed with the example's API secret. */
    const signed = async (method: string, path: string, body: unknown) => {
      const sign = createSigner(String(account.apiSecret), () => sandbox.clock.now());
      const { timestamp, signature } = await sign(method, `${ORIGIN}${BASE_PATH}${path}`);
      const headers = { [SIGNING_HEADERS.timestamp]: timestamp, [SIGNING_HEADERS.signature]: signature };
      const answer = await api(sandbox, method, path, body, { key: "sandbox-key-1", headers });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data;
    };
    for (const { op, name, example } of taken) {
      const apiKey = String(op.parameters.find((parameter) => parameter.name === "apiKey")?.example ?? "");
      let path = op.path.replace("{apiKey}", apiKey);
      let body = example as JsonObject;
      // What an example names that only a sandbox makes: the account's deposit address, a withdrawal in progress.
      if (typeof body.address === "string")
        body = {
          ...body,
          address: (await signed("POST", "/addresses/broker", { currency: "USDT", network: "TRX" })).value,
        };
      if (path.includes("{transactionId}")) {
        const destination = { address: "TJ8m3F6vQ2xWk9pL4rN7sB1cD5eH2aGyUz", network: "TRX" };
        const withdrawal = await signed("POST", "/wallets/ext/debit/crypto", {
          amount: 10,
          currency: "USDT",
          destination,
        });
        path = path.replace("{transactionId}", withdrawal.id);
      }
      const success = Number(Object.keys(op.responses).find((status) => status.startsWith("2")));
      const answer = await control(sandbox, op.method, path, body);
      expect(answer.status, `${op.key} (${name}): ${JSON.stringify(answer.body)}`).toBe(success);
      expect(checkAnswer(op, answer.status, answer.body), op.key).toEqual([]);
    }
    await sandbox.webhooks.settled();
    const outbox = await sandbox.webhooks.list("sandbox-key-1");
    // Two deposits, and the withdrawal's two states.
    expect(outbox.map((webhook) => webhook.status)).toEqual(["delivered", "delivered", "delivered", "delivered"]);
    expect(new Set(posted)).toEqual(new Set(["http://127.0.0.1:4040/webhooks"]));
    expect(sandbox.bugs).toEqual([]);
  });
});
