// Runs a Node CLI from node_modules without npx, failing with its output on a non-zero exit.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/** Absolute path of a package's bin script (package name, bin name). */
export function binPath(pkg, bin) {
  const pkgJsonPath = require.resolve(`${pkg}/package.json`);
  const { bin: bins } = require(pkgJsonPath);
  const rel = typeof bins === "string" ? bins : bins[bin ?? Object.keys(bins)[0]];
  return path.join(path.dirname(pkgJsonPath), rel);
}

export function runNode(script, args, { cwd, env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve({ stdout: out, stderr: err });
      else reject(new Error(`${path.basename(script)} ${args.join(" ")} exited with ${code}\n${out}\n${err}`));
    });
  });
}
