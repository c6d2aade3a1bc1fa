// A fleet's second day on the real CLI: the YAML program of examples/agency through the
// installed `pulumi-crm fleet`, on one emulator's named accounts, on each backend the fleet's
// tests run on (a folder, a PostgreSQL server). A client moves to another account; a client's key
// changes; a run holds or leaves a lock, or pending operations.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { delimiter, join } from "node:path";
import { startEmulator } from "../../emulator";
import { ensureToolchain, offlineCliEnvironment, toolchainPath } from "../../scripts/toolchain";
import type { RunningEmulator } from "../../scripts/harness/emulator";
import {
  fleetBackends,
  groupAliveAfter,
  heldService,
  messagesOf,
  promptingUp,
  renameSender,
  runFleet,
  type TestBackend,
  tokenVariable,
  untilPending,
} from "../support/fleet";
import { installedPackageBin, repoRoot } from "../../scripts/harness/packed-program";
import { descendantsOf } from "../../scripts/harness/process-tree";
import { installYamlProgram } from "../../scripts/harness/plugin-program";

const execFileAsync = promisify(execFile);

interface ClientEntry {
  stack: string;
  apiUrl: string;
  apiToken: string;
  config: Record<string, string>;
}

for (const { name, start } of fleetBackends)
  describe(`pulumi-crm fleet on the real CLI: a fleet's second day on ${name}`, function () {
    this.timeout(20 * 60_000);
    let backend: TestBackend;
    let emulator: RunningEmulator;
    let home: string;
    let program: string;
    let clientsFile: string;
    let env: NodeJS.ProcessEnv;
    let bin: string;

    const entry = (stack: string, account: string): ClientEntry => ({
      stack,
      apiUrl: emulator.accounts[account].crmUrl,
      apiToken: `env:${tokenVariable(stack)}`,
      config: { clientName: `${stack} Ltd`, senderEmail: `news@${stack}.example`, street: "1 Main Street", city: "Chicago", country: "US" },
    });
    const writeClients = (clients: ClientEntry[]) => writeFileSync(clientsFile, JSON.stringify({ program, clients }, null, 2));
    const fleet = (...args: string[]) => runFleet(bin, clientsFile, env, args);
    // Not execFileSync: the emulator answers from this process's event loop.
    const pulumi = async (...args: string[]) => {
      try {
        return (await execFileAsync("pulumi", args, { cwd: program, env: { ...env, ...backend.direct }, encoding: "utf8" })).stdout;
      } catch (error) {
        const { stdout, stderr } = error as { stdout: string; stderr: string };
        throw new Error(`pulumi ${args.join(" ")} failed:\n${stdout}\n${stderr}`);
      }
    };
    const stackSettings = (stack: string) => readFileSync(join(program, `Pulumi.${stack}.yaml`), "utf8");
    const interrupted = ["stop-1", "stop-2", "stop-3"];

    before(async () => {
      emulator = await startEmulator({ accounts: ["mover-old", "mover-new", "rekey", ...interrupted].map((name) => ({ name })) });
      ({ program } = await installYamlProgram(join(repoRoot, "examples", "agency", "yaml"), `fleet-second-day-${name.replace(/\W/g, "")}`));
      bin = installedPackageBin("pulumi-crm");
      home = mkdtempSync(join(tmpdir(), "pulumi-crm-fleet-day2-"));
      backend = await start(home);
      clientsFile = join(home, "clients.json");
      env = {
        ...offlineCliEnvironment(home, toolchainPath(ensureToolchain())),
        ...backend.env,
        PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
        [tokenVariable("mover")]: emulator.accounts["mover-old"].apiToken,
        [tokenVariable("rekey")]: emulator.accounts.rekey.apiToken,
      };
      writeClients([entry("mover", "mover-old"), entry("rekey", "rekey")]);
      const up = await fleet("up", "--parallel", "2");
      assert.equal(up.code, 0, up.stdout + up.stderr);
    });
    after(async () => {
      await emulator?.close();
      await backend?.stop();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    it("a client moved to another account has its resources replaced into it, and the old account emptied", async () => {
      writeClients([entry("mover", "mover-new"), entry("rekey", "rekey")]);
      env[tokenVariable("mover")] = emulator.accounts["mover-new"].apiToken;
      const up = await fleet("up", "--only", "mover");
      assert.equal(up.code, 0, up.stdout + up.stderr);
      assert.match(up.stdout, /^mover +changed +\d+\.\d s +changed 10 resources: 10 replaced \(/m, up.stdout);
      assert.deepEqual(
        (await messagesOf(emulator.accounts["mover-new"])).map((message) => message.fromname),
        ["mover Ltd"],
      );
      assert.deepEqual(await messagesOf(emulator.accounts["mover-old"]), []);
      const drift = await fleet("drift", "--only", "mover");
      assert.equal(drift.code, 0, drift.stdout + drift.stderr);
      assert.match(drift.stdout, /^mover +no change +\d+\.\d s +no drift$/m, drift.stdout);
    });

    it("a changed key is the same account's: a wrong one and then the right one, the drift check reads with the stack's current key", async () => {
      env[tokenVariable("rekey")] = "not-the-key";
      const wrong = await fleet("up", "--only", "rekey");
      assert.equal(wrong.code, 0, wrong.stdout + wrong.stderr);
      env[tokenVariable("rekey")] = emulator.accounts.rekey.apiToken;
      const sync = await fleet("sync", "--only", "rekey");
      assert.equal(sync.code, 0, sync.stdout + sync.stderr);
      const drift = await fleet("drift", "--only", "rekey");
      assert.equal(drift.code, 0, drift.stdout + drift.stderr);
      assert.match(drift.stdout, /^rekey +no change +\d+\.\d s +no drift$/m, drift.stdout);
    });

    it("sync writes only what changed, removes a setting it wrote that the file no longer holds, and refuses a key the program does not read, naming the closest", async () => {
      const rekey = entry("rekey", "rekey");
      writeClients([entry("mover", "mover-new"), { ...rekey, config: { ...rekey.config, "crm:requestsPerSecond": "4" } }]);
      assert.equal((await fleet("sync", "--only", "rekey")).code, 0);
      assert.match(stackSettings("rekey"), /crm:requestsPerSecond: "4"/);
      writeClients([entry("mover", "mover-new"), rekey]);
      const removed = await fleet("sync", "--only", "rekey");
      assert.match(removed.stdout, /^rekey +changed /m, removed.stdout);
      assert.doesNotMatch(stackSettings("rekey"), /requestsPerSecond/);
      const again = await fleet("sync", "--only", "rekey");
      assert.match(again.stdout, /^rekey +no change +\d+\.\d s +no change$/m, again.stdout);
      for (const [key, closest] of [
        ["senderEmial", "senderEmail"],
        ["crm:requestPerSecond", "crm:requestsPerSecond"],
      ]) {
        writeClients([entry("mover", "mover-new"), { ...rekey, config: { ...rekey.config, [key]: "x" } }]);
        const refused = await fleet("sync", "--only", "rekey");
        assert.equal(refused.code, 2, refused.stdout + refused.stderr);
        assert.match(refused.stderr, new RegExp(`client "rekey": config key "${key}" is no setting .*; did you mean "${closest}"\\?`), refused.stderr);
        assert.doesNotMatch(stackSettings("rekey"), new RegExp(key));
      }
    });

    it("writes a setting from env: or marked secret, and a setting the schema calls secret, as secrets", async () => {
      const rekey = entry("rekey", "rekey");
      writeClients([
        entry("mover", "mover-new"),
        { ...rekey, config: { ...rekey.config, street: "env:REKEY_STREET", city: { secret: "Hidden City" }, "chat:apiToken": "chat-key-in-plain" } as never },
      ]);
      env.REKEY_STREET = "7 Secret Lane";
      const sync = await fleet("sync", "--only", "rekey");
      assert.equal(sync.code, 0, sync.stdout + sync.stderr);
      const settings = stackSettings("rekey");
      for (const key of ["crm-agency:street", "crm-agency:city", "chat:apiToken"]) assert.match(settings, new RegExp(`${key}:\\n +secure: `), settings);
      for (const plain of ["7 Secret Lane", "Hidden City", "chat-key-in-plain"]) assert.ok(!settings.includes(plain), plain);
      writeClients([entry("mover", "mover-new"), rekey]);
      assert.equal((await fleet("sync", "--only", "rekey")).code, 0);
      assert.doesNotMatch(stackSettings("rekey"), /chat:apiToken/);
    });

    it("an up whose settings are unchanged reads none of them, two CLI calls a client; a secret changed in the environment, or a setting removed by hand, is written again", async () => {
      const rekey = { ...entry("rekey", "rekey"), config: { ...entry("rekey", "rekey").config, street: "env:REKEY_STREET" } };
      env.REKEY_STREET = "1 Main Street";
      writeClients([entry("mover", "mover-new"), rekey]);
      const first = await fleet("up");
      assert.equal(first.code, 0, first.stdout + first.stderr);
      // Every CLI call the fleet makes, by its command, through a `pulumi` first on PATH.
      const calls = join(home, "pulumi-calls.log");
      const shim = join(home, "counting");
      mkdirSync(shim, { recursive: true });
      writeFileSync(join(shim, "pulumi"), `#!/bin/sh\necho "$1" >> '${calls}'\nexec '${join(ensureToolchain().cliBin, "pulumi")}' "$@"\n`, { mode: 0o755 });
      const counted: NodeJS.ProcessEnv = { ...env, PATH: `${shim}${delimiter}${env.PATH}` };
      const upCounted = async () => {
        writeFileSync(calls, "");
        const run = await runFleet(bin, clientsFile, counted, ["up"]);
        assert.equal(run.code, 0, run.stdout + run.stderr);
        return { stdout: run.stdout, commands: readFileSync(calls, "utf8").split("\n").filter(Boolean).sort() };
      };
      // The fleet's own three (version, stack ls, whoami), then each client's pending operations (stack export) and up: its settings not read.
      const noOp = await upCounted();
      assert.match(noOp.stdout, /^mover +no change /m, noOp.stdout);
      assert.match(noOp.stdout, /^rekey +no change /m, noOp.stdout);
      assert.deepEqual(noOp.commands, ["stack", "stack", "stack", "up", "up", "version", "whoami"]);
      // A drift check reads both stacks in the fleet's process: each one's state (stack export; rekey's
      // again with --show-secrets, as its street comes from the environment, a secret), and the
      // settings of the first alone (config, which checks the passphrase); no refresh.
      writeFileSync(calls, "");
      const drift = await runFleet(bin, clientsFile, counted, ["drift"]);
      assert.equal(drift.code, 0, drift.stdout + drift.stderr);
      assert.deepEqual(readFileSync(calls, "utf8").split("\n").filter(Boolean).sort(), ["config", "stack", "stack", "stack", "stack", "version", "whoami"]);
      // What the fleet keeps to know it names no setting's value: not the key, not a secret.
      const records = readdirSync(join(home, "pulumi-home", "pulumi-crm", "fleet-settings")).map((name) =>
        readFileSync(join(home, "pulumi-home", "pulumi-crm", "fleet-settings", name), "utf8"),
      );
      for (const secret of [emulator.accounts.rekey.apiToken, "1 Main Street"]) assert.ok(!records.some((text) => text.includes(secret)), secret);

      env.REKEY_STREET = "2 Side Street";
      counted.REKEY_STREET = env.REKEY_STREET;
      const moved = await upCounted();
      assert.match(moved.stdout, /^rekey +changed .*\(crm:index:Address address: address1, /m, moved.stdout);
      assert.ok(moved.commands.includes("config"), moved.commands.join(" "));

      await pulumi("config", "rm", "crm-agency:city", "--stack", "rekey");
      const restored = await upCounted();
      assert.match(restored.stdout, /^rekey +no change /m, restored.stdout);
      assert.match(stackSettings("rekey"), /crm-agency:city: Chicago/);
      writeClients([entry("mover", "mover-new"), entry("rekey", "rekey")]);
      assert.equal((await fleet("up", "--only", "rekey")).code, 0);
    });

    it("up --refresh repairs drift; a preview names the resources and fields it would change", async () => {
      await renameSender(emulator.accounts.rekey, "Someone Else");
      const repaired = await fleet("up", "--only", "rekey", "--refresh");
      assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
      assert.match(repaired.stdout, /^rekey +changed +\d+\.\d s +changed 1 resource: 1 updated \(crm:index:Message newsletter: fromname\)$/m, repaired.stdout);
      assert.deepEqual(
        (await messagesOf(emulator.accounts.rekey)).map((message) => message.fromname),
        ["rekey Ltd"],
      );
      const rekey = entry("rekey", "rekey");
      writeClients([entry("mover", "mover-new"), { ...rekey, config: { ...rekey.config, senderEmail: "hello@rekey.example" } }]);
      const preview = await fleet("preview", "--only", "rekey", "--json");
      assert.equal(preview.code, 0, preview.stdout + preview.stderr);
      assert.deepEqual(JSON.parse(preview.stdout).clients[0].planned, [
        { resource: "crm:index:Message newsletter", how: "update", fields: ["fromemail", "reply2"] },
      ]);
      writeClients([entry("mover", "mover-new"), rekey]);
    });

    it("up names another run's lock, held or left by a killed run, with the command that deletes it, and waits on none; drift, taking no lock, runs", async () => {
      const holder = await promptingUp("rekey", program, env);
      const locked =
        /^rekey +locked +\d+\.\d s +locked by \S+@\S+ \(pid (\d+)\) since \S+; not waited on\. If that run has ended \(killed, interrupted\), `pulumi cancel --stack rekey --yes` deletes its lock$/m;
      let pid = 0;
      try {
        const held = await fleet("up", "--only", "rekey");
        assert.equal(held.code, 1, held.stdout + held.stderr);
        pid = Number(locked.exec(held.stdout)?.[1]);
        assert.ok(pid, held.stdout);
        const drift = await fleet("drift", "--only", "rekey");
        assert.equal(drift.code, 0, drift.stdout + drift.stderr);
        assert.match(drift.stdout, /^rekey +no change +\d+\.\d s +no drift$/m, drift.stdout);
      } finally {
        // Killed at its prompt, the CLI (the pid its lock names) leaves the lock behind. It goes first:
        // `script` ending first closes its terminal, and the CLI, its prompt read failing, would end
        // by itself and delete its lock before the kill reached it (seen on a loaded machine).
        if (pid) process.kill(pid, "SIGKILL");
        process.kill(-holder.pid!, "SIGKILL");
      }
      await new Promise((resolve) => holder.on("close", resolve));
      const left = await fleet("up", "--only", "rekey");
      assert.equal(left.code, 1, left.stdout + left.stderr);
      assert.match(left.stdout, locked, left.stdout);
      await pulumi("cancel", "--stack", "rekey", "--yes");
      const clear = await fleet("up", "--only", "rekey");
      assert.equal(clear.code, 0, clear.stdout + clear.stderr);
      assert.match(clear.stdout, /^rekey +no change /m, clear.stdout);
    });

    it("drift and up name the operations a killed run left pending, with the commands that clear them", async () => {
      const service = await heldService();
      writeClients([entry("mover", "mover-new"), entry("rekey", "rekey"), { ...entry("held", "rekey"), apiUrl: service.url }]);
      env[tokenVariable("held")] = "held-key";
      try {
        // A run whose creates are under way, killed as a runner is: every process of it at once (the
        // plugins are in groups of their own), all stopped first, so that none sees another end.
        const killAll = (pid: number) => {
          const every = [pid, ...descendantsOf(pid).map((descendant) => descendant.pid)];
          for (const signal of ["SIGSTOP", "SIGKILL"] as const) {
            for (const each of every) {
              try {
                process.kill(each, signal);
              } catch {
                // Ended already.
              }
            }
          }
        };
        const killed = await runFleet(
          bin,
          clientsFile,
          env,
          ["up", "--only", "held"],
          (child) => void untilPending("held", program, env).then(() => killAll(child.pid!)),
        );
        assert.equal(killed.code, 128, killed.stdout + killed.stderr);
        for (const command of ["drift", "up"]) {
          const run = await fleet(command, "--only", "held");
          assert.equal(run.code, 1, run.stdout + run.stderr);
          assert.match(
            run.stdout,
            /^held +interrupted +\d+\.\d s +a run left \d+ operations? pending \(creating crm:index:\w+ \w+.*\): if it has ended \(killed, interrupted\), `pulumi cancel --stack held --yes` deletes any lock it left, then `pulumi refresh --stack held --clear-pending-creates --yes` settles them; then run the fleet again$/m,
            run.stdout,
          );
        }
        await pulumi("cancel", "--stack", "held", "--yes");
        await pulumi("refresh", "--stack", "held", "--clear-pending-creates", "--yes");
        const clear = await fleet("drift", "--only", "held");
        assert.equal(clear.code, 0, clear.stdout + clear.stderr);
      } finally {
        await service.close();
        await pulumi("cancel", "--stack", "held", "--yes").catch(() => undefined);
        await pulumi("stack", "rm", "held", "--yes", "--force").catch(() => undefined);
        writeClients([entry("mover", "mover-new"), entry("rekey", "rekey")]);
      }
    });

    it("warns of a stack the clients file no longer names, whatever --only selects, with the command that offboards it, which destroys its objects and removes it", async () => {
      // stop-1's stack is in the backend and in the file, outside the selection: not warned of.
      writeClients([entry("rekey", "rekey"), entry("stop-1", "stop-1")]);
      env[tokenVariable("stop-1")] = emulator.accounts["stop-1"].apiToken;
      assert.equal((await fleet("sync", "--only", "stop-1")).code, 0);
      const drift = await fleet("drift", "--only", "rekey");
      assert.equal(drift.code, 0, drift.stdout + drift.stderr);
      assert.match(
        drift.stderr,
        /warning: the backend holds stack that .*clients\.json no longer names: mover; .*`pulumi-crm fleet offboard --only mover` destroys them and removes the stacks/,
        drift.stderr,
      );
      const refused = await fleet("offboard", "--only", "rekey");
      assert.equal(refused.code, 2, refused.stdout + refused.stderr);
      assert.match(refused.stderr, /rekey is still a client in .*: remove it from the file first/);
      const offboard = await fleet("offboard", "--only", "mover");
      assert.equal(offboard.code, 0, offboard.stdout + offboard.stderr);
      assert.match(offboard.stdout, /^mover +changed +\d+\.\d s +deleted 10 resources, stack removed$/m, offboard.stdout);
      assert.deepEqual(await messagesOf(emulator.accounts["mover-new"]), []);
      assert.doesNotMatch(await pulumi("stack", "ls", "--json"), /"mover"/);
      assert.doesNotMatch((await fleet("drift")).stderr, /no longer names/);
    });

    it("says the pulumi CLI is missing when it is not on PATH", async () => {
      const run = await runFleet(bin, clientsFile, { ...env, PATH: "/nonexistent" }, ["drift"]);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.match(run.stderr, /the pulumi CLI was not found: install it .* and put it on PATH, or give --pulumi PATH/, run.stderr);
    });

    it("leaves no stack selected", async () => {
      const stacks = JSON.parse(await pulumi("stack", "ls", "--json")) as Array<{ name: string; current: boolean }>;
      assert.deepEqual(
        stacks.filter((stack) => stack.current),
        [],
      );
    });

    it("on Ctrl-C starts no more clients, lets the running one stop, prints the table with interrupted rows, exits 130 and leaves no process or lock behind", async () => {
      writeClients(interrupted.map((stack) => entry(stack, stack)));
      for (const stack of interrupted) env[tokenVariable(stack)] = emulator.accounts[stack].apiToken;
      let group = 0;
      const run = await runFleet(bin, clientsFile, env, ["up", "--parallel", "1"], (child, stderr) => {
        group = child.pid!;
        // As a terminal's Ctrl-C: SIGINT to the command's whole process group, once the first client's CLI runs.
        const poll = setInterval(() => {
          if (/stop-1: started/.test(stderr())) {
            clearInterval(poll);
            setTimeout(() => process.kill(-group, "SIGINT"), 1500);
          }
        }, 100);
        child.on("close", () => clearInterval(poll));
      });
      assert.equal(run.code, 130, run.stdout + run.stderr);
      assert.match(run.stdout, /^stop-2 +interrupted +0\.0 s +not started: interrupted \(Ctrl-C\)$/m, run.stdout);
      assert.match(run.stdout, /^stop-3 +interrupted +0\.0 s +not started: interrupted \(Ctrl-C\)$/m, run.stdout);
      assert.match(run.stdout, /^stop-1 +(changed|interrupted) /m, run.stdout);
      assert.match(run.stdout, /exit code 130: interrupted \(Ctrl-C\)$/m);
      // Every process of the command's group has ended with it: the CLI, the language host, the plugins.
      assert.equal(await groupAliveAfter(group), false, "a process of the interrupted fleet is still running");
      // No lock left behind: the next up of stop-1 runs.
      const next = await fleet("up", "--parallel", "2");
      assert.match(next.stdout, /^stop-2 +changed /m, next.stdout);
      assert.match(next.stdout, /^stop-1 +(changed|no change|interrupted) /m, next.stdout);
    });

    it("says a missing passphrase once, as every client's problem, and starts no more clients", async () => {
      const withoutPassphrase = { ...env, PULUMI_CONFIG_PASSPHRASE: undefined };
      const run = await runFleet(bin, clientsFile, withoutPassphrase, ["drift", "--parallel", "1"]);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const mentions = (text: string) => text.split("\n").filter((line) => /PULUMI_CONFIG_PASSPHRASE/.test(line)).length;
      assert.equal(mentions(run.stdout), 1, run.stdout);
      assert.equal(mentions(run.stderr), 1, run.stderr);
      assert.match(run.stdout, /^stop-2 +failed +0\.0 s +not started: the problem above is every client's$/m, run.stdout);
      assert.match(run.stdout, /^stop-3 +failed +0\.0 s +not started: the problem above is every client's$/m, run.stdout);
    });

    it("a preview of a new client without its key fails naming the variable, and leaves no stack behind", async () => {
      writeClients([...interrupted.map((stack) => entry(stack, stack)), entry("newbie", "rekey")]);
      delete env[tokenVariable("newbie")];
      const preview = await fleet("preview", "--only", "newbie");
      assert.equal(preview.code, 1, preview.stdout + preview.stderr);
      assert.match(preview.stdout, /^newbie +failed +\d+\.\d s +NEWBIE_CRM_TOKEN is not set and the stack holds no crm:apiToken yet/m, preview.stdout);
      assert.doesNotMatch(await pulumi("stack", "ls", "--json"), /"newbie"/);
    });
  });
