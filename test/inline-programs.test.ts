// Python and Go programs through the Automation API's inline programs on the real CLI (their
// language hosts cannot be had here): the harnesses test/lifecycle/programs/python-inline and
// go-inline, each on its generated SDK (pulumi_crm installed from its wheel; sdk/go/crm), run a
// program without resources through up, a second up, the drift check's preview and destroy.
// Declaring crm resources needs the native plugin `pulumi-resource-crm` (issue 35, point 1),
// which the harnesses take as account names on their command line.

import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { ensureToolchain, offlineCliEnvironment, toolchainPath } from "../scripts/toolchain";
import { repoRoot } from "./support/packed-program";
import { installPythonSdk } from "./support/python-sdk";

const programs = join(repoRoot, "test", "lifecycle", "programs");

interface Harness {
  language: string;
  /** The command line of `<stack> <command> [account name ...]`, and its environment. */
  command: string[];
  env: NodeJS.ProcessEnv;
}

describe("Python and Go inline programs on the generated SDKs, through the Automation API", function () {
  this.timeout(20 * 60_000);
  const work = mkdtempSync(join(tmpdir(), "pulumi-crm-inline-"));
  const harnesses: Harness[] = [];

  before(() => {
    const toolchain = ensureToolchain();
    mkdirSync(join(work, "backend"));
    const env = { ...offlineCliEnvironment(work, toolchainPath(toolchain)), PULUMI_ROOT: dirname(toolchain.cliBin) };
    const { python, site } = installPythonSdk("crm", work);
    harnesses.push({ language: "Python", command: [python, join(programs, "python-inline", "inline.py")], env: { ...env, PYTHONPATH: site } });
    const goProgram = join(work, "go-inline");
    execFileSync("go", ["build", "-o", goProgram, "."], { cwd: join(programs, "go-inline"), env: { ...process.env, CGO_ENABLED: "0", GOFLAGS: "-mod=readonly -buildvcs=false" } });
    harnesses.push({ language: "Go", command: [goProgram], env });
  });

  after(() => rmSync(work, { recursive: true, force: true }));

  for (const language of ["Python", "Go"]) {
    it(`${language}: up, a second up, the drift check's preview and destroy of a program without resources`, async () => {
      const harness = harnesses.find((entry) => entry.language === language)!;
      const stack = `${language.toLowerCase()}-empty`;
      const run = async (command: string) => {
        const [file, ...args] = harness.command;
        const { stdout } = await promisify(execFile)(file, [...args, stack, command], { env: harness.env, encoding: "utf8" });
        return JSON.parse(stdout.trim().split("\n").pop()!);
      };
      assert.deepEqual(await run("up"), { create: 1 });
      assert.deepEqual(await run("up"), { same: 1 });
      assert.deepEqual(await run("drift-check"), { same: 1 });
      assert.deepEqual(await run("destroy"), { delete: 1 });
    });
  }
});
