#!/usr/bin/env node
// `api-contract`: the package's command, for other repositories.
//   api-contract mock    serve the mock of the whole API (Prism's engine, from the installed package)
//   api-contract verify  check a running deployment against the contract (exit 0 only when it meets it)
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { API_KEY_HEADER, BASE_PATH } from "../generated/client-meta.js";
import { openApiDocument } from "./contract/bundled.js";
import { createContractValidator } from "./contract/validator.js";
import { MockUnavailableError, startMock } from "./mock/index.js";
import type { OpenApiDocument } from "./openapi/document.js";
import { writeReport } from "./verify/report.js";
import { type CaseResult, verify } from "./verify/run.js";

const USAGE = `Usage: api-contract <command> [options]

Commands:
  mock      Serve the mock of the whole API on http://<host>:<port>${BASE_PATH} until Ctrl-C.
              --port <n>        default 4010 (0: a free port)
              --host <host>     default 127.0.0.1
              --spec <file>     serve another bundled OpenAPI 3.1 document (JSON) instead of this package's
              --quiet           no request log
  verify    Check a running deployment against the contract; exit 0 only when it meets it.
              --base-url <url>  the deployment's base URL, ending in ${BASE_PATH} (or CONTRACT_BASE_URL)
              --param <n>=<v>   a real value for a path or query parameter (repeat); without one, cases
                                that need it are skipped and say so
              --allow-side-effects   also run operations that change state (accepting a quote executes a trade)
              --min-interval-ms <n>  pause between requests (default 1000: 60 per minute)
              --report <dir>    write verify-report.json and verify-report.md there
              The API key and secret come from CONTRACT_API_KEY and CONTRACT_API_SECRET (never from
              arguments: those show in process lists and shell history).
  help      This text.
`;

function fail(message: string, code = 2): never {
  process.stderr.write(`api-contract: ${message}\n`);
  process.exit(code);
}

async function mock(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string", default: "4010" },
      host: { type: "string", default: "127.0.0.1" },
      spec: { type: "string" },
      quiet: { type: "boolean", default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be an integer from 0 to 65535, got ${values.port}`);
  let spec: OpenApiDocument = openApiDocument;
  if (values.spec) {
    try {
      spec = JSON.parse(await readFile(values.spec, "utf8")) as OpenApiDocument;
    } catch (error) {
      fail(`--spec ${values.spec}: cannot read it as JSON (${(error as Error).message})`);
    }
  }
  try {
    const started = await startMock({ host: values.host, port, spec, log: values.quiet ? undefined : (line) => process.stdout.write(`${line}\n`) });
    process.stdout.write(
      `Mock of ${spec.info?.title ?? "the API"} ${spec.info?.version ?? ""} listening on ${started.baseUrl}\n` +
        `  any ${API_KEY_HEADER} value is accepted; other documented answers: -H 'Prefer: code=429', -H 'Prefer: example=<name>'\n` +
        "Ctrl-C to stop.\n",
    );
    const stop = () => void started.stop().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  } catch (error) {
    if (error instanceof MockUnavailableError) fail(error.message, 1);
    throw error;
  }
}

const SYMBOL: Record<CaseResult["outcome"], string> = { passed: "✓", failed: "✗", skipped: "–" };

async function verifyCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      "base-url": { type: "string", default: process.env.CONTRACT_BASE_URL },
      param: { type: "string", multiple: true, default: [] },
      "allow-side-effects": { type: "boolean", default: process.env.CONTRACT_ALLOW_SIDE_EFFECTS === "1" },
      "min-interval-ms": { type: "string", default: process.env.CONTRACT_MIN_INTERVAL_MS },
      report: { type: "string" },
    },
  });
  const baseUrl = values["base-url"]?.trim();
  if (!baseUrl) fail(`verify needs --base-url <url ending in ${BASE_PATH}> (or CONTRACT_BASE_URL)`);
  if (!/^https?:\/\//.test(baseUrl) || !new URL(baseUrl).pathname.replace(/\/+$/, "").endsWith(BASE_PATH)) {
    fail(`--base-url must be an http(s) URL ending in ${BASE_PATH}, got ${JSON.stringify(baseUrl)}`);
  }
  const params: Record<string, string> = {};
  for (const pair of values.param) {
    const at = pair.indexOf("=");
    if (at <= 0) fail(`--param takes name=value, got ${JSON.stringify(pair)}`);
    params[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const interval = values["min-interval-ms"] === undefined ? undefined : Number(values["min-interval-ms"]);
  if (interval !== undefined && !(Number.isFinite(interval) && interval >= 0))
    fail(`--min-interval-ms must be a number ≥ 0, got ${values["min-interval-ms"]}`);
  const report = await verify(openApiDocument, createContractValidator(openApiDocument), {
    baseUrl,
    apiKey: process.env.CONTRACT_API_KEY || undefined,
    apiSecret: process.env.CONTRACT_API_SECRET || undefined,
    allowSideEffects: values["allow-side-effects"],
    params,
    minIntervalMs: interval,
    onCase: (r) => process.stdout.write(`${SYMBOL[r.outcome]} ${r.case}${r.status ? ` → ${r.status}` : ""}${r.reason ? `: ${r.reason}` : ""}\n`),
  });
  const { counts } = report;
  process.stdout.write(
    `\n${report.ok ? "Meets the contract" : "Does NOT meet the contract"}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${report.requests} requests).\n`,
  );
  if (!report.ok && counts.failed === 0) process.stdout.write("No positive case passed: nothing was shown to work.\n");
  if (values.report) {
    const files = await writeReport(report, values.report);
    process.stdout.write(`Report: ${files.markdown}\n`);
  }
  process.exit(report.ok ? 0 : 1);
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === "mock") await mock(rest);
  else if (command === "verify") await verifyCommand(rest);
  else if (command === undefined || command === "help" || command === "--help" || command === "-h") process.stdout.write(USAGE);
  else fail(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error), 2);
}
