// vitest.global-setup.ts            (vitest.config.ts: test: { globalSetup: ["./vitest.global-setup.ts"] })
import { startMock } from "@trading-wallet-settlement/api-contract/mock";
import type { TestProject } from "vitest/node";

// Types inject("apiBaseUrl") in your tests.
declare module "vitest" {
  export interface ProvidedContext {
    apiBaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const mock = await startMock(); // on a free port of 127.0.0.1
  project.provide("apiBaseUrl", mock.baseUrl); // "http://127.0.0.1:<port>/v1"; read it with inject("apiBaseUrl")
  return () => mock.stop();
}
