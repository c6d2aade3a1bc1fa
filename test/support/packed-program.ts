// Installs this package the way users do, from its `npm pack` tarball, into a
// fresh Pulumi program directory. The program's node_modules then holds the
// provider under a real node_modules path, so the closure serializer captures it
// by reference, as it does for users.

import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const repoRoot = resolve(__dirname, "..", "..");
const workRoot = join(repoRoot, ".work");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let tarball: string | undefined;

/** Packs the package once per test run (the prepack script builds it). */
export function packedTarball(): string {
  if (tarball) return tarball;
  const destination = join(workRoot, "pack");
  rmSync(destination, { recursive: true, force: true });
  mkdirSync(destination, { recursive: true });
  const output = execFileSync(npm, ["pack", "--json", "--pack-destination", destination], { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const [{ filename }] = JSON.parse(output.slice(output.indexOf("["))) as Array<{ filename: string }>;
  tarball = join(destination, filename);
  return tarball;
}

/**
 * A copy of an example program under .work/programs/<name>, with the packed
 * package and the repository's own @pulumi/pulumi version installed.
 */
export function installExample(example: string, name: string = example): string {
  return installProgram(join(repoRoot, "examples", example), name);
}

/**
 * A copy of the program in `source` (a folder with Pulumi.yaml), installed as installExample does,
 * with the other dependencies of the program's own package.json (such as @pulumi/random).
 */
export function installProgram(source: string, name: string): string {
  const dir = join(workRoot, "programs", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(source)) {
    if (entry !== "node_modules" && entry !== "package.json") cpSync(join(source, entry), join(dir, entry), { recursive: true });
  }
  const rootPackage = require(join(repoRoot, "package.json")) as { devDependencies: Record<string, string> };
  const ownPackage = join(source, "package.json");
  const ownDependencies = existsSync(ownPackage) ? (JSON.parse(readFileSync(ownPackage, "utf8")) as { dependencies?: Record<string, string> }).dependencies : {};
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify(
      {
        name: `${name}-program`,
        private: true,
        dependencies: {
          ...ownDependencies,
          "pulumi-crm": `file:${packedTarball()}`,
          "@pulumi/pulumi": rootPackage.devDependencies["@pulumi/pulumi"],
          typescript: rootPackage.devDependencies.typescript,
          "ts-node": rootPackage.devDependencies["ts-node"],
          "@types/node": rootPackage.devDependencies["@types/node"],
        },
      },
      null,
      2,
    ),
  );
  execFileSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  if (!existsSync(join(dir, "node_modules", "pulumi-crm", "dist", "provider", "index.js"))) {
    throw new Error(`the packed pulumi-crm did not install into ${dir}`);
  }
  return dir;
}
