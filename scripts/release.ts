// `npm run release`: everything a release publishes, written into one folder with its SHA-256
// checksums, as the release workflow (.github/workflows/release.yml) uploads and publishes it:
//
// - the plugins' archives, `pulumi-resource-<crm|chat>-v<version>-<os>-<arch>.tar.gz`, named as
//   the CLI asks for them at the schemas' pluginDownloadURL (scripts/plugin-sea.ts: a single
//   executable where one can be made, else the bundle and a launcher needing Node.js);
// - the npm packages: pulumi-crm (`npm pack`) and the generated Node.js SDKs (@pulumi-crm/crm, /chat);
// - the Python SDKs' wheel and sdist (pulumi_crm, pulumi_crm_chat), built with no deprecation warning;
// - the Go SDK module (sdk/, module github.com/pulumi-crm/pulumi-crm/sdk) laid out as a Go module
//   proxy serves its version tag, sdk/v<version>: go/<module>/@v/v<version>.{info,mod,zip};
// - `pulumi-crm_<version>_checksums.txt` (`sha256sum -c` reads it).
//
//   npm run release [-- --out <folder>] [--targets linux-amd64,windows-amd64,...] [--npm-package <pulumi-crm tgz>]
//
// First the schemas are held to the last release's (scripts/schema-compat.ts): a breaking change
// stops the release. Default folder dist/release, replaced whole; default targets all of them.
// scripts/publish.ts publishes the folder (`--dry-run`: every step, nothing sent).

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { PackageName } from "../provider/plugin/server";
import { bundlePlugin, pluginPackages } from "./plugin-bundle";
import { releaseTargets, targetName, writePluginArchive } from "./plugin-sea";
import { checkSchemas } from "./schema-compat";
import { packNodeSdk, sdkPackages } from "./generate/sdks";
import { ensurePythonVenv } from "./toolchain";

const repoRoot = join(__dirname, "..");
export const releaseVersion = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

/** The Go SDKs' module, as sdk/go.mod names it. */
export const goModule = /^module (\S+)/m.exec(readFileSync(join(repoRoot, "sdk", "go.mod"), "utf8"))![1];

/** The Go module's version tag: the module is in the repository's sdk/ folder. */
export const goTag = `sdk/v${releaseVersion}`;

export const checksumsFile = `pulumi-crm_${releaseVersion}_checksums.txt`;

/** Every file under `dir`, by its path from `dir` ('/'-separated), sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => statSync(join(dir, name)).isFile())
    .map((name) => name.split("\\").join("/"))
    .sort();
}

/**
 * Each Python SDK's wheel and sdist, built by setuptools as `python -m build` has it build them,
 * each from a fresh copy (what one build leaves beside pyproject.toml, the other would take for
 * a package); a deprecation warning is an error.
 */
function writePythonDistributions(out: string, work: string): void {
  const python = ensurePythonVenv();
  const build = (kind: "sdist" | "wheel") =>
    [
      "import sys, warnings",
      "from setuptools.warnings import SetuptoolsDeprecationWarning",
      "warnings.simplefilter('error', DeprecationWarning)",
      "warnings.simplefilter('error', SetuptoolsDeprecationWarning)",
      "from setuptools import build_meta",
      `build_meta.build_${kind}(sys.argv[1])`,
    ].join("\n");
  for (const name of sdkPackages()) {
    for (const kind of ["sdist", "wheel"] as const) {
      const source = join(work, "python", `${name}-${kind}`);
      cpSync(join(repoRoot, "sdk", "python", name), source, { recursive: true });
      execFileSync(python, ["-c", build(kind), out], { cwd: source, stdio: "pipe" });
    }
  }
}

/** The Go module at its version tag as a module proxy serves it (GOPROXY=file://<out>/go reads it). */
function writeGoModule(out: string): void {
  const version = `v${releaseVersion}`;
  const folder = join(out, "go", ...goModule.split("/"), "@v");
  mkdirSync(folder, { recursive: true });
  const sdk = join(repoRoot, "sdk");
  const time = execFileSync("git", ["log", "-1", "--format=%cI"], { cwd: repoRoot, encoding: "utf8" }).trim() || new Date().toISOString();
  writeFileSync(join(folder, "list"), `${version}\n`);
  writeFileSync(join(folder, `${version}.info`), JSON.stringify({ Version: version, Time: new Date(time).toISOString() }));
  copyFileSync(join(sdk, "go.mod"), join(folder, `${version}.mod`));
  // A module zip holds the module's tree under `<module>@<version>/` (what a proxy makes of the tag).
  const zip = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n  for f in sys.argv[4:]: z.write(f'{sys.argv[2]}/{f}', f'{sys.argv[3]}/{f}')";
  execFileSync("python3", ["-c", zip, join(folder, `${version}.zip`), sdk, `${goModule}@${version}`, ...filesUnder(sdk)]);
}

export interface ReleaseOptions {
  out?: string;
  /** The archives' platforms (`linux-amd64`, ...); all of releaseTargets unless given. */
  targets?: string[];
  /** pulumi-crm's tarball, packed already (a test run packs it once); `npm pack` unless given. */
  npmPackage?: string;
}

/** Writes the release into `out`; returns the files written, by path from `out`. */
export async function writeRelease(options: ReleaseOptions = {}): Promise<string[]> {
  const out = resolve(options.out ?? join(repoRoot, "dist", "release"));
  const targets = options.targets ? options.targets.map((name) => releaseTargets.find((target) => targetName(target) === name) ?? unknownTarget(name)) : releaseTargets;
  for (const [name, breaks] of checkSchemas()) {
    if (breaks.length > 0) throw new Error(`schema/${name}.json breaks users of the last release (scripts/schema-compat.ts):\n${breaks.map((line) => `  - ${line}`).join("\n")}`);
  }
  rmSync(out, { recursive: true, force: true });
  const work = join(out, ".work");
  mkdirSync(work, { recursive: true });
  for (const pkg of pluginPackages as PackageName[]) {
    const bundle = join(work, `pulumi-resource-${pkg}.js`);
    await bundlePlugin(pkg, bundle);
    for (const target of targets) writePluginArchive(pkg, releaseVersion, bundle, target, out, join(work, "archives"));
  }
  if (options.npmPackage) copyFileSync(options.npmPackage, join(out, basename(options.npmPackage)));
  else execFileSync("npm", ["pack", "--pack-destination", out], { cwd: repoRoot, stdio: ["ignore", "ignore", "inherit"] });
  for (const name of sdkPackages()) {
    const tarball = packNodeSdk(name, join(work, "nodejs", name));
    copyFileSync(tarball, join(out, basename(tarball)));
  }
  writePythonDistributions(out, work);
  writeGoModule(out);
  rmSync(work, { recursive: true, force: true });
  const files = filesUnder(out);
  const sums = files.map((file) => `${createHash("sha256").update(readFileSync(join(out, file))).digest("hex")}  ${file}\n`);
  writeFileSync(join(out, checksumsFile), sums.join(""));
  return [...files, checksumsFile];
}

function unknownTarget(name: string): never {
  throw new Error(`unknown target ${name}: one of ${releaseTargets.map(targetName).join(", ")}`);
}

if (require.main === module) {
  const { values } = parseArgs({ options: { out: { type: "string" }, targets: { type: "string" }, "npm-package": { type: "string" } } });
  const started = Date.now();
  writeRelease({ out: values.out, targets: values.targets?.split(","), npmPackage: values["npm-package"] }).then(
    (files) => {
      const out = resolve(values.out ?? join(repoRoot, "dist", "release"));
      for (const file of files) console.log(`${file.padEnd(64)} ${(statSync(join(out, file)).size / 1024 / 1024).toFixed(1).padStart(7)} MiB`);
      console.log(`release ${releaseVersion} in ${relative(process.cwd(), out) || "."} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
