// Makes sure Debian's Chromium is installed for the browser tests (docs page, ./msw worker; part of `npm test`).
// Installs it with apt-get when missing (as root, or through sudo); never downloads a browser itself.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM } from "./lib/chromium.js";
if (existsSync(CHROMIUM)) process.exit(0);

const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasSudo = !asRoot && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
if (!asRoot && !hasSudo) {
  console.error(
    `ensure-chromium: ${CHROMIUM} is missing and this user cannot install it. Run: sudo apt-get install -y chromium`,
  );
  process.exit(1);
}
const prefix = asRoot ? [] : ["sudo", "-n"];
console.log(
  "ensure-chromium: installing Debian's chromium for the browser tests, docs page and ./msw worker (about 40 s)…",
);
for (const args of [
  ["apt-get", "update", "-qq"],
  ["apt-get", "install", "-y", "-qq", "chromium"],
]) {
  const [cmd = "", ...rest] = [...prefix, ...args];
  const result = spawnSync(cmd, rest, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  if (result.status !== 0) {
    console.error(`ensure-chromium: \`${args.join(" ")}\` failed (exit ${result.status})`);
    process.exit(1);
  }
}
if (!existsSync(CHROMIUM)) {
  console.error(`ensure-chromium: chromium installed, but ${CHROMIUM} is still missing`);
  process.exit(1);
}
