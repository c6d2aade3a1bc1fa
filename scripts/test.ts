// `npm test`: the whole suite, as CI runs it. First the formatter, the linter and the unused-export check
// (`npm run lint`: Biome, then knip), whose findings fail the suite but stop nothing; then the real pulumi
// CLI and the Node.js programs run on are found or made (scripts/toolchain.ts: a cold build takes minutes, and says so); then the fast tier
// runs beside the type-check (each holds one of a machine's two cores), then the program tier.
// `npm run test:fast` and `npm run test:programs` run one tier alone (no type-check).
//
// Arguments after `--` go to mocha: `npm test -- --grep drift`.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { typecheckStatusVariable } from "./harness/packed-program";
import { ensureToolchain } from "./toolchain";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
type Tier = "fast" | "programs";

/** The command's exit code and, when `quiet`, what it printed (shown only if it failed). */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, quiet: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ["ignore", quiet ? "pipe" : "inherit", quiet ? "pipe" : "inherit"] });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ code: 1, output: `${command}: ${error.message}` }));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

async function tier(name: Tier, mochaArgs: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = Date.now();
  const { code } = await run(process.execPath, [require.resolve("mocha/bin/mocha.js"), ...mochaArgs], { ...env, PULUMI_CRM_TIER: name }, false);
  console.log(`\n${name} tier: ${((Date.now() - started) / 1000).toFixed(1)} s, exit code ${code}\n`);
  return code;
}

async function main(): Promise<number> {
  const [first, ...rest] = process.argv.slice(2);
  const alone = first === "fast" || first === "programs" ? (first as Tier) : undefined;
  const mochaArgs = alone ? rest : process.argv.slice(2);
  if (alone === "fast") return tier("fast", mochaArgs, process.env);
  const lint = await run(npm, ["run", "--silent", "lint"], process.env, true);
  console.log(lint.code === 0 ? "npm run lint: no findings" : `npm run lint found what to fix (exit code ${lint.code}):\n${lint.output}`);
  const toolchain = ensureToolchain();
  console.log(`pulumi CLI ${toolchain.cliVersion} (${toolchain.cliBin}), Node.js for programs: ${toolchain.nodeBin}`);
  if (alone === "programs") return tier("programs", mochaArgs, process.env);

  const statusDir = mkdtempSync(join(tmpdir(), "pulumi-crm-typecheck-"));
  const statusFile = join(statusDir, "exit-code");
  const env = { ...process.env, [typecheckStatusVariable]: statusFile };
  try {
    const typecheck = run(npm, ["run", "--silent", "typecheck"], env, true).then((result) => {
      writeFileSync(statusFile, String(result.code));
      return result;
    });
    const fast = await tier("fast", mochaArgs, env);
    // The program tier's first pack waits for the type-check, whose tsc -b builds dist/.
    const programs = await tier("programs", mochaArgs, env);
    const typechecked = await typecheck;
    if (typechecked.code !== 0) process.stderr.write(`\nnpm run typecheck failed (exit code ${typechecked.code}):\n${typechecked.output}\n`);
    return [lint.code, typechecked.code, fast, programs].find((code) => code !== 0) ?? 0;
  } finally {
    rmSync(statusDir, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code));
