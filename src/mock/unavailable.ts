// The error of a mocking entry whose optional peer dependencies are not installed (./mock and the command's
// mock need @stoplight/prism-http; ./msw needs msw, and its createHttp openapi-msw). In a module of its own, free
// of Node built-ins, so that ./msw can throw it in a browser too.
export class MockUnavailableError extends Error {
  override readonly name = "MockUnavailableError";
}
