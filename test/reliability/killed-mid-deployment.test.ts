// The engine (with its program and provider host) killed with SIGKILL in the middle of an
// `up` of every CRM object type, at kill points drawn from a fixed seed: the k-th request
// the service answers is done, and the engine dies before the answer reaches it (the
// worst moment: the service made or changed the object, the state never hears of it).
// Each time, the next run reports the pending operations the kill left, as the CLI does;
// whatever the service made but the state never recorded is named, with its id for
// adoptId and the request that deletes it (nothing tells the provider whose it is, so it
// never takes it back on its own); here the test deletes it, and `up` converges: the
// service holds exactly the declared objects (no duplicate, no orphan), the pending
// creates are cleared by `refresh --clear-pending-creates`, and the drift check finds nothing.
//
// CI deploys 1 copy of each type (10 objects, see test/support/every-resource.ts) killed at
// 4 points; `npm run soak` (RELIABILITY_SOAK=1) deploys 7 copies (64 objects) killed at 10 points.

import assert from "node:assert/strict";
import { ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { mulberry32 } from "../../emulator/src/core/random";
import { EngineResult, runEngine } from "../../engine/engine";
import type { PendingOperation } from "../../engine/state";
import { emulatorCall, requestCount } from "../support/emulator";
import { engineCli, installProgram, repoRoot } from "../support/packed-program";
import { startRecordingProxy } from "../support/recording-proxy";
import { everyResourceStack } from "../support/every-resource";
import { tallyService } from "../support/service-tally";

const soak = process.env.RELIABILITY_SOAK === "1";
const copies = soak ? 7 : 1;
const killPointCount = soak ? 10 : 4;
const seed = 12;
const stack = "killed";

/**
 * A proxy in front of the emulator that, once the service has answered `killAt` requests,
 * kills `victim`'s process group (the engine, its program and its provider host) and drops
 * that answer: the request took effect, and the engine never learns of it.
 */
async function startKillingProxy(target: string, killAt: number, victim: () => ChildProcess | undefined) {
  const killedAt: { request?: string } = {};
  const proxy = await startRecordingProxy(target, (answered, request, status) => {
    if (answered !== killAt) return false;
    killedAt.request = `${request.method} ${request.path} -> ${status}`;
    const pid = victim()?.pid;
    if (pid) process.kill(-pid, "SIGKILL");
    return true;
  });
  return { ...proxy, killedAt };
}

interface Outcome {
  killAt: number;
  killedAt?: string;
  pendingOperations: string[];
  /** Objects the next `up` named as made but never recorded, and how each was resolved. */
  named: string[];
  ups: number;
  duplicates: number;
  orphans: number;
}

describe(`reliability: killed mid-deployment, ${copies} copies of every CRM object type, ${killPointCount} kill points`, function () {
  this.timeout(soak ? 3_600_000 : 900_000);
  let program: string;
  let requestsOfOneUp: number;
  const outcomes: Outcome[] = [];

  before(async () => {
    program = installProgram(join(__dirname, "programs", "every-resource"), "reliability-killed", { typeCheck: "once" });
  });
  after(() => {
    console.log(`      requests of an uninterrupted up: ${requestsOfOneUp}`);
    for (const outcome of outcomes) console.log(`      ${JSON.stringify(outcome)}`);
  });

  /** A fresh service with the contacts the program names, and a fresh state file. */
  async function freshStack(name: string) {
    const emulator = await startEmulator({ port: 0, rateLimit: 0 });
    const stateFile = join(program, `state-${name}.json`);
    rmSync(stateFile, { force: true });
    const contactIds: string[] = [];
    for (let n = 1; n <= copies; n++) {
      contactIds.push((await emulatorCall(emulator, "POST", "/api/3/contacts", { contact: { email: `killed-${n}@example.com` } })).body.contact.id);
    }
    const declared = everyResourceStack(copies, contactIds);
    const config = (apiUrl: string) => ({ "crm:apiUrl": apiUrl, "crm:requestsPerSecond": "0", ...declared.config });
    return { emulator, stateFile, config, objects: declared.objects };
  }

  type StackFiles = Awaited<ReturnType<typeof freshStack>>;
  // Only the uninterrupted up previews: the other ups skip it (`up --skip-preview`). A preview of this
  // program sends no request (it would take no kill point), and its Check and Diff calls, on values
  // unknown as in the uninterrupted up's preview, are not what the kills are about.
  const inProcess = (
    stackFiles: StackFiles,
    command: "up" | "refresh",
    options: { drift?: boolean; clearPendingCreates?: boolean; withPreview?: boolean } = {},
  ) =>
    runEngine({
      command,
      cwd: program,
      stack,
      stateFile: stackFiles.stateFile,
      config: stackFiles.config(stackFiles.emulator.crmUrl),
      secrets: { "crm:apiToken": stackFiles.emulator.apiToken },
      ...(options.drift ? { previewOnly: true, expectNoChanges: true } : {}),
      clearPendingCreates: options.clearPendingCreates,
      skipPreview: command === "up" && !options.withPreview,
    });
  const output = (result: EngineResult) => [...result.lines, ...result.diagnostics].join("\n");

  it("an uninterrupted up, whose request count bounds the kill points", async () => {
    const stackFiles = await freshStack("baseline");
    try {
      const before = await requestCount(stackFiles.emulator);
      const up = await inProcess(stackFiles, "up", { withPreview: true });
      assert.equal(up.exitCode, 0, output(up));
      requestsOfOneUp = (await requestCount(stackFiles.emulator)) - before;
    } finally {
      await stackFiles.emulator.close();
    }
  });

  it(`each of ${killPointCount} kills: the next run reports the pending operations, names what was never recorded, and converges`, async () => {
    const random = mulberry32(seed);
    // Coalesced reads make the count vary a little with timing: the last tenth is left out, so that every run is killed.
    const killPoints = Array.from({ length: killPointCount }, () => 1 + Math.floor(random() * Math.floor(requestsOfOneUp * 0.9)));
    for (const killAt of killPoints) {
      const stackFiles = await freshStack(`kill-${killAt}`);
      let engine: ChildProcess | undefined;
      const proxy = await startKillingProxy(stackFiles.emulator.crmUrl, killAt, () => engine);
      try {
        // The engine as a command in a process group of its own, so that the kill takes its children.
        // The emulator's key lives only as long as this test.
        const args = ["up", "--yes", "--skip-preview", "--cwd", program, "--stack", stack, "--state", stackFiles.stateFile];
        for (const [key, value] of Object.entries(stackFiles.config(proxy.url))) args.push("--config", `${key}=${value}`);
        args.push("--secret", `crm:apiToken=${stackFiles.emulator.apiToken}`);
        engine = spawn(process.execPath, [engineCli(), ...args], {
          cwd: repoRoot,
          detached: true,
          stdio: "ignore",
        });
        const signal = await new Promise<NodeJS.Signals | null>((resolve) => engine!.on("exit", (_code, exitSignal) => resolve(exitSignal)));
        const outcome: Outcome = { killAt, killedAt: proxy.killedAt.request, pendingOperations: [], named: [], ups: 0, duplicates: 0, orphans: 0 };
        outcomes.push(outcome);
        assert.equal(signal, "SIGKILL", `the up finished before ${killAt} requests`);

        // A kill before the first state write (the stack's) leaves no state.
        const pending = existsSync(stackFiles.stateFile)
          ? ((JSON.parse(readFileSync(stackFiles.stateFile, "utf8")) as { pending_operations?: PendingOperation[] }).pending_operations ?? [])
          : [];
        outcome.pendingOperations = pending.map((op) => `${op.type} ${op.resource.urn.split("::").pop()}`);
        let up = await inProcess(stackFiles, "up");
        outcome.ups++;
        if (pending.length > 0) {
          const warning = up.diagnostics.find((line) => line.startsWith("warning: Attempting to deploy or update resources with"));
          assert.ok(warning, `the pending operations were not reported:\n${output(up)}`);
          for (const op of pending) assert.ok(warning.includes(`* ${op.resource.urn}, interrupted while ${op.type}`), warning);
        }
        // A failed run names each object made but never recorded; the user checks and deletes it (here: the test).
        while (up.exitCode !== 0) {
          const named = up.diagnostics.filter((line) => /^error: .*delete it/.test(line));
          assert.ok(named.length > 0, `a failure that names no object to adopt or delete:\n${output(up)}`);
          for (const line of named) {
            const [, url] = /\(DELETE (\S+),/.exec(line) ?? [];
            assert.ok(url, `no delete command in: ${line}`);
            const path = new URL(url).pathname;
            await emulatorCall(stackFiles.emulator, "DELETE", path);
            outcome.named.push(`${/^error: \S+ (\S+):/.exec(line)?.[1]}: deleted ${path}`);
          }
          assert.ok(outcome.ups < 3, output(up));
          up = await inProcess(stackFiles, "up");
          outcome.ups++;
        }
        // The creates were checked: clear them, as `pulumi refresh` does when told.
        const refresh = await inProcess(stackFiles, "refresh", { clearPendingCreates: true });
        assert.equal(refresh.exitCode, 0, output(refresh));
        const found = await tallyService(stackFiles.emulator, stackFiles.stateFile);
        outcome.duplicates = found.duplicates.length;
        outcome.orphans = found.orphans.length;
        assert.deepEqual({ duplicates: found.duplicates, orphans: found.orphans, missing: found.missing }, { duplicates: [], orphans: [], missing: [] }, JSON.stringify(outcome));
        assert.equal(found.objects, stackFiles.objects);
        const drift = await inProcess(stackFiles, "refresh", { drift: true });
        assert.equal(drift.exitCode, 0, output(drift));
        assert.equal((JSON.parse(readFileSync(stackFiles.stateFile, "utf8")) as { pending_operations?: unknown[] }).pending_operations, undefined);
      } finally {
        if (engine?.exitCode === null && engine.signalCode === null && engine.pid) process.kill(-engine.pid, "SIGKILL");
        await proxy.close();
        await stackFiles.emulator.close();
      }
    }
  });
});
