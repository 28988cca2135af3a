// The Fetch front of the request pipeline (pipeline.ts): a Fetch Request in, a Fetch Response out. The ./msw
// handlers (mock and sandbox alike) and `sandbox.fetch` hand requests over here, so the one pipeline answers them
// the same way; the mock's HTTP front reads node:http requests itself (http-front.ts).
import type { PipelineAnswer, RequestPipeline } from "./pipeline.js";

/** The pipeline's answer as a Response: no body where the status or a HEAD allows none. */
function toResponse(request: Request, answer: PipelineAnswer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers))
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  const empty = answer.body === "" || request.method === "HEAD" || answer.status === 204;
  return new Response(empty ? null : answer.body, { status: answer.status, headers });
}

/** Hands a Fetch Request to the pipeline and its answer back as a Response (a GET or HEAD body is not read). */
export async function answerFetchRequest(pipeline: RequestPipeline, request: Request): Promise<Response> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
  return toResponse(request, await pipeline.handle({ method: request.method, url: request.url, headers, body }));
}
