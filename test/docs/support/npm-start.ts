// `npm start`'s command (package.json: node --import tsx scripts/start-mock.ts) as a child process on free ports,
// serving a built docs site: the browser tests open the site where a reader of the README opens it.
import { spawn } from "node:child_process";
import path from "node:path";
import { repoRoot } from "../../support/spec.js";

export interface NpmStart {
  /** The docs' URL from the banner, for example http://127.0.0.1:41234/ */
  docsUrl: string;
  /** SIGTERM, then resolves when the process has exited. */
  stop(): Promise<void>;
}

/** Starts `npm start -- --port 0 --no-build --quiet --docs-dir <siteDir>`; resolves once its banner names the docs. */
export function startNpmStart(siteDir: string): Promise<NpmStart> {
  const script = path.join(repoRoot, "scripts", "start-mock.ts");
  const args = ["--import", "tsx", script, "--port", "0", "--no-build", "--quiet", "--docs-dir", siteDir];
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  let output = "";
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const docsUrl = /Docs at (http:\/\/\S+)/.exec(output)?.[1];
      if (docsUrl && output.includes("Ctrl-C")) resolve({ docsUrl, stop });
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    exited.then(() => reject(new Error(`npm start exited before serving the docs:\n${output}`)));
  });
}
