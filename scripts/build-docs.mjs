#!/usr/bin/env node
// `npm run docs`: rebuilds only the docs page, generated/docs/index.html, from generated/openapi.yaml
// (the docs build step, scripts/build-steps/50-docs.mjs). `npm run build` runs it with every other step.
import { runBuild } from "./build.mjs";

runBuild({ only: ["50-docs"] }).catch((err) => {
  console.error(err?.stack ?? err);
  process.exit(1);
});
