// The sandbox's own request handle, beside its public one: `sandbox.fetch` takes a Fetch Request and gives a Fetch
// Response (./msw and a test in-process use it), while the HTTP front (server.ts) already holds a request read whole
// and writes an answer itself, so building a Request and reading a Response back for it is pure cost (an
// AbortSignal, a body stream, two header lists per request). This module lets the HTTP front reach the same
// pipeline of the same engine directly, in the pipeline's own shapes; nothing outside the package sees it.
// The engine is reached the same way by the --state journal (journal.ts), which writes the parts a request changed.
import type { RequestPipeline } from "../pipeline/pipeline.js";
import type { Engine } from "./engine.js";

const pipelines = new WeakMap<object, RequestPipeline>();
const engines = new WeakMap<object, Engine>();

/** Called once by createSandbox: the pipeline behind `sandbox.fetch` for API requests. */
export function keepPipeline(sandbox: object, pipeline: RequestPipeline, engine: Engine): void {
  pipelines.set(sandbox, pipeline);
  engines.set(sandbox, engine);
}

/** The pipeline behind `sandbox.fetch` for API requests (undefined for an object createSandbox did not make). */
export function pipelineOf(sandbox: object): RequestPipeline | undefined {
  return pipelines.get(sandbox);
}

/** The engine behind `sandbox` (undefined for an object createSandbox did not make). */
export function engineOf(sandbox: object): Engine | undefined {
  return engines.get(sandbox);
}
