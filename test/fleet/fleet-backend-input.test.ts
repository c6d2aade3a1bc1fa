// Bad input every client meets alike, on the real CLI: a backend that refuses the connection, one
// that takes it and never answers, a wrong passphrase. Each is said once, in the first client's
// row, with what to do; the other rows say `not started`; nothing is written; a password in the
// backend's URL is never repeated.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { closedPort } from "../support/loopback";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "../../emulator";
import { ensureToolchain, offlineCliEnvironment, toolchainPath } from "../../scripts/toolchain";
import type { RunningEmulator } from "../../scripts/harness/emulator";
import { fleetBackends, heldService, installTagProgram, runFleet, type TestBackend, tokenVariable } from "../support/fleet";
import { installedPackageBin } from "../../scripts/harness/packed-program";

const execFileAsync = promisify(execFile);
const clients = ["first", "second", "third"];
const PASSWORD = "never-shown-7c1f";

/** Said once: the lines of `text` matching `pattern`. */
const mentions = (text: string, pattern: RegExp) => text.split("\n").filter((line) => pattern.test(line)).length;

describe("pulumi-crm fleet on the real CLI: a backend it cannot use, said once", function () {
  this.timeout(10 * 60_000);
  let home: string;
  let clientsFile: string;
  let env: NodeJS.ProcessEnv;
  let bin: string;

  before(async () => {
    const program = await installTagProgram("fleet-backend-input");
    bin = installedPackageBin("pulumi-crm");
    home = mkdtempSync(join(tmpdir(), "pulumi-crm-fleet-input-"));
    clientsFile = join(home, "clients.json");
    writeFileSync(clientsFile, JSON.stringify({ program, clients: clients.map((stack) => ({ stack, apiUrl: "http://127.0.0.1:9/", apiToken: "stack" })) }));
    env = offlineCliEnvironment(home, toolchainPath(ensureToolchain()));
  });
  after(() => home && rmSync(home, { recursive: true, force: true }));

  const refusals: Array<[string, () => Promise<{ url: string; close(): Promise<void> }>, RegExp]> = [
    [
      "refuses the connection",
      async () => ({ url: `postgres://fleet:${PASSWORD}@127.0.0.1:${await closedPort()}/pulumi?sslmode=disable`, close: async () => undefined }),
      /connection refused/,
    ],
    [
      "takes the connection and never answers (PGCONNECT_TIMEOUT, 20 s)",
      async () => {
        const held = await heldService();
        return { url: `${held.url.replace("http://", `postgres://fleet:${PASSWORD}@`)}/pulumi?sslmode=disable`, close: held.close };
      },
      /i\/o timeout/,
    ],
  ];
  for (const [what, backend, why] of refusals) {
    it(`a backend that ${what}: the first row says so and what to do, the others did not start`, async () => {
      const server = await backend();
      try {
        const run = await runFleet(bin, clientsFile, { ...env, PULUMI_BACKEND_URL: server.url }, ["drift"]);
        assert.equal(run.code, 1, run.stdout + run.stderr);
        assert.match(
          run.stdout,
          new RegExp(
            `^first +failed +0\\.0 s +the backend could not be used: unable to open state database "postgres://fleet:\\*\\*\\*\\*@127\\.0\\.0\\.1:\\d+/pulumi\\?sslmode=disable": failed to ping PostgreSQL: .*${why.source}.*; check PULUMI_BACKEND_URL \\(or \`pulumi login\`\\) and that the backend answers$`,
            "m",
          ),
          run.stdout,
        );
        for (const stack of ["second", "third"])
          assert.match(run.stdout, new RegExp(`^${stack} +failed +0\\.0 s +not started: the problem above is every client's$`, "m"), run.stdout);
        assert.equal(mentions(run.stdout, /could not be used/), 1, run.stdout);
        assert.ok(!`${run.stdout}${run.stderr}`.includes(PASSWORD), "the backend's password was repeated");
      } finally {
        await server.close();
      }
    });
  }
});

for (const { name, start } of fleetBackends)
  describe(`pulumi-crm fleet on the real CLI: a wrong passphrase on ${name}, said once`, function () {
    this.timeout(10 * 60_000);
    let backend: TestBackend;
    let emulator: RunningEmulator;
    let home: string;
    let program: string;
    let clientsFile: string;
    let env: NodeJS.ProcessEnv;
    let bin: string;
    const pulumi = async (args: string[]) =>
      (await execFileAsync("pulumi", args, { cwd: program, env: { ...env, ...backend.direct }, encoding: "utf8" })).stdout;
    /** What the backend and the program folder hold of each stack: its state and its settings file. */
    const written = async () =>
      Promise.all(
        clients.map(async (stack) => [await pulumi(["stack", "export", "--stack", stack]), readFileSync(join(program, `Pulumi.${stack}.yaml`), "utf8")]),
      );

    before(async () => {
      emulator = await startEmulator({ accounts: clients.map((stack) => ({ name: stack })) });
      program = await installTagProgram(`fleet-passphrase-${name.replace(/\W/g, "")}`);
      bin = installedPackageBin("pulumi-crm");
      home = mkdtempSync(join(tmpdir(), "pulumi-crm-fleet-passphrase-"));
      backend = await start(home);
      clientsFile = join(home, "clients.json");
      const entries = clients.map((stack) => ({
        stack,
        apiUrl: emulator.accounts[stack].crmUrl,
        apiToken: `env:${tokenVariable(stack)}`,
        config: { clientName: stack },
      }));
      writeFileSync(clientsFile, JSON.stringify({ program, clients: entries }));
      env = {
        ...offlineCliEnvironment(home, toolchainPath(ensureToolchain())),
        ...backend.env,
        ...Object.fromEntries(clients.map((stack) => [tokenVariable(stack), emulator.accounts[stack].apiToken])),
      };
      const up = await runFleet(bin, clientsFile, env, ["up"]);
      assert.equal(up.code, 0, up.stdout + up.stderr);
    });
    after(async () => {
      await emulator?.close();
      await backend?.stop();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    for (const command of ["up", "drift"]) {
      it(`${command}: the first row says the passphrase is wrong and which variable to set, the others did not start, and nothing is written`, async () => {
        const before = await written();
        const run = await runFleet(bin, clientsFile, { ...env, PULUMI_CONFIG_PASSPHRASE: "not-the-passphrase" }, [command, "--parallel", "1"]);
        assert.equal(run.code, 1, run.stdout + run.stderr);
        assert.match(run.stdout, /^first +failed +\d+\.\d s +.*incorrect passphrase.*PULUMI_CONFIG_PASSPHRASE/m, run.stdout);
        for (const stack of ["second", "third"])
          assert.match(run.stdout, new RegExp(`^${stack} +failed +0\\.0 s +not started: the problem above is every client's$`, "m"), run.stdout);
        assert.equal(mentions(run.stdout, /passphrase/), 1, run.stdout);
        assert.deepEqual(await written(), before);
      });
    }
  });
