// Who may call the control API over HTTP (choices.ts, "control.origin"): only the sandbox's own origin. On loopback
// it needs no token, and it answers every account's API and webhook secrets and rewrites the state, so a page the
// developer has open must not reach it: not from another origin (its answers carry no CORS header, its preflights
// and any request with a foreign Origin are refused, "simple" requests too), and not by DNS rebinding (a name the
// attacker's DNS points at 127.0.0.1 arrives as its Host, which is checked). Only the HTTP front checks this: in
// process and through MSW no socket is open, and a Request's URL names whatever host its caller chose.
import type http from "node:http";
import { networkInterfaces } from "node:os";
import type { PipelineAnswer } from "../pipeline/pipeline.js";
import { CONTROL_ORIGIN_REFUSAL } from "./rules.js";
import { CONTROL_PREFIX, isControlPath } from "./control.js";

/** Parses request targets whatever their form: one in origin form keeps this base's host (it names none). */
const TARGET_BASE = new URL("http://target.invalid");

/** The URL a request target stands for, as sandbox.fetch's Request is made from it, or undefined. */
function targetUrl(target: string): URL | undefined {
  try {
    return new URL(target, TARGET_BASE);
  } catch {
    return undefined;
  }
}

/** Written in every target of the control API: the URL parser resolves dot segments, it decodes no `%5F`. */
const CONTROL_MARK = CONTROL_PREFIX.slice(1);

/** Whether a request target is the control API's, read as the URL parser reads it (dot segments resolved…). */
export function isControlTarget(target: string): boolean {
  if (!target.includes(CONTROL_MARK)) return false; // most targets (the API's): no parse
  const url = targetUrl(target);
  return url !== undefined && isControlPath(url.pathname);
}

/** An address as a Host header names it (an IPv6 address in brackets), lower-cased. */
const hostForm = (address: string) => (address.includes(":") ? `[${address}]` : address).toLowerCase();

/** The machine's addresses, for a sandbox listening on all of them (none where the system will not list them). */
function machineAddresses(): string[] {
  try {
    return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address));
  } catch {
    return [];
  }
}

/**
 * The Host values the sandbox listening on `host`:`port` answers the control API to: 127.0.0.1, localhost and
 * [::1], and the address it listens on (for 0.0.0.0 and ::, every address of the machine), each with the port, and
 * also without it on port 80 (where clients leave it out). Off loopback a token is required as well (server.ts).
 */
export function controlHosts(host: string, port: number): ReadonlySet<string> {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  const wildcard = bare === "0.0.0.0" || bare === "::";
  const addresses = ["127.0.0.1", "localhost", "::1", bare, ...(wildcard ? machineAddresses() : [])];
  const forms = addresses.map(hostForm);
  return new Set([...forms.map((form) => `${form}:${port}`), ...(port === 80 ? forms : [])]);
}

/** A refusal in the control API's error shape ({ message }), `why` for the log. */
function refusal(status: number, message: string): PipelineAnswer {
  return { status, headers: { "content-type": "application/json" }, body: JSON.stringify({ message }), why: message };
}

/**
 * The refusal of a control request that does not come from the sandbox's own origin, or undefined for one that
 * may go on: `hosts` are the names it answers to (controlHosts), its own origins those names over http.
 */
export function createControlGuard(hosts: ReadonlySet<string>) {
  const names = [...hosts].join(", ");
  const origins = new Set([...hosts].map((name) => `http://${name}`));
  return (request: http.IncomingMessage): PipelineAnswer | undefined => {
    const { host = "", origin } = request.headers;
    // A target in absolute form names its host itself, over Host (RFC 9112 §3.2.2): both must be the sandbox's.
    const named = targetUrl(String(request.url))?.host;
    const given = named === undefined || named === TARGET_BASE.host ? [host] : [host, named];
    const elsewhere = given.find((name) => !hosts.has(name.toLowerCase()));
    if (elsewhere !== undefined)
      return refusal(
        CONTROL_ORIGIN_REFUSAL.host,
        `the control API answers only to the hosts ${names}, not to ${elsewhere || "a request without Host"}`,
      );
    if (origin !== undefined && !origins.has(origin.toLowerCase()))
      return refusal(
        CONTROL_ORIGIN_REFUSAL.origin,
        `the control API answers only its own origin (no CORS), not a request from ${origin}`,
      );
    if (request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined)
      return refusal(CONTROL_ORIGIN_REFUSAL.preflight, "the control API answers no CORS preflight (no CORS)");
    return undefined;
  };
}
