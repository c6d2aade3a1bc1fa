// Runners at once: 4 runs of `pulumi-crm fleet` on one backend, as the jobs of `fleet ci`'s matrix
// run them, each with its own PULUMI_HOME (a runner's) and its own `--only` share of 40 clients, on
// each backend the fleet's tests run on. The program is the cheapest one: a tag a client.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "../../emulator";
import { ensureToolchain, offlineCliEnvironment, toolchainPath } from "../../scripts/toolchain";
import type { RunningEmulator } from "../../scripts/harness/emulator";
import { fleetBackends, installTagProgram, promptingUp, runFleet, type TestBackend, tokenVariable } from "../support/fleet";
import { installedPackageBin } from "../../scripts/harness/packed-program";
import type { ClientOutcome } from "../../provider/commands/fleet/run";

const execFileAsync = promisify(execFile);
const clients = Array.from({ length: 40 }, (_, index) => `client-${String(index + 1).padStart(2, "0")}`);
/** The runners' shares, as `fleet ci --per-job 10` would make them. */
const shares = [0, 1, 2, 3].map((runner) => clients.slice(runner * 10, runner * 10 + 10));

for (const { name, start } of fleetBackends)
  describe(`pulumi-crm fleet on the real CLI: 4 runs at once on one ${name} backend, 40 clients`, function () {
    this.timeout(30 * 60_000);
    let backend: TestBackend;
    let emulator: RunningEmulator;
    let home: string;
    let program: string;
    let clientsFile: string;
    let bin: string;
    /** A runner's environment: its own PULUMI_HOME, the one backend. */
    const runner = (id: string): NodeJS.ProcessEnv => ({
      ...offlineCliEnvironment(join(home, id), toolchainPath(ensureToolchain())),
      ...backend.env,
      ...Object.fromEntries(clients.map((stack) => [tokenVariable(stack), emulator.accounts[stack].apiToken])),
    });

    before(async () => {
      emulator = await startEmulator({ accounts: clients.map((stack) => ({ name: stack })) });
      program = await installTagProgram(`fleet-runners-${name.replace(/\W/g, "")}`);
      bin = installedPackageBin("pulumi-crm");
      home = mkdtempSync(join(tmpdir(), "pulumi-crm-fleet-runners-"));
      backend = await start(home);
      clientsFile = join(home, "clients.json");
      const entries = clients.map((stack) => ({
        stack,
        apiUrl: emulator.accounts[stack].crmUrl,
        apiToken: `env:${tokenVariable(stack)}`,
        config: { clientName: `${stack} Ltd` },
      }));
      writeFileSync(clientsFile, JSON.stringify({ program, clients: entries }, null, 2));
    });
    after(async () => {
      await emulator?.close();
      await backend?.stop();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    it("each run ups its own share, reports the stack another run holds as locked without waiting on it, and the runs' reports are the fleet, every client once", async () => {
      // client-01's stack is held by another machine's run: its up, waiting at its prompt.
      const holderEnv = runner("holder");
      assert.equal((await runFleet(bin, clientsFile, holderEnv, ["sync", "--only", "client-01"])).code, 0);
      const holder = await promptingUp("client-01", program, holderEnv);
      let rows: ClientOutcome[] = [];
      try {
        // All four end while the holder still holds its lock: none waited on it.
        const runs = await Promise.all(
          shares.map((share, index) => runFleet(bin, clientsFile, runner(`runner-${index}`), ["up", "--only", share.join(","), "--parallel", "2", "--json"])),
        );
        const reports = runs.map((run) => JSON.parse(run.stdout) as { clients: ClientOutcome[] });
        for (const [index, report] of reports.entries())
          assert.deepEqual(
            report.clients.map((row) => row.stack),
            shares[index],
            runs[index].stderr,
          );
        rows = reports.flatMap((report) => report.clients);
        assert.deepEqual(rows.map((row) => row.stack).sort(), clients);
        const [held, ...others] = rows;
        assert.equal(held.status, "locked", JSON.stringify(held));
        assert.match(
          held.error!,
          /^locked by \S+@\S+ \(pid \d+\) since \S+; not waited on\. If that run has ended \(killed, interrupted\), `pulumi cancel --stack client-01 --yes` deletes its lock$/,
        );
        for (const row of others) assert.equal(row.status, "changed", JSON.stringify(row));
      } finally {
        process.kill(-holder.pid!, "SIGKILL");
        const pid = Number(/\(pid (\d+)\)/.exec(rows[0]?.error ?? "")?.[1]);
        if (pid) process.kill(pid, "SIGKILL");
      }
      // No two runs touched one stack: each has the one update of the run whose share it is; the held one none.
      for (const stack of clients) {
        const { stdout } = await execFileAsync("pulumi", ["stack", "history", "--json", "--stack", stack], {
          cwd: program,
          env: { ...runner("check"), ...backend.direct },
          encoding: "utf8",
        });
        assert.equal((JSON.parse(stdout) as unknown[]).length, stack === "client-01" ? 0 : 1, stack);
      }
    });
  });
