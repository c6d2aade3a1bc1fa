// Installs this package the way users do, from its `npm pack` tarball, into a
// Pulumi program directory. The program's node_modules then holds the provider
// under a real node_modules path, so the closure serializer captures it by
// reference, as it does for users.

import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const repoRoot = resolve(__dirname, "..", "..");
const workRoot = join(repoRoot, ".work");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

// Set by the suite's global setup, so that parallel test workers install the one tarball it packed.
const packedTarballVariable = "PULUMI_CRM_TEST_TARBALL";

/** Packs the package once per test run (the prepack script builds it). */
export function packedTarball(): string {
  const packed = process.env[packedTarballVariable];
  if (packed) return packed;
  const destination = join(workRoot, "pack");
  rmSync(destination, { recursive: true, force: true });
  mkdirSync(destination, { recursive: true });
  const output = execFileSync(npm, ["pack", "--json", "--pack-destination", destination], { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const [{ filename }] = JSON.parse(output.slice(output.indexOf("["))) as Array<{ filename: string }>;
  return (process.env[packedTarballVariable] = join(destination, filename));
}

/**
 * A copy of an example program under .work/programs/<name>, with the packed
 * package and the repository's own @pulumi/pulumi version installed.
 */
export function installExample(example: string, name: string = example): string {
  return installProgram(join(repoRoot, "examples", example), name);
}

/**
 * A copy of the program in `source` (a folder with Pulumi.yaml), with the packed package, the
 * repository's versions of the Pulumi SDK and TypeScript tools, and any other dependency the
 * program's own package.json names.
 */
export function installProgram(source: string, name: string): string {
  const dir = join(workRoot, "programs", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(source)) {
    if (entry !== "node_modules" && entry !== "package.json") cpSync(join(source, entry), join(dir, entry), { recursive: true });
  }
  const dependencies = programDependencies(source);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `${name}-program`, private: true, dependencies }, null, 2));
  symlinkSync(installedDependencies(dependencies), join(dir, "node_modules"), "dir");
  if (!existsSync(join(dir, "node_modules", "pulumi-crm", "dist", "provider", "index.js"))) {
    throw new Error(`the packed pulumi-crm did not install into ${dir}`);
  }
  return dir;
}

function programDependencies(source: string): Record<string, string> {
  const root = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  const manifest = join(source, "package.json");
  const own = existsSync(manifest) ? ((JSON.parse(readFileSync(manifest, "utf8")) as { dependencies?: Record<string, string> }).dependencies ?? {}) : {};
  const pinned = (names: string[]) => Object.fromEntries(names.map((n) => [n, root.devDependencies[n] ?? own[n]]));
  return {
    ...own,
    ...pinned(Object.keys(own).filter((n) => n in root.devDependencies)),
    ...pinned(["@pulumi/pulumi", "typescript", "ts-node", "@types/node"]),
    "pulumi-crm": `file:${packedTarball()}`,
  };
}

// Programs with the same dependencies share one node_modules (linked, as pnpm does), installed
// once per test process: an `npm install` per program was most of the suite's time. Parallel
// test workers install their own, so that two never write one directory.
const installs = new Map<string, string>();

function installedDependencies(dependencies: Record<string, string>): string {
  const key = createHash("sha256").update(JSON.stringify(Object.entries(dependencies).sort())).digest("hex").slice(0, 12);
  const existing = installs.get(key);
  if (existing) return existing;
  const root = join(workRoot, "installs");
  removeInstallsOfEndedProcesses(root);
  const dir = join(root, `${key}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `installed-${key}`, private: true, dependencies }, null, 2));
  execFileSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  const modules = join(dir, "node_modules");
  installs.set(key, modules);
  return modules;
}

/** Installs are named `<key>-<pid>`: those of test processes no longer running are of no use. */
function removeInstallsOfEndedProcesses(root: string): void {
  for (const entry of existsSync(root) ? readdirSync(root) : []) {
    const pid = Number(entry.slice(entry.lastIndexOf("-") + 1));
    if (!isRunning(pid)) rmSync(join(root, entry), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
