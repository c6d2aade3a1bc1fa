// Python and Go programs through the Automation API's inline programs on the real CLI (their
// language hosts cannot be had here), on the native plugin pulumi-resource-crm: the harnesses
// test/lifecycle/programs/python-inline and go-inline, each on its generated SDK (pulumi_crm
// installed from its wheel; sdk/go/crm), declare an account on the emulator and run it through
// up, a no-op up, the drift check (the Automation API's preview of a refresh expecting no
// changes: the CLI's exit 7 on drift, which the harness exits with), up with a refresh, and destroy;
// the Go harness also through an explicit provider (crm.NewProvider) on another account. The SDKs ask for the plugin crm v0.1.0: its tarball is installed into
// the programs' PULUMI_HOME, as `pulumi plugin install resource crm 0.1.0 --file` does.

import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "../../emulator";
import { buildPlugins } from "../../scripts/plugin-bundle";
import { ensureToolchain, offlineCliEnvironment, toolchainPath } from "../../scripts/toolchain";
import { emulatorCallWhenAdmitted, emulatorRead, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { repoRoot } from "../../scripts/harness/packed-program";
import { installPluginTarball } from "../../scripts/harness/plugin-program";
import { CHANGES_NOT_EXPECTED } from "../../scripts/harness/pulumi-cli";
import { installPythonSdk } from "../support/python-sdk";

const programs = join(repoRoot, "test", "lifecycle", "programs");

interface Harness {
  language: string;
  /** The command line of `<stack> <command> [account name ...]`, and its environment. */
  command: string[];
  env: NodeJS.ProcessEnv;
}

describe("Python and Go inline programs on the generated SDKs and the native plugin, through the Automation API", function () {
  this.timeout(20 * 60_000);
  const work = mkdtempSync(join(tmpdir(), "pulumi-crm-inline-"));
  const harnesses: Harness[] = [];
  let emulator: RunningEmulator;
  const accountsNamed = async (name: string) =>
    ((await emulatorRead(emulator, `/accounts?search=${encodeURIComponent(name)}`)).accounts as Array<{ id: string; name: string }>).filter((account) =>
      account.name.startsWith(name),
    );

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    const toolchain = ensureToolchain();
    mkdirSync(join(work, "backend"));
    const stackConfig = { "crm:apiUrl": { value: emulator.crmUrl }, "crm:apiToken": { value: emulator.apiToken, secret: true } };
    const env = { ...offlineCliEnvironment(work, toolchainPath(toolchain)), PULUMI_ROOT: dirname(toolchain.cliBin), STACK_CONFIG: JSON.stringify(stackConfig) };
    const [plugin] = await buildPlugins(join(repoRoot, ".work", "plugins", "inline-programs"));
    installPluginTarball({ env: () => env }, plugin);
    const { python, site } = installPythonSdk("crm", work);
    harnesses.push({ language: "Python", command: [python, join(programs, "python-inline", "inline.py")], env: { ...env, PYTHONPATH: site } });
    const goProgram = join(work, "go-inline");
    execFileSync("go", ["build", "-o", goProgram, "."], {
      cwd: join(programs, "go-inline"),
      env: { ...process.env, CGO_ENABLED: "0", GOFLAGS: "-mod=readonly -buildvcs=false" },
    });
    harnesses.push({ language: "Go", command: [goProgram], env });
  });

  after(async () => {
    await emulator?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("Go, an explicit provider (crm.NewProvider) with an account and a note in its own account: up, a no-op up with no request, the drift check exit 7, destroy", async () => {
    const client = await startEmulator({ port: 0, rateLimit: 5 });
    try {
      const harness = harnesses.find((entry) => entry.language === "Go")!;
      const env = { ...harness.env, EXPLICIT_PROVIDER: JSON.stringify({ apiUrl: client.crmUrl, apiToken: client.apiToken }) };
      const name = "Acme Go Client";
      const run = async (command: string) => {
        const { stdout } = await promisify(execFile)(harness.command[0], ["go-explicit", command, name], { env, encoding: "utf8" });
        return JSON.parse(stdout.trim().split("\n").pop()!);
      };
      const clientAccounts = async () => (await emulatorRead(client, "/accounts")).accounts as Array<{ id: string; name: string }>;
      assert.deepEqual(await run("up"), { create: 4 }); // the stack, the provider, the account, its note
      const [account] = await clientAccounts();
      assert.equal(account?.name, name);
      assert.deepEqual(await accountsNamed(name), [], "the stack's own account got nothing");

      const before = await requestCount(client);
      assert.deepEqual(await run("up"), { same: 4 });
      assert.equal(await requestCount(client), before);

      await emulatorCallWhenAdmitted(client, "PUT", `/api/3/accounts/${account.id}`, { account: { name: `${name} Renamed` } });
      await assert.rejects(run("drift-check"), (error: { code?: number; stderr?: string }) => {
        assert.equal(error.code, CHANGES_NOT_EXPECTED, error.stderr);
        return true;
      });
      assert.deepEqual(await run("destroy"), { delete: 4 });
      assert.deepEqual(await clientAccounts(), []);
    } finally {
      await client.close();
    }
  });

  for (const language of ["Python", "Go"]) {
    it(`${language}: up, a no-op up with no request, the drift check exit 7 on drift, repaired by up with a refresh, destroy`, async () => {
      const harness = harnesses.find((entry) => entry.language === language)!;
      const name = `Acme ${language}`;
      const run = async (command: string) => {
        const [file, ...args] = harness.command;
        const { stdout } = await promisify(execFile)(file, [...args, language.toLowerCase(), command, name], { env: harness.env, encoding: "utf8" });
        return JSON.parse(stdout.trim().split("\n").pop()!);
      };
      assert.deepEqual(await run("up"), { create: 2 }); // the stack and the account
      const [account] = await accountsNamed(name);
      assert.equal(account?.name, name);

      const before = await requestCount(emulator);
      assert.deepEqual(await run("up"), { same: 2 });
      assert.equal(await requestCount(emulator), before);

      assert.deepEqual(await run("drift-check"), { same: 2 });
      await emulatorCallWhenAdmitted(emulator, "PUT", `/api/3/accounts/${account.id}`, { account: { name: `${name} Renamed` } });
      await assert.rejects(run("drift-check"), (error: { code?: number; stderr?: string }) => {
        assert.equal(error.code, CHANGES_NOT_EXPECTED, error.stderr);
        return true;
      });
      assert.deepEqual(await run("up-refresh"), { same: 1, update: 1 });
      assert.deepEqual(
        (await accountsNamed(name)).map((found) => found.name),
        [name],
      );

      assert.deepEqual(await run("destroy"), { delete: 2 });
      assert.deepEqual(await accountsNamed(name), []);
    });
  }
});
