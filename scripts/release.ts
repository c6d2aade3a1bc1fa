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
// - `pulumi-crm_<version>_checksums.txt`: the SHA-256 of each asset of the GitHub release (every
//   file at the folder's root; `sha256sum -c` in a folder of the downloaded assets reads it).
//
// The same commit gives the same bytes (test/package/release.test.ts makes it twice): every entry of every
// archive dated the commit's time (or SOURCE_DATE_EPOCH), in name order, with no owner; gzip
// with no name or time; V8's code cache made with a fixed seed (scripts/plugin-sea.ts).
//
//   npm run release [-- --out <folder>] [--targets linux-amd64,windows-amd64,...] [--npm-package <pulumi-crm tgz>]
//                   [--archives-only] [--archives-from <folder>]
//
// The release workflow makes the darwin archives on macOS runners (`--archives-only --targets
// darwin-arm64`), and the release on Linux with them (`--targets linux-amd64,linux-arm64,windows-amd64
// --archives-from <their folder>`).
//
// First the schemas are held to the last release's (scripts/schema-compat.ts): a breaking change
// stops the release. Default folder dist/release, replaced whole; default targets all of them.
// scripts/publish.ts publishes the folder (`--dry-run`: every step, nothing sent).

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { PackageName } from "../provider/plugin/server";
import { bundlePlugin, pluginPackages } from "./plugin-bundle";
import { releaseTargets, targetName, writePluginArchive } from "./plugin-sea";
import { releaseEpoch } from "./reproducible-archive";
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

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/**
 * What the GitHub release carries beside the checksums file, and so what that file lists: every
 * file at the release folder's root (the plugin archives, the npm packages, the Python
 * distributions), sorted. The Go module under go/ is published as a tag instead, and `go` checks
 * it by its own sums (go.sum).
 */
export function releaseAssets(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== checksumsFile)
    .map((entry) => entry.name)
    .sort();
}

/** Every file under `dir`, by its path from `dir` ('/'-separated), sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => statSync(join(dir, name)).isFile())
    .map((name) => name.split("\\").join("/"))
    .sort();
}

/**
 * Each Python SDK's wheel and sdist, built by setuptools as `python -m build` has it build them,
 * each from a fresh copy (what one build leaves beside pyproject.toml, the other would take for
 * a package); a deprecation warning is an error. The wheel's entries are dated SOURCE_DATE_EPOCH
 * (setuptools reads it); the sdist, which setuptools dates by its files and the clock, is written
 * again as writeReproducibleTarGz writes an archive: sorted, one date, no owner, gzip with no time.
 */
function writePythonDistributions(out: string, work: string, epoch: number): void {
  const python = ensurePythonVenv();
  const build = (kind: "sdist" | "wheel") =>
    [
      "import gzip, io, os, sys, tarfile, warnings",
      "from setuptools.warnings import SetuptoolsDeprecationWarning",
      "warnings.simplefilter('error', DeprecationWarning)",
      "warnings.simplefilter('error', SetuptoolsDeprecationWarning)",
      "from setuptools import build_meta",
      // build_meta changes sys.argv.
      "out = sys.argv[1]",
      `name = build_meta.build_${kind}(out)`,
      ...(kind === "wheel"
        ? []
        : [
            "path, epoch = os.path.join(out, name), int(os.environ['SOURCE_DATE_EPOCH'])",
            "with tarfile.open(path) as source:",
            "  entries = [(m, source.extractfile(m).read() if m.isfile() else None) for m in sorted(source.getmembers(), key=lambda m: m.name)]",
            "tar = io.BytesIO()",
            "with tarfile.open(fileobj=tar, mode='w', format=tarfile.PAX_FORMAT) as target:",
            "  for m, data in entries:",
            "    m.mtime, m.uid, m.gid, m.uname, m.gname, m.pax_headers = epoch, 0, 0, '', '', {}",
            "    m.mode = 0o755 if m.isdir() or m.mode & 0o111 else 0o644",
            "    target.addfile(m, io.BytesIO(data) if data is not None else None)",
            "with open(path, 'wb') as file, gzip.GzipFile(filename='', mode='wb', fileobj=file, mtime=0) as packed:",
            "  packed.write(tar.getvalue())",
          ]),
    ].join("\n");
  for (const name of sdkPackages()) {
    for (const kind of ["sdist", "wheel"] as const) {
      const source = join(work, "python", `${name}-${kind}`);
      cpSync(join(repoRoot, "sdk", "python", name), source, { recursive: true });
      execFileSync(python, ["-c", build(kind), out], { cwd: source, stdio: "pipe", env: { ...process.env, SOURCE_DATE_EPOCH: String(epoch) } });
    }
  }
}

/**
 * The Go module at its version tag as a module proxy serves it (GOPROXY=file://<out>/go reads
 * it), dated `epoch`: the .info's time and every entry of the zip.
 */
function writeGoModule(out: string, epoch: number): void {
  const version = `v${releaseVersion}`;
  const folder = join(out, "go", ...goModule.split("/"), "@v");
  mkdirSync(folder, { recursive: true });
  const sdk = join(repoRoot, "sdk");
  writeFileSync(join(folder, "list"), `${version}\n`);
  writeFileSync(join(folder, `${version}.info`), JSON.stringify({ Version: version, Time: new Date(epoch * 1000).toISOString() }));
  copyFileSync(join(sdk, "go.mod"), join(folder, `${version}.mod`));
  // A module zip holds the module's tree under `<module>@<version>/` (what a proxy makes of the tag).
  const zip = [
    "import sys, time, zipfile",
    "archive, sdk, prefix, epoch, files = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]",
    "with zipfile.ZipFile(archive, 'w', zipfile.ZIP_DEFLATED) as z:",
    "  for f in files:",
    "    entry = zipfile.ZipInfo(f'{prefix}/{f}', time.gmtime(epoch)[:6])",
    "    entry.compress_type, entry.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16",
    "    z.writestr(entry, open(f'{sdk}/{f}', 'rb').read())",
  ].join("\n");
  execFileSync("python3", ["-c", zip, join(folder, `${version}.zip`), sdk, `${goModule}@${version}`, String(epoch), ...filesUnder(sdk)]);
}

export interface ReleaseOptions {
  out?: string;
  /** The archives' platforms (`linux-amd64`, ...); all of releaseTargets unless given. */
  targets?: string[];
  /** pulumi-crm's tarball, packed already (a test run packs it once); `npm pack` unless given. */
  npmPackage?: string;
  /** The plugin archives of `targets` alone: what a runner of one platform makes (the workflow's darwin jobs). */
  archivesOnly?: boolean;
  /** A folder of archives made on other runners, taken as they are beside those of `targets`. */
  archivesFrom?: string;
}

/** Writes the release into `out`; returns the files written, by path from `out`. */
export async function writeRelease(options: ReleaseOptions = {}): Promise<string[]> {
  const out = resolve(options.out ?? join(repoRoot, "dist", "release"));
  const targets = options.targets
    ? options.targets.map((name) => releaseTargets.find((target) => targetName(target) === name) ?? unknownTarget(name))
    : releaseTargets;
  for (const [name, breaks] of checkSchemas()) {
    if (breaks.length > 0)
      throw new Error(`schema/${name}.json breaks users of the last release (scripts/schema-compat.ts):\n${breaks.map((line) => `  - ${line}`).join("\n")}`);
  }
  rmSync(out, { recursive: true, force: true });
  const epoch = releaseEpoch(repoRoot);
  const work = join(out, ".work");
  mkdirSync(work, { recursive: true });
  for (const pkg of pluginPackages as PackageName[]) {
    const bundle = join(work, `pulumi-resource-${pkg}.js`);
    await bundlePlugin(pkg, bundle);
    for (const target of targets) writePluginArchive(pkg, releaseVersion, bundle, target, out, join(work, "archives"), epoch);
  }
  for (const archive of options.archivesFrom ? readdirSync(options.archivesFrom).filter((file) => /^pulumi-resource-.*\.tar\.gz$/.test(file)) : []) {
    if (existsSync(join(out, archive))) throw new Error(`${archive} is both made here and in ${options.archivesFrom}: leave its target out of --targets`);
    copyFileSync(join(options.archivesFrom!, archive), join(out, archive));
  }
  if (options.archivesOnly) {
    rmSync(work, { recursive: true, force: true });
    return filesUnder(out);
  }
  if (options.npmPackage) copyFileSync(options.npmPackage, join(out, basename(options.npmPackage)));
  else execFileSync("npm", ["pack", "--pack-destination", out], { cwd: repoRoot, stdio: ["ignore", "ignore", "inherit"] });
  for (const name of sdkPackages()) {
    const tarball = packNodeSdk(name, join(work, "nodejs", name));
    copyFileSync(tarball, join(out, basename(tarball)));
  }
  writePythonDistributions(out, work, epoch);
  writeGoModule(out, epoch);
  rmSync(work, { recursive: true, force: true });
  writeFileSync(
    join(out, checksumsFile),
    releaseAssets(out)
      .map((file) => `${sha256(join(out, file))}  ${file}\n`)
      .join(""),
  );
  return filesUnder(out);
}

function unknownTarget(name: string): never {
  throw new Error(`unknown target ${name}: one of ${releaseTargets.map(targetName).join(", ")}`);
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      targets: { type: "string" },
      "npm-package": { type: "string" },
      "archives-only": { type: "boolean" },
      "archives-from": { type: "string" },
    },
  });
  const started = Date.now();
  const options = {
    targets: values.targets?.split(","),
    npmPackage: values["npm-package"],
    archivesOnly: values["archives-only"],
    archivesFrom: values["archives-from"] && resolve(values["archives-from"]),
  };
  writeRelease({ out: values.out, ...options }).then(
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
