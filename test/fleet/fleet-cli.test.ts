// `pulumi-crm fleet` as an agency runs it: the installed command, the YAML program of
// examples/agency on the native plugin, the real CLI through the Automation API, six client
// stacks two at a time, five of them on one emulator's named accounts and the sixth on an
// emulator of its own that goes away (unreachable). One client's account is changed behind its
// stack's back (drift), one stack is held by another run's lock. Then the same example's
// TypeScript program, on the dynamic classes, for two clients: up and a drift.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { ensureToolchain, offlineCliEnvironment, toolchainPath } from "../../scripts/toolchain";
import { installedPackageBin, installProgram, repoRoot } from "../../scripts/harness/packed-program";
import { installYamlProgram } from "../../scripts/harness/plugin-program";
import type { RunningEmulator } from "../../scripts/harness/emulator";
import { heldService, messagesOf, renameSender, runFleet, tokenVariable } from "../support/fleet";

const clients = ["client-1", "client-2", "client-3", "client-4", "client-5", "client-6"];

describe("pulumi-crm fleet on the real CLI: six client stacks of examples/agency, two at a time", function () {
  this.timeout(20 * 60_000);
  let shared: RunningEmulator;
  let alone: RunningEmulator;
  let home: string;
  let clientsFile: string;
  let env: NodeJS.ProcessEnv;
  let bin: string;
  const toolchain = ensureToolchain();

  const fleet = (...args: string[]) => runFleet(bin, clientsFile, env, args);
  const account = (stack: string) => (stack === "client-6" ? alone.accounts[stack] : shared.accounts[stack]);
  const messages = (stack: string) => messagesOf(account(stack));

  before(async () => {
    shared = await startEmulator({ accounts: clients.slice(0, 5).map((name) => ({ name })) });
    alone = await startEmulator({ accounts: [{ name: "client-6" }] });
    const { program } = await installYamlProgram(join(repoRoot, "examples", "agency", "yaml"), "fleet-agency");
    bin = installedPackageBin("pulumi-crm");
    home = mkdtempSync(join(tmpdir(), "pulumi-crm-fleet-"));
    mkdirSync(join(home, "backend"));
    clientsFile = join(home, "clients.json");
    const entries = clients.map((stack) => ({
      stack,
      apiUrl: account(stack).crmUrl,
      apiToken: `env:${tokenVariable(stack)}`,
      config: { clientName: `Client ${stack.slice(-1)}`, senderEmail: `news@${stack}.example`, street: "1 Main Street", city: "Chicago", country: "US" },
    }));
    writeFileSync(clientsFile, JSON.stringify({ program, clients: entries }, null, 2));
    env = {
      ...offlineCliEnvironment(home, toolchainPath(toolchain)),
      PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      ...Object.fromEntries(clients.map((stack) => [tokenVariable(stack), account(stack).apiToken])),
    };
  });
  after(async () => {
    await shared?.close();
    await alone?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("up makes each client's stack from the clients file and deploys it into the client's own account", async () => {
    const up = await fleet("up", "--parallel", "2");
    assert.equal(up.code, 0, up.stdout + up.stderr);
    for (const stack of clients)
      assert.match(
        up.stdout,
        new RegExp(
          `^${stack} +changed +\\d+\\.\\d s +changed 10 resources: 10 created \\(crm:index:AccountCustomField tier, crm:index:Address address, crm:index:Branding branding, crm:index:ContactCustomField interest, .*crm:index:Webhook subscriptions\\)$`,
          "m",
        ),
        up.stdout,
      );
    assert.match(up.stdout, /^6 clients: 6 changed; exit code 0$/m);
    assert.match(up.stderr, /6 clients of .*clients\.json, 2 at a time/);
    for (const stack of clients)
      assert.deepEqual(
        (await messages(stack)).map((message) => message.fromname),
        [`Client ${stack.slice(-1)}`],
      );
  });

  it("reports a stack another run holds as locked, without waiting, and runs the others: a second up changes nothing", async () => {
    const lockDir = join(home, "backend", ".pulumi", "locks", "organization", "crm-agency", "client-1");
    mkdirSync(lockDir, { recursive: true });
    // What a run of the CLI holds while it runs (pkg/backend/diy/lock.go): a file per lock.
    writeFileSync(join(lockDir, "other-run.json"), JSON.stringify({ pid: 1, username: "ci", hostname: "runner", timestamp: new Date().toISOString() }));
    try {
      const up = await fleet("up", "--only", "client-1,client-2", "--parallel", "2");
      assert.equal(up.code, 1, up.stdout + up.stderr);
      assert.match(
        up.stdout,
        /^client-1 +locked +\d+\.\d s +locked by ci@runner \(pid 1\) since .*; not waited on\. If that run has ended \(killed, interrupted\), `pulumi cancel --stack client-1 --yes` deletes its lock$/m,
        up.stdout,
      );
      // The second up of a client changes nothing.
      assert.match(up.stdout, /^client-2 +no change +\d+\.\d s +no change$/m, up.stdout);
    } finally {
      rmSync(lockDir, { recursive: true, force: true });
    }
  });

  it("drift names the client whose account changed, its resource and field, and the one unreachable, and exits 1", async () => {
    await renameSender(account("client-3"), "Someone Else");
    await alone.close();
    const drift = await fleet("drift", "--parallel", "2");
    assert.equal(drift.code, 1, drift.stdout + drift.stderr);
    assert.match(drift.stdout, /^client-3 +drift +\d+\.\d s +crm:index:Message newsletter \(fromname\)$/m, drift.stdout);
    assert.match(drift.stdout, /^client-6 +unreachable +\d+\.\d s +.*refused the connection/m, drift.stdout);
    for (const stack of ["client-1", "client-2", "client-4", "client-5"])
      assert.match(drift.stdout, new RegExp(`^${stack} +no change +\\d+\\.\\d s +no drift$`, "m"), drift.stdout);
    assert.match(drift.stdout, /^6 clients: .*; exit code 1: a client failed, was unreachable, locked or interrupted$/m);
  });

  it("drift stops waiting on a service that takes the connection and never answers after --timeout, and says so", async () => {
    const held = await heldService();
    const file = readFileSync(clientsFile, "utf8");
    try {
      const written = JSON.parse(file) as { clients: Array<{ stack: string; apiUrl: string }> };
      writeFileSync(
        clientsFile,
        JSON.stringify({ ...written, clients: written.clients.map((client) => (client.stack === "client-1" ? { ...client, apiUrl: held.url } : client)) }),
      );
      assert.equal((await fleet("sync", "--only", "client-1")).code, 0);
      const drift = await fleet("drift", "--only", "client-1", "--timeout", "3");
      assert.equal(drift.code, 1, drift.stdout + drift.stderr);
      assert.match(drift.stdout, /^client-1 +failed +\d+\.\d s +stopped after 3 s \(--timeout\)$/m, drift.stdout);
    } finally {
      writeFileSync(clientsFile, file);
      await held.close();
    }
    assert.equal((await fleet("sync", "--only", "client-1")).code, 0);
  });

  it("drift of the drifted client alone exits 7, its JSON naming the resource and field", async () => {
    const drift = await fleet("drift", "--only", "client-3", "--json");
    assert.equal(drift.code, 7, drift.stdout + drift.stderr);
    const report = JSON.parse(drift.stdout);
    assert.equal(report.exitCode, 7);
    assert.deepEqual(
      report.clients.map(({ stack, status, drift: found }: { stack: string; status: string; drift: unknown }) => ({ stack, status, drift: found })),
      [{ stack: "client-3", status: "drift", drift: [{ resource: "crm:index:Message newsletter", how: "changed", fields: ["fromname"] }] }],
    );
  });

  it("destroy empties each reachable client's account", async () => {
    const destroy = await fleet("destroy", "--only", clients.slice(0, 5).join(","), "--parallel", "2");
    assert.equal(destroy.code, 0, destroy.stdout + destroy.stderr);
    for (const stack of clients.slice(0, 5)) {
      assert.match(destroy.stdout, new RegExp(`^${stack} +changed +\\d+\\.\\d s +deleted 10 resources$`, "m"), destroy.stdout);
      assert.deepEqual(await messages(stack), []);
    }
  });
});

describe("pulumi-crm fleet on the real CLI: two client stacks of examples/agency's TypeScript program", function () {
  this.timeout(20 * 60_000);
  let emulator: RunningEmulator;
  let home: string;
  let clientsFile: string;
  let env: NodeJS.ProcessEnv;
  let bin: string;
  const stacks = ["north", "south"];

  before(async () => {
    emulator = await startEmulator({ accounts: stacks.map((name) => ({ name })) });
    const program = installProgram(join(repoRoot, "examples", "agency", "typescript"), "fleet-agency-ts", { typeCheck: "once" });
    bin = installedPackageBin("pulumi-crm");
    home = mkdtempSync(join(tmpdir(), "pulumi-crm-fleet-ts-"));
    mkdirSync(join(home, "backend"));
    clientsFile = join(home, "clients.json");
    const clients = stacks.map((stack) => ({
      stack,
      apiUrl: emulator.accounts[stack].crmUrl,
      apiToken: `env:${tokenVariable(stack)}`,
      config: { clientName: `${stack} Ltd`, senderEmail: `news@${stack}.example`, street: "1 Main Street", city: "Chicago", country: "US" },
    }));
    writeFileSync(clientsFile, JSON.stringify({ program, clients }, null, 2));
    env = {
      ...offlineCliEnvironment(home, toolchainPath(ensureToolchain())),
      PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      ...Object.fromEntries(stacks.map((stack) => [tokenVariable(stack), emulator.accounts[stack].apiToken])),
    };
  });
  after(async () => {
    await emulator?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("up deploys each client, and drift names the changed field of a dynamic resource, exit code 7", async () => {
    const up = await runFleet(bin, clientsFile, env, ["up", "--parallel", "2"]);
    assert.equal(up.code, 0, up.stdout + up.stderr);
    for (const stack of stacks) assert.match(up.stdout, new RegExp(`^${stack} +changed +\\d+\\.\\d s +changed 10 resources: 10 created `, "m"), up.stdout);
    assert.deepEqual(
      (await messagesOf(emulator.accounts.south)).map((message) => message.fromname),
      ["south Ltd"],
    );
    await renameSender(emulator.accounts.south, "Someone Else");
    const drift = await runFleet(bin, clientsFile, env, ["drift", "--parallel", "2", "--json"]);
    assert.equal(drift.code, 7, drift.stdout + drift.stderr);
    assert.deepEqual(
      JSON.parse(drift.stdout).clients.map(({ stack, status, drift: found }: { stack: string; status: string; drift?: unknown }) => ({
        stack,
        status,
        drift: found,
      })),
      [
        { stack: "north", status: "no change", drift: undefined },
        { stack: "south", status: "drift", drift: [{ resource: "pulumi-nodejs:dynamic/crm:Message newsletter", how: "changed", fields: ["fromname"] }] },
      ],
    );
  });
});
