// Installs this package the way users do, from its `npm pack` tarball, into a
// Pulumi program directory. The program's node_modules then holds the provider
// under a real node_modules path, so the closure serializer captures it by
// reference, as it does for users.

import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { packNodeSdk } from "../generate/sdks";
import { isRunning } from "./process-tree";

export const repoRoot = resolve(__dirname, "..", "..");
const workRoot = join(repoRoot, ".work");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/**
 * The test run this process belongs to: the pid of mocha's main process, which the global setup
 * sets before the parallel workers start; a process outside a mocha run (a bench, a script) is a
 * run of its own.
 */
export const testRunVariable = "PULUMI_CRM_TEST_RUN";

function testRunDir(): string {
  return join(workRoot, "runs", (process.env[testRunVariable] ??= String(process.pid)));
}

/**
 * Set by `npm test` (scripts/test.ts), which runs the type-check beside the suite: the file the
 * type-check writes its exit code to when it ends. Its tsc -b builds dist/, which a pack must not
 * build at the same time.
 */
export const typecheckStatusVariable = "PULUMI_CRM_TYPECHECK_STATUS";

/**
 * Packs the package once per test run, when a test first needs it (the prepack script builds
 * it, or finds it built by the type-check): a run of unit tests only never packs. Parallel
 * workers share the one tarball.
 */
export function packedTarball(): string {
  return onceThisRun("pack", (destination) => {
    const typecheckStatus = process.env[typecheckStatusVariable];
    while (typecheckStatus && !existsSync(typecheckStatus)) pause(200);
    const output = execFileSync(npm, ["pack", "--json", "--pack-destination", destination], {
      cwd: repoRoot,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [{ filename }] = JSON.parse(output.slice(output.indexOf("["))) as Array<{ filename: string }>;
    return join(destination, filename);
  });
}

export interface InstallOptions {
  /**
   * "every run" (the default): ts-node type-checks the program each time it runs, as for users.
   * "once": it is type-checked here, as `tsc --noEmit` would, against the packed package's types,
   * and its runs only transpile it (`noCheck` in its tsconfig.json, which the Pulumi SDK reads as
   * the CLI's PULUMI_NODEJS_TRANSPILE_ONLY): some 3 to 4 s of CPU less per run, for tests that run
   * a program many times and are not about its type-checking.
   */
  typeCheck?: "every run" | "once";
  /**
   * The program's @pulumi/pulumi, where it is not the repository's own (the newest): the lowest
   * version package.json's peer range accepts, say, to test the range at its other end.
   */
  sdkVersion?: string;
  /**
   * Packages whose generated Node.js SDK the program uses (`@pulumi-crm/crm` for "crm"), packed
   * from sdk/nodejs/<package> once per test run.
   */
  generatedSdks?: string[];
}

/** The npm name of the generated Node.js SDK of package `name` (sdk/nodejs/<name>/package.json's). */
const nodeSdkName = (name: string) => (JSON.parse(readFileSync(join(repoRoot, "sdk", "nodejs", name, "package.json"), "utf8")) as { name: string }).name;

/** The generated Node.js SDK of package `name`, packed once per test run (scripts/generate/sdks.ts packNodeSdk). */
function packedNodeSdk(name: string): string {
  return onceThisRun(`node-sdk-${name}`, (dir) => packNodeSdk(name, dir));
}

/**
 * A copy of an example program under .work/programs/<name>, with the packed
 * package and the repository's own @pulumi/pulumi version installed.
 */
export function installExample(example: string, name: string = example, options: InstallOptions = {}): string {
  return installProgram(join(repoRoot, "examples", example), name, options);
}

/**
 * A copy of the program in `source` (a folder with Pulumi.yaml), with the packed package, the
 * repository's versions of the Pulumi SDK and TypeScript tools, and any other dependency the
 * program's own package.json names.
 */
export function installProgram(source: string, name: string, options: InstallOptions = {}): string {
  const dir = join(workRoot, "programs", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(source)) {
    if (entry !== "node_modules" && entry !== "package.json") cpSync(join(source, entry), join(dir, entry), { recursive: true });
  }
  const dependencies = {
    ...programDependencies(source),
    ...(options.sdkVersion ? { "@pulumi/pulumi": options.sdkVersion } : {}),
    ...Object.fromEntries((options.generatedSdks ?? []).map((name) => [nodeSdkName(name), `file:${packedNodeSdk(name)}`])),
  };
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `${name}-program`, private: true, dependencies }, null, 2));
  symlinkSync(installedDependencies(dependencies), join(dir, "node_modules"), "dir");
  if (!existsSync(join(dir, "node_modules", "pulumi-crm", "dist", "provider", "index.js"))) {
    throw new Error(`the packed pulumi-crm did not install into ${dir}`);
  }
  if (options.typeCheck === "once") typeCheckOnce(dir);
  return dir;
}

/**
 * Type-checks the program in `dir` as `tsc --noEmit -p tsconfig.json` does, with the program's own
 * TypeScript, then marks it to be run without type-checking. It runs in this process so that the
 * declaration files the programs share (Node's, the Pulumi SDK's, the package's) are parsed and
 * bound once per process rather than once per program: the compiler reuses a parsed file across
 * programs, as its language service does.
 */
function typeCheckOnce(dir: string): void {
  const ts = require(join(dir, "node_modules", "typescript")) as typeof import("typescript");
  const tsconfig = join(dir, "tsconfig.json");
  const problems: import("typescript").Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => problems.push(d) });
  if (parsed) {
    problems.push(...parsed.errors);
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host: sharingCompilerHost(ts, parsed.options) });
    problems.push(...ts.getPreEmitDiagnostics(program));
  }
  if (problems.length > 0) {
    const formatHost = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => dir, getNewLine: () => "\n" };
    throw new Error(`the program in ${dir} does not type-check:\n${ts.formatDiagnostics(problems, formatHost)}`);
  }
  const config = JSON.parse(readFileSync(tsconfig, "utf8")) as { compilerOptions?: Record<string, unknown> };
  writeFileSync(tsconfig, JSON.stringify({ ...config, compilerOptions: { ...config.compilerOptions, noCheck: true } }, null, 2));
}

/** Parsed files under node_modules, by TypeScript instance, then by name and parse options. */
const sharedSourceFiles = new WeakMap<object, Map<string, import("typescript").SourceFile | undefined>>();

/** A compiler host that parses a file under node_modules once for every program of this process. */
function sharingCompilerHost(ts: typeof import("typescript"), options: import("typescript").CompilerOptions): import("typescript").CompilerHost {
  const host = ts.createCompilerHost(options);
  const parse = host.getSourceFile.bind(host);
  if (!sharedSourceFiles.has(ts)) sharedSourceFiles.set(ts, new Map());
  const parsed = sharedSourceFiles.get(ts)!;
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreateNewSourceFile) => {
    if (shouldCreateNewSourceFile || !fileName.includes("/node_modules/")) return parse(fileName, languageVersion, onError, shouldCreateNewSourceFile);
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    if (!parsed.has(key)) parsed.set(key, parse(fileName, languageVersion, onError));
    return parsed.get(key);
  };
  return host;
}

/**
 * The `pulumi-crm-emulator` command as the package installs it, from the install the programs
 * share: a script to run with node, built JavaScript as users run it, with no TypeScript to load.
 */
export function installedEmulatorBin(): string {
  return installedPackageBin("pulumi-crm-emulator");
}

/** A command of the package (`pulumi-crm`, say) as it installs it, from the install the programs share: a script to run with node. */
export function installedPackageBin(name: string): string {
  const installed = join(installedDependencies(programDependencies()), "pulumi-crm");
  const { bin } = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { bin: Record<string, string> };
  return join(installed, bin[name]);
}

/** A program's dependencies: those of its own package.json in `source`, if any, and ours. */
function programDependencies(source?: string): Record<string, string> {
  const root = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  const manifest = source && join(source, "package.json");
  const own =
    manifest && existsSync(manifest) ? ((JSON.parse(readFileSync(manifest, "utf8")) as { dependencies?: Record<string, string> }).dependencies ?? {}) : {};
  const pinned = (names: string[]) => Object.fromEntries(names.map((n) => [n, root.devDependencies[n] ?? own[n]]));
  return {
    ...own,
    ...pinned(Object.keys(own).filter((n) => n in root.devDependencies)),
    ...pinned(["@pulumi/pulumi", "typescript", "ts-node", "@types/node"]),
    "pulumi-crm": `file:${packedTarball()}`,
  };
}

// Programs with the same dependencies share one node_modules (linked, as pnpm does), installed
// once per test run and shared by its parallel workers: an `npm install` per program was most
// of the suite's time.
function installedDependencies(dependencies: Record<string, string>): string {
  const key = createHash("sha256")
    .update(JSON.stringify(Object.entries(dependencies).sort()))
    .digest("hex")
    .slice(0, 12);
  return onceThisRun(`installs/${key}`, (dir) => {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `installed-${key}`, private: true, dependencies }, null, 2));
    execFileSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
    return join(dir, "node_modules");
  });
}

const made = new Map<string, string>();

/**
 * What `make` makes in `<run>/<name>` (it returns the path to use), made once per test run:
 * the first process to create the folder makes it, the others wait for its outcome. A run's
 * folder goes when a later run finds its process ended.
 */
export function onceThisRun(name: string, make: (dir: string) => string): string {
  const known = made.get(name);
  if (known) return known;
  const dir = join(testRunDir(), name);
  mkdirSync(dirname(dir), { recursive: true });
  removeRunsEnded();
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return remember(name, waitForOutcome(dir, name));
  }
  writeFileSync(`${dir}.pid`, String(process.pid));
  let outcome: Outcome;
  try {
    outcome = { path: make(dir) };
  } catch (error) {
    outcome = { error: `${name} failed in process ${process.pid}: ${(error as Error).message}` };
  }
  // Written whole, then renamed: a waiting process never reads half an outcome.
  writeFileSync(`${dir}.outcome.tmp`, JSON.stringify(outcome));
  renameSync(`${dir}.outcome.tmp`, `${dir}.outcome`);
  return remember(name, outcome);
}

type Outcome = { path: string } | { error: string };

function remember(name: string, outcome: Outcome): string {
  if ("error" in outcome) throw new Error(outcome.error);
  made.set(name, outcome.path);
  return outcome.path;
}

function waitForOutcome(dir: string, name: string): Outcome {
  for (const deadline = Date.now() + 15 * 60_000; Date.now() < deadline; ) {
    if (existsSync(`${dir}.outcome`)) return JSON.parse(readFileSync(`${dir}.outcome`, "utf8")) as Outcome;
    // The maker writes its pid right after taking the folder.
    const maker = existsSync(`${dir}.pid`) ? Number(readFileSync(`${dir}.pid`, "utf8")) : undefined;
    if (maker && !isRunning(maker) && !existsSync(`${dir}.outcome`))
      return { error: `process ${maker}, which was making ${name} for this test run, ended without finishing it` };
    pause(200);
  }
  return { error: `${name} of this test run was not made within 15 minutes` };
}

/** Blocks this process (the callers are synchronous, as a test's `before` is). */
function pause(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}

/** Runs are named by the pid of their main process: those no longer running are of no use. */
function removeRunsEnded(): void {
  const root = join(workRoot, "runs");
  for (const entry of readdirSync(root)) {
    if (!isRunning(Number(entry))) rmSync(join(root, entry), { recursive: true, force: true });
  }
}
