// The sandbox's own request handle, beside its public one: `sandbox.fetch` takes a Fetch Request and gives a Fetch
// Response (./msw and a test in-process use it), while the HTTP front (server.ts) already holds a request read whole
// and writes an answer itself, so building a Request and reading a Response back for it is pure cost (an
// AbortSignal, a body stream, two header lists per request). This module lets the HTTP front reach the same
// pipeline of the same engine directly, in the pipeline's own shapes; nothing outside the package sees it.
import type { RequestPipeline } from "../pipeline/pipeline.js";

const pipelines = new WeakMap<object, RequestPipeline>();

/** Called once by createSandbox: the pipeline behind `sandbox.fetch` for API requests. */
export function keepPipeline(sandbox: object, pipeline: RequestPipeline): void {
  pipelines.set(sandbox, pipeline);
}

/** The pipeline behind `sandbox.fetch` for API requests (undefined for an object createSandbox did not make). */
export function pipelineOf(sandbox: object): RequestPipeline | undefined {
  return pipelines.get(sandbox);
}
