// Where a no-op `pulumi up` (preview and update, nothing to do, no request) of N accounts spends
// its time on the real CLI: wall time, and CPU time and peak RSS per process (the CLI, the
// language host, the program runs, the provider hosts). With --profile, one more no-op up with
// profiles: the CLI's own (`--profiling`, read with `go tool pprof`) and Node's `--cpu-prof` for
// the program runs and provider hosts, their functions by self and inclusive time. With
// --javascript, the program is compiled to JavaScript first and runs without ts-node (Pulumi.yaml's
// `typescript: false`), as a user who builds with tsc has it. --node-options sets NODE_OPTIONS for
// the measured no-op ups (the CLI hands its environment to the program and the provider host).
//
//   npx ts-node --transpile-only bench/no-op-up.ts [--accounts 1000,2000] [--parallel N] [--profile] [--javascript] [--node-options=--stack-trace-limit=0]
//
// The sizes are made in turn on one stack, with the emulator's and the provider's rate limits off
// (the creates are not what is measured). Not part of npm test: minutes per size.

import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { requestCount } from "../scripts/harness/emulator";
import { installProgram, repoRoot } from "../scripts/harness/packed-program";
import { CliStack } from "../scripts/harness/pulumi-cli";
import { summarizeCpuProfile } from "./cpu-profile";
import { startEmulatorProcess } from "./emulator-process";
import { byRole, measure, runsOn } from "./processes";

const listed = (entries: Array<[string, number]>) => entries.map(([name, ms]) => `    ${(ms / 1000).toFixed(2).padStart(7)} s  ${name}`).join("\n");

/** One more no-op up with profiles, kept under .work/profiles, and their top entries per process. */
async function profiled(stack: CliStack, flags: string[], size: number, nodeOptions: string): Promise<string> {
  const dir = path.join(repoRoot, ".work", "profiles", `no-op-up-${size}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  // The CLI stops its plugins with SIGINT, which ends Node before --cpu-prof writes: exit instead.
  const onSigint = path.join(dir, "exit-on-sigint.js");
  writeFileSync(onSigint, 'process.once("SIGINT", () => process.exit(130));\n');
  const { result, processes, seconds, load } = await measure(() =>
    stack.run(["up", "--yes", ...flags, "--profiling", path.join(dir, "cli")], {
      env: { NODE_OPTIONS: `${nodeOptions} --require ${onSigint} --cpu-prof --cpu-prof-dir=${dir}` },
    }),
  );
  if (result.exitCode !== 0) throw new Error(`the profiled no-op up exited ${result.exitCode}:\n${result.lines.join("\n")}`);
  const sections = [`profiled no-op up of ${size} accounts: ${seconds.toFixed(1)} s (${load}; profiling slows it); profiles in ${dir}`];
  const roleOf = new Map(processes.map((p) => [p.pid, p.role]));
  for (const file of readdirSync(dir).sort()) {
    if (file.endsWith(".cpu")) {
      const top = execFileSync("go", ["tool", "pprof", "-top", "-nodecount=25", path.join(dir, file)], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      });
      const cumulative = execFileSync("go", ["tool", "pprof", "-top", "-cum", "-nodecount=40", path.join(dir, file)], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      });
      sections.push(`cli (${file}), by self time:\n${top}\nby cumulative time:\n${cumulative}`);
    }
    // CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile
    const pid = Number(/^CPU\.\d+\.\d+\.(\d+)\./.exec(file)?.[1]);
    const role = roleOf.get(pid);
    if (!file.endsWith(".cpuprofile") || (role !== "program" && role !== "provider host")) continue;
    const summary = summarizeCpuProfile(path.join(dir, file));
    sections.push(
      `${role} (pid ${pid}): ${(summary.busyMs / 1000).toFixed(1)} s sampled, idle excluded\n` +
        `  by self time:\n${listed(summary.self)}\n  by package (self time):\n${listed(summary.byPackage)}\n  by inclusive time:\n${listed(summary.inclusive)}`,
    );
  }
  return sections.join("\n\n");
}

/** The program's index.ts as index.js, and its project run without ts-node. */
function compileToJavaScript(program: string): void {
  const ts = require(path.join(program, "node_modules", "typescript")) as typeof import("typescript");
  const source = path.join(program, "index.ts");
  const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
  writeFileSync(path.join(program, "index.js"), ts.transpileModule(readFileSync(source, "utf8"), { compilerOptions }).outputText);
  rmSync(source);
  const project = path.join(program, "Pulumi.yaml");
  writeFileSync(project, readFileSync(project, "utf8").replace(/^(\s+typescript:) true$/m, "$1 false"));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      accounts: { type: "string", default: "1000,2000" },
      parallel: { type: "string" },
      profile: { type: "boolean", default: false },
      javascript: { type: "boolean", default: false },
      "node-options": { type: "string", default: "" },
    },
  });
  const sizes = values.accounts!.split(",").map(Number).filter(Boolean);
  const flags = values.parallel === undefined ? [] : ["--parallel", values.parallel];
  const program = installProgram(
    path.resolve(__dirname, "../test/lifecycle/programs/many-accounts"),
    values.javascript ? "bench-no-op-up-js" : "bench-no-op-up",
  );
  if (values.javascript) compileToJavaScript(program);
  const emulator = await startEmulatorProcess(0);
  const stack = await CliStack.create(program, "bench", {
    config: { "crm:apiUrl": emulator.crmUrl, "crm:requestsPerSecond": "0", count: "0" },
    secrets: { "crm:apiToken": emulator.apiToken },
  });
  try {
    const how = values.javascript
      ? "compiled to JavaScript beforehand, run without ts-node"
      : "TypeScript through ts-node (Pulumi's default; transpile only, its tsconfig says noCheck)";
    // As given, else this process's own, which the CLI would pass on anyway.
    const nodeOptions = values["node-options"] || process.env.NODE_OPTIONS || "";
    console.log(`${runsOn(program)}; the program: ${how}${nodeOptions ? `; NODE_OPTIONS=${nodeOptions} in the no-op ups` : ""}\n`);
    for (const size of sizes) {
      await stack.setConfig({ count: String(size) });
      const made = await measure(() => stack.deploy(...flags));
      console.log(`made ${size} accounts (up --skip-preview, limits off): ${made.seconds.toFixed(1)} s (${made.load})`);
      const before = await requestCount(emulator);
      const { result, processes, seconds, load } = await measure(() => stack.run(["up", "--yes", ...flags], { env: { NODE_OPTIONS: nodeOptions } }));
      const requests = (await requestCount(emulator)) - before;
      if (result.exitCode !== 0 || result.changes)
        throw new Error(`the no-op up of ${size} accounts exited ${result.exitCode} with ${JSON.stringify(result.steps)}:\n${result.lines.join("\n")}`);
      console.log(
        `no-op up of ${size} accounts: ${seconds.toFixed(1)} s (${load}), ${result.steps.same} same, ${requests} requests\n\n${byRole(processes, seconds)}\n`,
      );
      if (values.profile) console.log(`${await profiled(stack, flags, size, nodeOptions)}\n`);
    }
  } finally {
    stack.remove();
    emulator.child.kill("SIGTERM");
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exitCode = 1;
});
