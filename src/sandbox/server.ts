// The sandbox over HTTP (`api-contract sandbox`): the shared node:http front (src/pipeline/http-front.ts: body limit,
// request limits, CORS, a request Node cannot parse) before the sandbox engine. Each request read whole becomes a
// Fetch Request for `sandbox.fetch`, whose Response is written back, except an API request: it goes straight into
// the same engine's pipeline (direct.ts) in the shapes the Fetch way would give it, as building a Request and
// reading a Response cost as much as the rest of the answer (the throughput target: BENCHMARKS.md). What only the
// transport sees (a body too large, a URL too long…) is refused with the contract's documented error answer, as the
// mock refuses it.
// Around the engine it adds what a long-running process needs:
//   - the control API (/_sandbox) on an interface other than loopback only with a token given at start, and to
//     its own origin only: no CORS, Origin and Host checked (control-origin.ts);
//   - `statePath`: the state loaded at start (when the file exists) and saved on stop atomically (a file beside
//     it, synced, renamed over it), so a crash mid-save leaves the previous file whole; a path it could not save
//     to (a folder, a folder missing or not writable) is refused at start, not found out on stop;
//   - `config`: SandboxOptions from a JSON file (accounts, rates, limits, catalogue, requireKnownKeys, clock).
import { randomUUID } from "node:crypto";
import { constants } from "node:fs";
import { access, open, readFile, rename, rm, stat } from "node:fs/promises";
import type http from "node:http";
import { isIP } from "node:net";
import buffer from "node:buffer";
import path from "node:path";
import { BASE_PATH } from "../../generated/client-meta.js";
import controlDocument from "../../generated/sandbox-control.json" with { type: "json" };
import { openApiDocument } from "../contract/bundled.js";
import { type AnsweringSide, startHttpFront } from "../pipeline/http-front.js";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_REQUEST_TIMEOUT_MS } from "../pipeline/limits.js";
import { SANDBOX_IDENTITY } from "../pipeline/identity.js";
import {
  after,
  createRequestPipeline,
  type PipelineAnswer,
  type PipelineRequest,
  type RequestPipeline,
} from "../pipeline/pipeline.js";
import { engineOf, pipelineOf } from "./direct.js";
import { apiKeyOf } from "./engine.js";
import { changeOf, Journal, readJournaled, type SavedText, savedTextOf } from "./journal.js";
import { deriveMockSpec } from "../mock/spec.js";
import { isControlPath, isStreamedAnswer, noControlRoute } from "./control.js";
import { controlHosts, createControlGuard, isControlTarget } from "./control-origin.js";
import {
  createSandbox,
  restoreHandedOver,
  type Sandbox,
  type SandboxOptions,
  type SandboxRates,
  type SandboxState,
  type WebhookOptions,
  type WithdrawalOptions,
} from "./index.js";

interface StartSandboxOptions {
  /** Interface to listen on. Default 127.0.0.1; any other needs `controlToken`. */
  host?: string;
  /** Default 4020; 0: a free port. */
  port?: number;
  /** Where the state lives: loaded at start when the file exists, saved (atomically) on stop. */
  statePath?: string;
  /** The sandbox's options, or the path of a JSON file holding them. */
  config?: SandboxOptions | string;
  /** With `statePath`: how large its journal grows before the state is written whole (default 16 MiB; tests). */
  journalCompactBytes?: number;
  /** The control API requires `authorization: Bearer <token>` (this, else the config's). Required off loopback. */
  controlToken?: string;
  /** One line per request (unless `quiet`), and a sandbox bug (an answer that fails the contract). */
  log?: (line: string) => void;
  /** No line per request: only the sandbox's bugs reach `log`. */
  quiet?: boolean;
  /** Larger request bodies are refused with 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** A request (head and body) that has not arrived within it is refused with 408. Default 60 s, as the mock's. */
  requestTimeoutMs?: number;
}

export interface StartedSandbox {
  /** e.g. http://127.0.0.1:4020/v1 */
  baseUrl: string;
  /** e.g. http://127.0.0.1:4020 (the control API is under /_sandbox) */
  origin: string;
  port: number;
  sandbox: Sandbox;
  /** Whether the control API requires a token. */
  tokenRequired: boolean;
  /** Closes the server, then saves the state to `statePath` (when given). Calling it again does nothing more. */
  stop(): Promise<void>;
}

/** Where `api-contract sandbox` listens by default (./msw's createSandboxHandlers answers there by default too). */
export const SANDBOX_DEFAULT_PORT = 4020;

/** The keys of a config file: the SandboxOptions that JSON can hold (`api-contract sandbox --help` lists them). */
export const SANDBOX_CONFIG_KEYS = [
  "accounts",
  "rates",
  "limits",
  "catalogue",
  "requireKnownKeys",
  "clock",
  "withdrawals",
  "webhooks",
  "quotes",
  "controlToken",
] as const;

/** Whether `host` names a loopback interface (only this machine can connect). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost" || bare === "::1") return true;
  if (bare.startsWith("::ffff:")) return isLoopbackHost(bare.slice("::ffff:".length));
  return isIP(bare) === 4 && bare.startsWith("127.");
}

/** All of `T`'s keys, listed once (the compiler checks the list is whole and names nothing else). */
const keysOf = <T>(keys: Record<keyof T, true>): readonly string[] => Object.keys(keys);

/** The keys of each option that holds an object, as a JSON file can give them. */
const NESTED_KEYS: Record<string, readonly string[]> = {
  clock: keysOf<NonNullable<SandboxOptions["clock"]>>({ start: true }),
  rates: keysOf<SandboxRates>({ fiat: true, dollar: true }),
  limits: keysOf<NonNullable<SandboxOptions["limits"]>>({ requestsPerMinute: true, quotesPerHour: true }),
  catalogue: keysOf<NonNullable<SandboxOptions["catalogue"]>>({
    currencies: true,
    pairs: true,
    networks: true,
    withdrawalNetworks: true,
  }),
  withdrawals: keysOf<WithdrawalOptions>({ settleAfterMs: true, outcome: true }),
  quotes: keysOf<NonNullable<SandboxOptions["quotes"]>>({ sideReading: true }),
  webhooks: keysOf<Omit<WebhookOptions, "fetch" | "onWebhook" | "startTimeout">>({ retry: true, timeoutMs: true }),
};

/** An account's settings as the control document gives them (PUT /_sandbox/accounts/{apiKey}). */
const ACCOUNT_KEYS = Object.keys(controlDocument.components.schemas.SandboxAccountSettings.properties);

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The first key of `value` (an object) not in `known`, as "where.key (known: …)", or undefined. */
function strayKey(where: string, value: unknown, known: readonly string[]): string | undefined {
  if (!isObject(value)) return undefined; // the sandbox says what is wrong with its type
  const stray = Object.keys(value).find((key) => !known.includes(key));
  return stray === undefined ? undefined : `${where}${stray} (known: ${known.join(", ")})`;
}

/** The first option of a config file the sandbox does not know, at any depth it checks, or undefined. */
function unknownOption(options: Record<string, unknown>): string | undefined {
  const nested = Object.entries(NESTED_KEYS).map(([name, known]) => strayKey(`${name}.`, options[name], known));
  const accounts = isObject(options.accounts) ? Object.entries(options.accounts) : [];
  return (
    strayKey("", options, SANDBOX_CONFIG_KEYS) ??
    nested.find((stray) => stray !== undefined) ??
    accounts.map(([key, settings]) => strayKey(`accounts.${key}.`, settings, ACCOUNT_KEYS)).find(Boolean)
  );
}

/** The SandboxOptions of a config file, its keys checked (a typo must not pass unnoticed). */
async function readConfig(file: string): Promise<SandboxOptions> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new Error(`--config ${file}: cannot read it as JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new Error(`--config ${file}: must hold a JSON object of sandbox options`);
  const unknown = unknownOption(parsed as Record<string, unknown>);
  if (unknown) throw new Error(`--config ${file}: unknown option ${unknown}`);
  return parsed as SandboxOptions;
}

/**
 * Why the state cannot be saved to `file` on stop, found at start: it is a folder, or its folder is missing, is
 * not a folder or cannot be written to. Found only on stop, the state of the whole run would be lost.
 */
async function stateFileProblem(file: string): Promise<string | undefined> {
  const found = await stat(file).catch(() => undefined);
  if (found?.isDirectory()) return "it is a folder: give the path of a file (it is made on stop when missing)";
  const folder = path.dirname(path.resolve(file));
  const cannot = "so the state could not be saved on stop";
  try {
    // stat first: access() finds a file writable where a folder should be.
    if (!(await stat(folder)).isDirectory()) return `its folder ${folder} is not a folder, ${cannot}`;
    await access(folder, constants.W_OK);
    return undefined;
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === "ENOENT") return `its folder ${folder} does not exist, ${cannot}`;
    if (code === "ENOTDIR") return `its folder ${folder} is not a folder, ${cannot}`;
    return `its folder ${folder} cannot be written to (${code}), ${cannot}`;
  }
}

/** The state saved at `file` (its text and value), or undefined when there is no such file; refused when not JSON. */
async function readStateText(file: string): Promise<SavedText | undefined> {
  const problem = await stateFileProblem(file);
  if (problem) throw new Error(`--state ${file}: ${problem}`);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    return savedTextOf(text);
  } catch (error) {
    throw new Error(`--state ${file}: not a saved sandbox state (${(error as Error).message}); it is left as it is`);
  }
}

/** How writeFileAtomically writes the text into the open temporary file (a test makes it fail half-way). */
type WriteStep = (handle: import("node:fs/promises").FileHandle, text: string) => Promise<void>;

/**
 * Writes `text` to `file` so that `file` is always whole, the old text or the new: into a temporary file in the
 * same folder, synced to disk, then renamed over `file` (a rename within a file system is atomic), and the folder
 * synced so the rename lasts. A failure on the way removes the temporary file and leaves `file` as it was.
 */
export async function writeFileAtomically(
  file: string,
  text: string,
  write: WriteStep = (handle, data) => handle.writeFile(data, "utf8"),
): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
  try {
    const handle = await open(temporary, "wx");
    try {
      await write(handle, text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  // Where a folder cannot be opened for syncing (Windows), the rename stands without it.
  const folder = await open(path.dirname(file), "r").catch(() => undefined);
  await folder
    ?.sync()
    .catch(() => {})
    .finally(() => folder.close());
}

/**
 * `body` as a Request's body, handed over as it is: a stream of that one chunk. Given as bytes, Fetch copies them
 * (and a Buffer had to be copied into a Uint8Array first): for a whole state put back (222 MiB), the two copies held
 * the event loop for about 0.3 s.
 */
function bodyStream(body: Buffer): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new Uint8Array(body.buffer, body.byteOffset, body.length));
      controller.close();
    },
  });
}

/** A Node request read whole as a Fetch Request (a GET or HEAD carries no body in Fetch: it is not passed). */
function toFetchRequest(request: http.IncomingMessage, body: Buffer, origin: string): Request {
  const method = String(request.method ?? "GET").toUpperCase();
  const headers = new Headers();
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const withBody = method !== "GET" && method !== "HEAD" && body.length > 0;
  // A stream body needs duplex "half" (its only value) in Node's Fetch.
  const init = { method, headers, body: withBody ? bodyStream(body) : undefined, duplex: "half" };
  return new Request(new URL(String(request.url ?? "/"), origin), init);
}

/** The chunks of a Response's body as they come; leaving off before its end cancels the body. */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
    ended = true;
  } finally {
    if (!ended) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * A Fetch Response as the front writes it: its body read whole, but one made as it is read (the whole state:
 * control.ts), which the front sends on chunk by chunk as it comes.
 */
async function toAnswer(response: Response): Promise<PipelineAnswer> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  if (isStreamedAnswer(response) && response.body)
    return { status: response.status, headers, body: "", stream: chunksOf(response.body) };
  return { status: response.status, headers, body: await response.text() };
}

/**
 * Methods that go the direct way: those a Fetch Request takes as they are, and those it refuses to take at all
 * (CONNECT, TRACE, TRACK), which the pipeline answers as any other method that is no operation (405 with Allow,
 * or 404). Any other (a lower-case or unknown method) goes the Fetch way.
 */
const DIRECT_METHODS = new Set([
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "CONNECT",
  "TRACE",
  "TRACK",
]);

/** Decodes a body as Fetch's `text()` does: UTF-8, a bad byte replaced, a leading byte-order mark dropped. */
const utf8 = new TextDecoder();

/** Header fields as a Fetch Headers gives them: names lower-cased, a repeated field's values joined. */
function joinedHeaders(raw: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${raw[i + 1]}` : raw[i + 1]!;
  }
  return headers;
}

/**
 * A request's header fields as a Fetch Headers gives them. Node has already made them an object (it reads the
 * host from it), which is the same when no field is repeated (Node drops or joins a repeated field by rules of its
 * own): then it is taken as it is, not made twice. Node makes a set-cookie field a list even once; the pipeline
 * reads a list of one as its text.
 */
function headersOf(request: http.IncomingMessage): PipelineRequest["headers"] {
  const made = request.headers;
  let fields = 0;
  for (const _name in made) fields++;
  return fields * 2 === request.rawHeaders.length ? made : joinedHeaders(request.rawHeaders);
}

/** Whether an answer has a repeated field that the Fetch way joins (all but set-cookie). */
function hasJoinedField(headers: PipelineAnswer["headers"]): boolean {
  for (const name in headers) if (Array.isArray(headers[name]) && name !== "set-cookie") return true;
  return false;
}

/** A pipeline answer as the Fetch way gives it back: a repeated field joined (but set-cookie), no body to HEAD. */
function asFetchGives(method: string, answer: PipelineAnswer): PipelineAnswer {
  const empty = method === "HEAD" || answer.status === 204;
  // As it is when there is nothing to join, a body to send and no reason (the Fetch way carries none).
  if (!empty && answer.why === undefined && !hasJoinedField(answer.headers)) return answer;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(answer.headers))
    headers[name] = Array.isArray(value) && name !== "set-cookie" ? value.join(", ") : value;
  return { status: answer.status, headers, body: empty ? "" : answer.body };
}

/**
 * An API request straight into the engine's pipeline (direct.ts), in the shapes the Fetch way would have given
 * it (the same URL, header fields and body text: none on GET or HEAD), and its answer as the Fetch way gives it
 * back.
 */
function answerDirectly(pipeline: RequestPipeline, request: http.IncomingMessage, text: string, url: URL) {
  const method = String(request.method).toUpperCase();
  const body = method === "GET" || method === "HEAD" ? "" : text;
  const headers = headersOf(request);
  // The target as sent: the pipeline reads the parsed URL, so its href need not be written out.
  const answer = pipeline.answer({ method, url: String(request.url), parsedUrl: url, headers, body });
  return after(answer, (answered) => asFetchGives(method, answered));
}

/** The request's target, parsed, when it goes the direct way: an API request of a method Fetch takes as it is. */
function directUrl(request: http.IncomingMessage, origin: string): URL | undefined {
  if (!DIRECT_METHODS.has(String(request.method ?? "GET").toUpperCase())) return undefined;
  let url: URL;
  try {
    url = new URL(String(request.url ?? "/"), origin);
  } catch {
    return undefined; // the Fetch way refuses it
  }
  return isControlPath(url.pathname) ? undefined : url;
}

/** Where the sandbox listens, known once it does (port 0: the system chooses): its origin, its control guard. */
interface Listening {
  origin: string;
  guard: (request: http.IncomingMessage) => PipelineAnswer | undefined;
}

/**
 * The front's answering side: the engine, and the contract's documented error answers for transport refusals;
 * a control request goes to the engine only past `guard` (control-origin.ts), and its answers carry no CORS.
 */
function sandboxSide(sandbox: Sandbox, at: Listening, journal?: Journal): AnsweringSide {
  // The pipeline's refusal is the mock's and ./msw's: the documented error answer and the published error body.
  const refusals = createRequestPipeline({
    spec: deriveMockSpec(openApiDocument).spec,
    source: { answer: async () => ({ kind: "refused", status: 400, reason: "transport refusals only" }) },
    now: () => sandbox.clock.now(),
    identity: SANDBOX_IDENTITY,
  });
  // An API request goes straight into the engine's pipeline (direct.ts): building a Fetch Request and reading a
  // Fetch Response back cost about as much as the rest of the answer (BENCHMARKS.md); the rest goes the Fetch way.
  const answerNow = (request: http.IncomingMessage, body: Buffer) => {
    const pipeline = pipelineOf(sandbox);
    const url = pipeline && directUrl(request, at.origin);
    if (pipeline && url) return answerDirectly(pipeline, request, utf8.decode(body), url);
    return answerFetched(request, body);
  };
  // With --state, an answer goes out once what it shows is in the journal; a journal that cannot be written is a 500.
  const answer = !journal
    ? answerNow
    : async (request: http.IncomingMessage, body: Buffer): Promise<PipelineAnswer> => {
        const answered = await answerNow(request, body);
        const path = new URL(String(request.url), at.origin || "http://sandbox.invalid").pathname;
        const apiKey = apiKeyOf(headersOf(request));
        const change = changeOf(
          { method: String(request.method), path, apiKey, body: () => utf8.decode(body) },
          engineOf(sandbox)!,
        );
        try {
          await journal.commit(change);
          return answered;
        } catch (error) {
          return refusals.refuse(500, `the sandbox could not write its journal: ${(error as Error).message}`);
        }
      };
  /** The Fetch way: a request the pipeline cannot take directly, as sandbox.fetch takes it. */
  const answerFetched = async (request: http.IncomingMessage, body: Buffer) => {
    let fetchRequest: Request;
    try {
      fetchRequest = toFetchRequest(request, body, at.origin);
    } catch (error) {
      // A method Fetch refuses (TRACE…) on a control path: no route, as any method the control API does not have.
      const target = String(request.url);
      if (isControlTarget(target))
        return (
          at.guard(request) ?? toAnswer(noControlRoute(String(request.method), new URL(target, at.origin).pathname))
        );
      return refusals.refuse(400, `the request cannot be read as a Fetch request: ${(error as Error).message}`);
    }
    // Guarded as sandbox.fetch routes it, so no target the front reads otherwise gets past.
    const refused = isControlPath(new URL(fetchRequest.url).pathname) ? at.guard(request) : undefined;
    return refused ?? toAnswer(await sandbox.fetch(fetchRequest));
  };
  return {
    name: "sandbox",
    answer,
    refuse: (status, why, request) => refusals.refuse(status, why, request),
    sameOriginOnly: (request) => isControlTarget(String(request.url)),
    date: httpDateOf(() => sandbox.clock.now()),
    // A control request past the guard may carry any state GET /_sandbox/state answered (its JSON is one string).
    bodyLimit: (request) =>
      isControlTarget(String(request.url)) && !at.guard(request) ? buffer.constants.MAX_STRING_LENGTH : undefined,
  };
}

/** The settings of a --config file that a saved state holds too: restoring it replaces them. */
const STATE_SETTINGS = ["accounts", "clock", "rates", "catalogue"] as const;

const accountsIn = (accounts: object) => `${Object.keys(accounts).length} account(s)`;

/**
 * What the log says of `file` at start: loaded (`saved`: its accounts, the clock `now` it set, and which settings of
 * the --config file it replaced, which were not applied), or not there yet.
 */
function stateStartLine(
  file: string,
  saved: SandboxState | undefined,
  now: number,
  config: SandboxOptions,
  applied: number,
): string {
  if (!saved) return `sandbox state: ${file} does not exist yet; every change is journaled to ${file}.journal`;
  const replaced = STATE_SETTINGS.filter((name) => config[name] !== undefined);
  const journaled = applied === 0 ? "" : ` and ${applied} journaled change(s)`;
  const clock = `clock at ${new Date(now).toISOString()}`;
  const loaded = `sandbox state loaded from ${file}${journaled}: ${accountsIn(saved.accounts)}, ${clock}`;
  if (!replaced.length) return loaded;
  return `${loaded}; it wins over the --config file's ${replaced.join(", ")}, which are not applied`;
}

/**
 * The Date header of the sandbox's answers: its own clock (register "clock"), so a client that reads the time
 * of an answer there (a rate limit's reset against it) reads the sandbox's time. Made once a second, as Node does.
 */
function httpDateOf(now: () => number): () => string {
  let made = { second: Number.NaN, text: "" };
  return () => {
    const second = Math.floor(now() / 1000);
    if (second !== made.second) made = { second, text: new Date(second * 1000).toUTCString() };
    return made.text;
  };
}

/** The origin of a server on `host`:`port` (an IPv6 address in brackets). */
/**
 * The journal of `--state <file>`: the state the file and its journal hold restored into `sandbox` (checked as a
 * restore; refused with the file left as it is); the journal then goes on from there (Journal.resume), so a large
 * state is not written again before the sandbox listens.
 */
async function openJournal(
  statePath: string,
  sandbox: Sandbox,
  { config, log, compactBytes }: { config: SandboxOptions; log?: (line: string) => void; compactBytes?: number },
) {
  const saved = await readStateText(statePath);
  const { state, applied, start } = await readJournaled(statePath, saved, () => sandbox.snapshot());
  if (state !== undefined) {
    try {
      restoreHandedOver(sandbox, state);
    } catch (error) {
      throw new Error(`--state ${statePath}: ${(error as Error).message}; the file is left as it is`);
    }
  }
  log?.(stateStartLine(statePath, state, sandbox.clock.now(), config, applied));
  const journal = new Journal(statePath, engineOf(sandbox)!, { compactBytes });
  await journal.resume(start);
  return journal;
}

const originOf = (host: string, port: number) => `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

/**
 * Starts the sandbox on host:port and resolves once it listens. Off loopback it refuses to start without a
 * `controlToken`: anyone who can reach the port could otherwise rewrite accounts, balances and the clock.
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<StartedSandbox> {
  const host = options.host ?? "127.0.0.1";
  const { statePath, log } = options;
  const config = typeof options.config === "string" ? await readConfig(options.config) : (options.config ?? {});
  // A token in the config file stays out of process lists, where a command-line argument shows.
  const controlToken = options.controlToken || config.controlToken || undefined;
  if (!isLoopbackHost(host) && !controlToken)
    throw new Error(
      `the sandbox listens on ${host}, not a loopback interface: its control API (/_sandbox) needs a token ` +
        "given at start (--token <t>, or controlToken in the --config file), or listen on 127.0.0.1",
    );
  const sandbox = createSandbox({ ...config, ...(controlToken ? { controlToken } : {}), log });
  const journal =
    statePath === undefined
      ? undefined
      : await openJournal(statePath, sandbox, { config, log, compactBytes: options.journalCompactBytes });
  // Until it listens, its control API answers to no host.
  const at: Listening = { origin: "", guard: createControlGuard(new Set()) };
  const front = await startHttpFront({
    side: sandboxSide(sandbox, at, journal),
    host,
    port: options.port ?? SANDBOX_DEFAULT_PORT,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    requestTimeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    log: options.quiet ? undefined : log,
  });
  const origin = originOf(host, front.port);
  at.origin = origin;
  at.guard = createControlGuard(controlHosts(host, front.port));
  let stopping: Promise<void> | undefined;
  const stop = async () => {
    await front.close();
    if (statePath === undefined || !journal) return;
    await journal.close();
    log?.(`sandbox state saved to ${statePath}: ${accountsIn(engineOf(sandbox)!.state.accounts)}`);
  };
  return {
    baseUrl: `${origin}${BASE_PATH}`,
    origin,
    port: front.port,
    sandbox,
    tokenRequired: controlToken !== undefined,
    stop: () => {
      stopping ??= stop();
      return stopping;
    },
  };
}
