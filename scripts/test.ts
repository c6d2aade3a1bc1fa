// `npm test`: the type-check and the mocha suite side by side, on a machine's two cores. The
// type-check (`npm run typecheck`, tsc -b, one core) builds dist/ on its way, as the package's
// build; the suite's first files (the engine's) need no dist/, and the first test to pack the
// package waits for the type-check to end (see packedTarball). One after the other, the
// type-check held the run's first half-minute with a core idle.
//
// Arguments go to mocha: `npm test -- --grep drift`.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { typecheckStatusVariable } from "../test/support/packed-program";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

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

async function main(): Promise<number> {
  const statusDir = mkdtempSync(join(tmpdir(), "pulumi-crm-typecheck-"));
  const statusFile = join(statusDir, "exit-code");
  const env = { ...process.env, [typecheckStatusVariable]: statusFile };
  try {
    const typecheck = run(npm, ["run", "--silent", "typecheck"], env, true).then((result) => {
      writeFileSync(statusFile, String(result.code));
      return result;
    });
    const mocha = run(process.execPath, [require.resolve("mocha/bin/mocha.js"), ...process.argv.slice(2)], env, false);
    const [typechecked, tested] = await Promise.all([typecheck, mocha]);
    if (typechecked.code !== 0) process.stderr.write(`\nnpm run typecheck failed (exit code ${typechecked.code}):\n${typechecked.output}\n`);
    return typechecked.code !== 0 ? typechecked.code : tested.code;
  } finally {
    rmSync(statusDir, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code));
