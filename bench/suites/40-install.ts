// What installing the package costs a consumer, by what it installs next to it: the packed tarball into a
// fresh project (npm install, offline-preferring, scripts off), packages and disk size, for each way the
// mock's engine could reach the consumer. The baseline is the package alone (types, client, contract).
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../../scripts/lib/paths.js";

const run = promisify(execFile);

export const title = "Install size: the package alone, and with what the mock and the MSW handlers need";

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await sizeOf(child);
    else if (entry.isFile()) total += (await stat(child)).size;
  }
  return total;
}

const VARIANTS: Array<{ name: string; extra: string[] }> = [
  { name: "the package alone (client, types, contract validator)", extra: [] },
  {
    name: "+ @stoplight/prism-http (the chosen optional peer: ./mock and `api-contract mock`)",
    extra: ["@stoplight/prism-http@5.12.0"],
  },
  {
    name: "+ @stoplight/prism-cli (what a dependency on Prism's CLI would add)",
    extra: ["@stoplight/prism-cli@5.14.2"],
  },
  { name: "+ msw and openapi-msw (optional peers: ./msw)", extra: ["msw@2.12.9", "openapi-msw@2.0.0"] },
];

export default async function installSize(): Promise<string> {
  const work = await mkdtemp(path.join(tmpdir(), "bench-install-"));
  try {
    await run("npm", ["run", "-s", "build:dist"], { cwd: ROOT, maxBuffer: 32 * 2 ** 20 });
    const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], {
      cwd: ROOT,
      maxBuffer: 32 * 2 ** 20,
    });
    const tarball = path.join(work, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
    const rows: string[] = [];
    let baseline: { packages: number; bytes: number } | undefined;
    for (const [index, variant] of VARIANTS.entries()) {
      const project = path.join(work, `project-${index}`);
      await mkdir(project);
      await writeFile(
        path.join(project, "package.json"),
        JSON.stringify({ name: "consumer", version: "0.0.0", private: true }),
      );
      const started = performance.now();
      await run(
        "npm",
        ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball, ...variant.extra],
        {
          cwd: project,
          maxBuffer: 32 * 2 ** 20,
        },
      );
      const seconds = (performance.now() - started) / 1000;
      const { stdout: listed } = await run("npm", ["ls", "--all", "--parseable"], {
        cwd: project,
        maxBuffer: 32 * 2 ** 20,
      }).catch((e: { stdout: string }) => e);
      const packages = listed.trim().split("\n").length - 1;
      const bytes = await sizeOf(path.join(project, "node_modules"));
      baseline ??= { packages, bytes };
      rows.push(
        `| ${variant.name} | ${packages} | ${(bytes / 2 ** 20).toFixed(1)} MiB | ` +
          `${(bytes / baseline.bytes).toFixed(1)}× | ${seconds.toFixed(1)} s |`,
      );
    }
    return [
      "A fresh project installs the packed tarball (and the packages named), `npm install --prefer-offline " +
        "--ignore-scripts`, from the local npm cache.",
      "",
      "| what is installed | packages | node_modules | vs the package alone | install time |",
      "|---|---:|---:|---:|---:|",
      ...rows,
      "",
    ].join("\n");
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
