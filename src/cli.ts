#!/usr/bin/env node
// `api-contract`: the package's command, for other repositories.
//   api-contract mock    serve the mock of the whole API (Prism's engine, from the installed package)
//   api-contract sandbox serve the sandbox: the API with state, on its own clock, and its control API
//   api-contract verify  check a running deployment against the contract (exit 0 only when it meets it)
//   api-contract wait    wait until a mock answers (at a URL, or at the one its --ready-file holds)
import { rename, readFile, rm, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { API_KEY_HEADER, BASE_PATH } from "../generated/client-meta.js";
import { openApiDocument } from "./contract/bundled.js";
import { createContractValidator } from "./contract/validator.js";
import { MOCK_IDENTITY_HEADER, PACKAGE_VERSION } from "./pipeline/identity.js";
import { MockUnavailableError, startMock } from "./mock/index.js";
import { describeStop, stopWithLauncher } from "./mock/lifetime.js";
import { SANDBOX_CONFIG_KEYS, SANDBOX_DEFAULT_PORT, startSandbox } from "./sandbox/server.js";
import { SANDBOX_CHOICES } from "./sandbox/choices.js";
import { deploymentBudget } from "./verify/budget.js";
import { NOT_ASKED_FOR } from "./verify/flows/index.js";
import { limitWaitLine, targetLabel, violationLine, writeReport } from "./verify/report.js";
import { type CaseResult, type VerifyOptions, type VerifyReport, type VerifyTarget, verify } from "./verify/run.js";

/** `text` in lines of at most 112 characters, each after the first indented by `indent` spaces. */
function wrapped(text: string, indent: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && indent + line.length + 1 + word.length > 112) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join(`\n${" ".repeat(indent)}`);
}

/** Each command's part of the usage: its line and its options. */
const COMMAND_USAGE: Record<string, string> = {
  mock: `  mock      Serve the mock of the whole API on http://<host>:<port>${BASE_PATH} until Ctrl-C or SIGTERM
            (or until the npx or npm run that started it stops).
              --port <n>        default 4010 (0: a free port)
              --host <host>     default 127.0.0.1
              --quiet           no request log
              --ready-file <path>
                                once listening, write the base URL to <path> (whole, at once); removed
                                when the mock stops
`,
  sandbox: `  sandbox   Serve the sandbox on http://<host>:<port>${BASE_PATH}: the API with state (an account per API
            key, quotes that expire and are accepted once, balances that move, rate limits enforced) on its
            own clock, and its control API under /_sandbox; until Ctrl-C or SIGTERM (as mock).
              --port <n>        default ${SANDBOX_DEFAULT_PORT} (0: a free port)
              --host <host>     default 127.0.0.1; on any other interface --token is required
              --state <file>    keep the state in <file>: loaded at start (when it exists), every change an
                                answer shows journaled to <file>.journal before the answer (SIGKILL loses
                                nothing answered), written whole and atomically on stop
              --config <file>   ${wrapped(`a JSON file of sandbox options: ${SANDBOX_CONFIG_KEYS.join(", ")}`, 32)}
              --token <t>       the control API requires "authorization: Bearer <t>" (arguments show in
                                process lists: controlToken in the --config file does not)
              --quiet           no request log
              --ready-file <path>
                                as mock: the base URL, written once listening, removed on stop
`,
  verify: `  verify    Check a running deployment against the contract. The package's mock and sandbox (every answer
            of theirs carries X-Api-Contract-Mock) get every case, unpaced; any other target the safe rules below.
              --base-url <url>       the deployment's base URL, ending in ${BASE_PATH} (or CONTRACT_BASE_URL)
              --api-key <key>        the API key (default: CONTRACT_API_KEY)
              --api-secret <secret>  sign every request with it (default: CONTRACT_API_SECRET)
                                     The environment is the safer way: arguments show in process lists
                                     and shell history. The flags override it.
              --second-api-key <key>  another account's key (default: CONTRACT_SECOND_API_KEY): on a
                                     deployment, its transaction and (with side effects) its quote are
                                     read with the run's key, which must not see them
              --second-api-secret <s>  signs the second key's requests (default: CONTRACT_SECOND_API_SECRET)
              --param <n>=<v>        a real value for a path or query parameter (repeat); without one,
                                     cases that need it are skipped and say so
              --allow-side-effects   also run operations that change state (accepting a quote executes a
                                     trade); without it a deployment gets no trade and Create Quote once
                                     (or CONTRACT_ALLOW_SIDE_EFFECTS=1)
              --min-interval-ms <n>  pause after each answer (default: CONTRACT_MIN_INTERVAL_MS, else 1000: at
                                     most 60 per minute; 0 on the mock)
              --report-dir <dir>     write verify-report.junit.xml, .json and .md there
              --allow-divergence <id>  a rule of the sandbox's register the target may contradict without
                                     failing the run (repeat)
              --cases-only           no flows and no verdicts on the register: the per-operation cases only
              --rule <id>            only the flows that check this rule of the register run (repeat)
              --webhook-receiver <host:port>  where the webhook flow's receiver listens (default 127.0.0.1
                                     on a free port)
              --webhook-secret <s>   the secret a deployment signs your key's webhooks with (default:
                                     CONTRACT_WEBHOOK_SECRET): with side effects allowed, the webhook flow
                                     resends a transaction's webhook twice; route them to the receiver
              --sandbox-token <t>    the package's sandbox's control token (default: CONTRACT_SANDBOX_TOKEN):
                                     on the sandbox, verify makes an account of its own for its cases
                                     through the control API, and deletes it at the end
            Exit status: 0 the deployment meets the contract, 1 it does not (a violation, a refused key),
            2 it could not be checked (unreachable, TLS failure, bad arguments).
`,
  wait: `  wait      Wait until a mock (or a sandbox) answers, then print its base URL (exit 1 if none does in time).
              <url>                 the URL to wait for, or:
              --ready-file <path>   the URL a mock's --ready-file wrote there, once the mock answers
                                    there (a URL an earlier run left is not taken)
              --timeout <seconds>   default 60
`,
  help: `  help      This text (also --help or -h; after a command, that command's part).
`,
  version: `  version   This package's version (also --version or -v, after a command too).
`,
};

/** The usage of every command (api-contract help), or of one (api-contract <command> --help). */
function usage(command?: string): string {
  const head = `Usage: api-contract ${command ?? "<command>"} [options]\n\n`;
  if (command !== undefined) return `${head}${COMMAND_USAGE[command]}`;
  return `${head}Commands:\n${Object.values(COMMAND_USAGE).join("")}`;
}

/** The options every command takes: --help and --version. */
const COMMON_OPTIONS = {
  help: { type: "boolean", short: "h", default: false },
  version: { type: "boolean", short: "v", default: false },
} as const;

/** Answers --help (the command's usage) or --version; true when one was given (nothing else to do). */
function answeredCommon(command: string, values: { help: boolean; version: boolean }): boolean {
  if (values.help) process.stdout.write(usage(command));
  else if (values.version) process.stdout.write(`${PACKAGE_VERSION}\n`);
  return values.help || values.version;
}

function fail(message: string, code = 2): never {
  process.stderr.write(`api-contract: ${message}\n`);
  process.exit(code);
}

/** The --port value as a port number (0: a free port); anything else exits 2. */
function portOf(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be an integer from 0 to 65535, got ${value}`);
  return port;
}

/**
 * Once a server listens: stops it on SIGINT or SIGTERM, or when the npx or npm run that started it exits, then
 * removes the ready file and exits 0 (1 when stopping failed); and writes its base URL to the ready file (when
 * asked). The stop is armed first: a SIGTERM sent as soon as the ready file appears must find it armed (the file
 * is visible before the write's callback runs), and a stop during the write removes the file once written.
 */
async function serveUntilStopped(
  command: string,
  started: { baseUrl: string; stop(): Promise<void> },
  readyFile: string | undefined,
): Promise<void> {
  let written: Promise<void> = Promise.resolve();
  stopWithLauncher((cause) => {
    if (cause.kind === "launcher-exited")
      process.stderr.write(`api-contract ${command}: stopping: ${describeStop(cause)}\n`);
    void started
      .stop()
      .then(() => written)
      .then(() => (readyFile ? rm(readyFile, { force: true }) : undefined))
      .then(
        () => process.exit(0),
        (error: unknown) => fail(`${command}: stopping failed: ${error instanceof Error ? error.message : error}`, 1),
      );
  });
  if (readyFile) {
    written = writeWhole(readyFile, `${started.baseUrl}\n`);
    await written;
  }
}

async function mock(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string", default: "4010" },
      host: { type: "string", default: "127.0.0.1" },
      quiet: { type: "boolean", default: false },
      "ready-file": { type: "string" },
      ...COMMON_OPTIONS,
    },
  });
  if (answeredCommon("mock", values)) return;
  const readyFile = values["ready-file"];
  const port = portOf(values.port);
  const spec = openApiDocument;
  try {
    const started = await startMock({
      host: values.host,
      port,
      spec,
      log: values.quiet ? undefined : (line) => process.stdout.write(`${line}\n`),
    });
    const title = `${spec.info?.title ?? "the API"} ${spec.info?.version ?? ""}`;
    process.stdout.write(
      `Mock of ${title} listening on ${started.baseUrl} (pid ${process.pid})\n` +
        `  any ${API_KEY_HEADER} value is accepted; ` +
        "other documented answers: -H 'Prefer: code=429', -H 'Prefer: example=<name>'\n" +
        "Ctrl-C to stop.\n",
    );
    await serveUntilStopped("mock", started, readyFile);
  } catch (error) {
    if (error instanceof MockUnavailableError) fail(error.message, 1);
    throw error;
  }
}

/** `api-contract sandbox`: the sandbox engine behind its HTTP front (src/sandbox/server.ts). */
async function sandboxCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string", default: String(SANDBOX_DEFAULT_PORT) },
      host: { type: "string", default: "127.0.0.1" },
      state: { type: "string" },
      config: { type: "string" },
      token: { type: "string" },
      quiet: { type: "boolean", default: false },
      "ready-file": { type: "string" },
      ...COMMON_OPTIONS,
    },
  });
  if (answeredCommon("sandbox", values)) return;
  const port = portOf(values.port);
  if (values.token !== undefined && !values.token.trim()) fail("--token is empty");
  const log = (line: string) => process.stdout.write(`${line}\n`);
  // --quiet drops the request log; a sandbox bug (an answer that fails the contract) is still logged.
  const started = await startSandbox({
    host: values.host,
    port,
    statePath: values.state,
    config: values.config,
    controlToken: values.token,
    log,
    quiet: values.quiet,
  });
  const title = `${openApiDocument.info?.title ?? "the API"} ${openApiDocument.info?.version ?? ""}`;
  const state = values.state === undefined ? "in memory only (no --state)" : `saved to ${values.state} on stop`;
  process.stdout.write(
    `Sandbox of ${title} listening on ${started.baseUrl} (pid ${process.pid})\n` +
      `  control API: ${started.origin}/_sandbox${started.tokenRequired ? " (token required)" : ""}; state ${state}\n` +
      "Ctrl-C to stop.\n",
  );
  await serveUntilStopped("sandbox", started, values["ready-file"]);
}

/** Writes `text` to `file` so that a reader sees nothing or all of it: a file beside it, renamed over it. */
async function writeWhole(file: string, text: string): Promise<void> {
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, text);
  await rename(partial, file);
}

/** Whether anything answers HTTP at `url` (any status); with `mockOnly`, the package's mock (its own header). */
async function answersAt(url: string, mockOnly: boolean): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return !mockOnly || response.headers.has(MOCK_IDENTITY_HEADER);
  } catch {
    return false;
  }
}

async function waitCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { "ready-file": { type: "string" }, timeout: { type: "string", default: "60" }, ...COMMON_OPTIONS },
  });
  if (answeredCommon("wait", values)) return;
  const readyFile = values["ready-file"];
  const [url, ...extra] = positionals;
  if ((url === undefined) === (readyFile === undefined) || extra.length)
    fail("wait takes a URL or --ready-file <path> (one of them)");
  if (url !== undefined && !URL.canParse(url)) fail(`wait: not a URL: ${JSON.stringify(url)}`);
  const seconds = Number(values.timeout);
  if (!(Number.isFinite(seconds) && seconds > 0))
    fail(`--timeout must be a number of seconds > 0, got ${values.timeout}`);
  const deadline = Date.now() + seconds * 1000;
  // The file may not be there yet, or still hold the URL of a mock that is gone: read it again each time.
  const candidate = async () => url ?? (await readFile(readyFile!, "utf8").catch(() => "")).trim();
  for (;;) {
    const found = await candidate();
    if (found && URL.canParse(found) && (await answersAt(found, readyFile !== undefined))) {
      process.stdout.write(`${found}\n`);
      return;
    }
    if (Date.now() >= deadline) {
      const where = url !== undefined ? `nothing answered at ${url}` : `no mock answered at the URL in ${readyFile}`;
      fail(`wait: ${where} within ${seconds} s`, 1);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const SYMBOL: Record<CaseResult["outcome"], string> = { passed: "✓", failed: "✗", skipped: "–" };

function progressLine(r: CaseResult, position: number, total: number): string {
  const counter = `[${String(position).padStart(String(total).length)}/${total}]`;
  const answer =
    r.status !== undefined ? ` → ${r.status}${r.durationMs !== undefined ? ` (${r.durationMs} ms)` : ""}` : "";
  const why =
    r.outcome === "passed" ? "" : r.outcome === "skipped" ? `: skipped, ${r.reason}` : `: ${r.reason ?? "failed"}`;
  return `${counter} ${SYMBOL[r.outcome]} ${r.case}${answer}${why}\n`;
}

/** The options of `verify`; the environment gives the defaults of most. */
function verifyArgs(args: string[]) {
  return parseArgs({
    args,
    options: {
      "base-url": { type: "string", default: process.env.CONTRACT_BASE_URL },
      "api-key": { type: "string" },
      "api-secret": { type: "string" },
      "second-api-key": { type: "string" },
      "second-api-secret": { type: "string" },
      "sandbox-token": { type: "string", default: process.env.CONTRACT_SANDBOX_TOKEN || undefined },
      param: { type: "string", multiple: true, default: [] },
      "allow-divergence": { type: "string", multiple: true, default: [] },
      rule: { type: "string", multiple: true, default: [] },
      "cases-only": { type: "boolean", default: false },
      "webhook-receiver": { type: "string" },
      "webhook-secret": { type: "string" },
      "allow-side-effects": { type: "boolean", default: process.env.CONTRACT_ALLOW_SIDE_EFFECTS === "1" },
      "min-interval-ms": { type: "string", default: process.env.CONTRACT_MIN_INTERVAL_MS },
      "report-dir": { type: "string" },
      report: { type: "string" }, // deprecated alias of --report-dir
      ...COMMON_OPTIONS,
    },
  }).values;
}

type VerifyArgs = ReturnType<typeof verifyArgs>;

/** What `verify` was asked to do, checked (bad arguments exit 2), with where the key and secret came from. */
interface VerifyRequest {
  baseUrl: string;
  apiKey: string | undefined;
  apiSecret: string | undefined;
  secondApiKey: string | undefined;
  secondApiSecret: string | undefined;
  sandboxToken: string | undefined;
  allowDivergence: string[];
  /** --rule: the register entries whose flows run; absent when none was given (every flow). */
  rules: string[] | undefined;
  casesOnly: boolean;
  webhookReceiver: string | undefined;
  webhookSecret: string | undefined;
  params: Record<string, string>;
  allowSideEffects: boolean;
  interval: number | undefined;
  reportDir: string | undefined;
  keyFlag: boolean;
  secretFlag: boolean;
}

/** The base URL, which must be http(s) and end in the contract's base path. */
function checkedBaseUrl(given: string | undefined): string {
  const baseUrl = given?.trim();
  if (!baseUrl) fail(`verify needs --base-url <url ending in ${BASE_PATH}> (or CONTRACT_BASE_URL)`);
  if (
    !URL.canParse(baseUrl) ||
    !/^https?:\/\//.test(baseUrl) ||
    !new URL(baseUrl).pathname.replace(/\/+$/, "").endsWith(BASE_PATH)
  ) {
    fail(`--base-url must be an http(s) URL ending in ${BASE_PATH}, got ${JSON.stringify(baseUrl)}`);
  }
  return baseUrl;
}

/** The --param name=value pairs, by name. */
function parsedParams(pairs: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) fail(`--param takes name=value, got ${JSON.stringify(pair)}`);
    params[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return params;
}

/** --report-dir, or the deprecated --report (with a warning); both only when they agree. */
function reportDirOf(values: VerifyArgs): string | undefined {
  if (values.report !== undefined) {
    if (values["report-dir"] !== undefined && values["report-dir"] !== values.report)
      fail("--report is the old name of --report-dir: give one of them");
    process.stderr.write("api-contract: --report is deprecated; use --report-dir\n");
  }
  return values["report-dir"] ?? values.report;
}

function verifyRequest(values: VerifyArgs): VerifyRequest {
  const baseUrl = checkedBaseUrl(values["base-url"]);
  for (const flag of ["api-key", "api-secret", "second-api-key", "second-api-secret", "webhook-secret"] as const) {
    const variable = `CONTRACT_${flag.toUpperCase().replaceAll("-", "_")}`;
    if (values[flag] !== undefined && !values[flag].trim())
      fail(`--${flag} is empty (leave it out to use ${variable})`);
  }
  const params = parsedParams(values.param);
  for (const flag of ["allow-divergence", "rule"] as const) {
    const unknown = values[flag].find((id) => !SANDBOX_CHOICES.some((choice) => choice.id === id));
    if (unknown !== undefined)
      fail(`--${flag} ${unknown}: no entry of the sandbox's register has that id (GET /_sandbox/choices)`);
  }
  const interval = values["min-interval-ms"] === undefined ? undefined : Number(values["min-interval-ms"]);
  if (interval !== undefined && !(Number.isFinite(interval) && interval >= 0))
    fail(`--min-interval-ms must be a number ≥ 0, got ${values["min-interval-ms"]}`);
  return {
    baseUrl,
    apiKey: values["api-key"] ?? (process.env.CONTRACT_API_KEY || undefined),
    apiSecret: values["api-secret"] ?? (process.env.CONTRACT_API_SECRET || undefined),
    secondApiKey: values["second-api-key"] ?? (process.env.CONTRACT_SECOND_API_KEY || undefined),
    secondApiSecret: values["second-api-secret"] ?? (process.env.CONTRACT_SECOND_API_SECRET || undefined),
    sandboxToken: values["sandbox-token"],
    allowDivergence: values["allow-divergence"],
    rules: values.rule.length > 0 ? values.rule : undefined,
    casesOnly: values["cases-only"],
    webhookReceiver: values["webhook-receiver"],
    webhookSecret: values["webhook-secret"] ?? (process.env.CONTRACT_WEBHOOK_SECRET || undefined),
    params,
    allowSideEffects: values["allow-side-effects"],
    interval,
    reportDir: reportDirOf(values),
    keyFlag: values["api-key"] !== undefined,
    secretFlag: values["api-secret"] !== undefined,
  };
}

/** What verify is about to do, naming where the key and secret come from (never their values). */
function verifyBanner(request: VerifyRequest): string {
  const key = request.keyFlag ? "key from --api-key" : request.apiKey ? "key from CONTRACT_API_KEY" : "no API key";
  const signing = request.apiSecret
    ? `, requests signed (secret from ${request.secretFlag ? "--api-secret" : "CONTRACT_API_SECRET"})`
    : "";
  const second =
    (request.secondApiKey ? "; a second key for the isolation flow" : "") +
    (request.webhookSecret ? "; a webhook secret for the webhook flow" : "");
  const sideEffects = request.allowSideEffects ? "side effects ALLOWED" : "no side effects";
  const contract = `${openApiDocument.info?.title ?? "the contract"} ${openApiDocument.info?.version ?? ""}`;
  return (
    `Verifying ${request.baseUrl} against ${contract}\n` +
    `  ${key}${signing}${second}\n` +
    `  on a deployment: ${sideEffects}, ${request.interval ?? 1000} ms between requests ` +
    "(on the package's mock, which says so in its answers, every case runs)\n\n"
  );
}

/** `count` `noun`s, in the singular for one. */
const counted = (count: number, noun: string, plural = `${noun}s`) => `${count} ${count === 1 ? noun : plural}`;

/** What a run spends on a deployment at most, said before the first request (verify/budget.ts). */
function budgetLine(request: VerifyRequest): string {
  const options = {
    allowSideEffects: request.allowSideEffects,
    params: request.params,
    flows: !request.casesOnly,
    rules: request.rules,
    secondApiKey: request.secondApiKey,
    webhookSecret: request.webhookSecret,
  };
  const budget = deploymentBudget(openApiDocument, options);
  const perMinute = Math.floor(60_000 / Math.max(1, request.interval ?? 1000));
  const { allRequests: all, quotes } = budget;
  const limit = all ? ` (the contract allows ${all.requests} per ${all.seconds} s)` : "";
  const quoteLimit = quotes ? ` (its own limit: ${quotes.requests} per ${quotes.seconds} s)` : "";
  return (
    `  what it spends there, at most: ${counted(budget.requests, "request")} (${budget.cases} for the cases, ` +
    `${budget.flowRequests} for ${counted(budget.flows, "flow")}), ${perMinute} a minute${limit}; ` +
    `${counted(budget.createQuotes, "Create Quote call")}${quoteLimit}; ${counted(budget.trades, "trade")} of 1 ` +
    `unit; ${counted(budget.addresses, "deposit address", "deposit addresses")}; no deposit or withdrawal\n`
  );
}

/** The line that says what the target turned out to be. */
function targetLine(target: VerifyTarget, mockVersion: string | undefined, interval: number | undefined): string {
  if (target === "deployment") return "  the target is a deployment (its answers do not carry X-Api-Contract-Mock)\n";
  const unpaced = interval === undefined ? ", unpaced" : "";
  const header = target === "sandbox" ? "X-Api-Contract-Sandbox" : "X-Api-Contract-Mock";
  return `  the target is ${targetLabel({ target, mockVersion })} (${header}): every case runs${unpaced}\n`;
}

/** Prints a line per case as it ends, until the target turns out not to answer (nothing more is sent then). */
function progressPrinter(): VerifyOptions["onCase"] {
  let answered = false;
  let stopped = false;
  return (r, position, total) => {
    if (stopped) return;
    process.stdout.write(progressLine(r, position, total));
    if (r.status !== undefined) answered = true;
    else if (r.noAnswer !== undefined && !answered) {
      stopped = true; // verify sends nothing more: the target cannot be checked
      if (position < total) process.stdout.write(`  (the other ${total - position} cases are not sent)\n`);
    }
  };
}

/** The failed cases, each with its reason and violations (only their names when one cause explains them all). */
function printFailures(report: VerifyReport): void {
  const failed = report.results.filter((r) => r.outcome === "failed");
  if (!failed.length || report.unchecked) return;
  process.stdout.write(`\nFailed (${failed.length})${report.cause ? ", all for one cause (below)" : ""}:\n`);
  for (const r of failed) {
    process.stdout.write(`  ✗ ${r.case}${r.status !== undefined ? ` → ${r.status}` : ""}\n`);
    if (report.cause) continue;
    process.stdout.write(`      ${r.reason ?? ""}\n`);
    // The reason already says which status came; the other violations, each with its JSON pointer.
    for (const v of r.violations.filter((v) => v.kind !== "unexpected-status"))
      process.stdout.write(`      ${violationLine(v)}\n`);
  }
}

/** The flows, each with its outcome, and the register's verdicts: counted, each contradicted one with its evidence. */
function printFlows(report: VerifyReport): void {
  if (!report.flows || !report.choices) return;
  process.stdout.write("\nFlows:\n");
  const asked = report.flows.filter((flow) => flow.reason !== NOT_ASKED_FOR);
  for (const flow of asked)
    process.stdout.write(
      `  ${SYMBOL[flow.outcome === "untested" ? "skipped" : flow.outcome]} ${flow.flow}` +
        `${flow.reason ? `: ${flow.outcome === "untested" ? "untested, " : ""}${flow.reason}` : ""}\n`,
    );
  const others = report.flows.length - asked.length;
  if (others > 0) process.stdout.write(`  ${SYMBOL.skipped} ${others} more not run: ${NOT_ASKED_FOR}\n`);
  const count = (verdict: string) => report.choices!.filter((choice) => choice.verdict === verdict).length;
  process.stdout.write(
    `The sandbox's register on this target: ${count("confirmed")} confirmed, ${count("contradicted")} ` +
      `contradicted, ${count("untested")} untested (the reports list each).\n`,
  );
  for (const choice of report.choices.filter((c) => c.verdict === "contradicted"))
    process.stdout.write(`  ✗ ${choice.id}${choice.allowed ? " (allowed)" : ""}: ${choice.evidence}\n`);
}

/** The verdict, with the counts, the requests and the time they took. */
function printVerdict(report: VerifyReport, elapsed: string): void {
  const { counts } = report;
  const verdict = report.ok
    ? "Meets the contract"
    : report.unchecked
      ? "Could NOT be checked"
      : "Does NOT meet the contract";
  const tally = `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
  process.stdout.write(
    `\n${verdict} (${targetLabel(report)}): ${tally} (${report.requests} requests in ${elapsed} s).\n`,
  );
  if (!report.ok && !report.unchecked && counts.failed === 0)
    process.stdout.write("No positive case passed: nothing was shown to work.\n");
}

async function verifyCommand(args: string[]): Promise<void> {
  const values = verifyArgs(args);
  if (answeredCommon("verify", values)) return;
  const request = verifyRequest(values);
  process.stdout.write(verifyBanner(request).replace(/\n\n$/, `\n${budgetLine(request)}\n`));
  const started = performance.now();
  const report = await verify(openApiDocument, createContractValidator(openApiDocument), {
    baseUrl: request.baseUrl,
    apiKey: request.apiKey,
    apiSecret: request.apiSecret,
    secondApiKey: request.secondApiKey,
    secondApiSecret: request.secondApiSecret,
    sandboxToken: request.sandboxToken,
    allowDivergence: request.allowDivergence,
    rules: request.rules,
    flows: !request.casesOnly,
    webhookReceiver: request.webhookReceiver,
    webhookSecret: request.webhookSecret,
    allowSideEffects: request.allowSideEffects,
    params: request.params,
    minIntervalMs: request.interval,
    onTarget: (target, mockVersion) => process.stdout.write(targetLine(target, mockVersion, request.interval)),
    onCase: progressPrinter(),
  });
  const elapsed = ((performance.now() - started) / 1000).toFixed(1);
  if (report.sandboxSetup) process.stdout.write(`\nOn the sandbox, verify ${report.sandboxSetup}.\n`);
  const waited = limitWaitLine(report);
  if (waited) process.stdout.write(`\n${waited}\n`);
  printFailures(report);
  printFlows(report);
  printVerdict(report, elapsed);
  if (request.reportDir) {
    const files = await writeReport(report, request.reportDir);
    process.stdout.write(`Reports: ${files.junit}, ${files.json}, ${files.markdown}\n`);
  }
  // process.exit does not wait for a pipe to take what was written: a busy reader would see the report cut.
  await stdoutFlushed();
  if (report.unchecked) fail(`could not check ${request.baseUrl}: ${report.unchecked}`, 2);
  if (report.cause) process.stderr.write(`api-contract: ${report.cause}\n`);
  process.exit(report.ok ? 0 : 1);
}

/** Resolves once stdout has handed on everything written to it so far (writes are flushed in order). */
const stdoutFlushed = () => new Promise<void>((resolve) => process.stdout.write("", () => resolve()));

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === "mock") await mock(rest);
  else if (command === "sandbox") await sandboxCommand(rest);
  else if (command === "verify") await verifyCommand(rest);
  else if (command === "wait") await waitCommand(rest);
  else if (command === undefined || command === "help" || command === "--help" || command === "-h")
    process.stdout.write(usage());
  else if (command === "version" || command === "--version" || command === "-v")
    process.stdout.write(`${PACKAGE_VERSION}\n`);
  else fail(`unknown command ${JSON.stringify(command)}\n\n${usage()}`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error), 2);
}
