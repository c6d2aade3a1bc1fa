// The `pulumi` CLI killed with SIGKILL in the middle of an `up` of every CRM object type, at kill
// points drawn from a fixed seed: the k-th request the service answers is done, and the CLI dies
// before the answer reaches it (the worst moment: the service made or changed the object, the
// state never hears of it). Then what a user does next, each step on the real CLI:
// - a kill while the file backend saves the state can leave its sidecar empty: `up` fails with
//   "failed to load checkpoint: EOF" until the empty sidecar is deleted (see recoverStateSidecar);
// - the kill leaves the stack locked: `up` fails, naming the lock and `pulumi cancel`;
// - `pulumi stack export` shows the pending operations, `pulumi cancel` removes the lock;
// - the next `up` warns of each pending create; whatever the service made but the state never
//   recorded fails its resource, named with its id for adoptId and the request that deletes it
//   (nothing tells the provider whose it is, so it never takes it back on its own); here the test
//   deletes it, and `up` converges: the service holds exactly the declared objects (no duplicate,
//   no orphan), and the drift check finds nothing;
// - pending creates outlive the `up`s; they are cleared by `refresh --clear-pending-creates` or
//   by `stack export` then `stack import` (the kill points take turns), while
//   `refresh --import-pending-creates` drops one without taking its object into the state.
// The kill reaches the CLI alone: the program, the language host and the provider host it started
// live on. The program ends with its connection to the CLI; the provider host finishes every
// create it had begun (most leftovers are its work, after the kill) and then idles, as does the
// language host. The test waits for the program to end and for the service to hear nothing more,
// then ends the hosts, before it counts. Each outcome printed says what they did.
//
// CI deploys 1 copy of each type (24 objects, see test/support/every-resource.ts) killed at
// 3 points, some 12 CLI runs a point (1 to 2 minutes on 2 busy cores); `npm run soak`
// (RELIABILITY_SOAK=1) deploys 7 copies (168 objects) killed at 10 points.

import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { existsSync, rmSync, statSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { mulberry32 } from "../../emulator/src/shared/random";
import { emulatorCall, requestCount } from "../../scripts/harness/emulator";
import { installProgram } from "../../scripts/harness/packed-program";
import { descendantsOf, isRunning, type ProcessInfo, waitUntilEnded } from "../../scripts/harness/process-tree";
import { type CliResult, CliStack, diagnostics, resourceErrors } from "../../scripts/harness/pulumi-cli";
import { type RecordingProxy, startRecordingProxy } from "../support/recording-proxy";
import { everyResourceStack } from "../support/every-resource";
import { tallyService } from "../support/service-tally";

const soak = process.env.RELIABILITY_SOAK === "1";
const copies = soak ? 7 : 1;
const killPointCount = soak ? 10 : 3;
const seed = 12;

/** The ways to clear pending creates once every object they name is settled; kill points take turns. */
const clearings = ["refresh --clear-pending-creates", "stack export, then stack import"] as const;

/** What the CLI left running when it was killed, and what it did until the test ended it. */
interface Orphans {
  /** Each process, by role: ended by itself, or ended by the test once the service was quiet. */
  processes: string[];
  /** Requests the service answered after the kill. */
  requests: string[];
}

interface Outcome {
  killAt: number;
  killedAt?: string;
  orphans?: Orphans;
  pendingOperations: string[];
  /** Objects the `up`s named as made but never recorded, and how each was resolved. */
  named: string[];
  ups: number;
  clearedBy?: string;
  /** How the state file's sidecar was left: whole, or cut short by the kill (or by the test, once). */
  stateSidecar?: string;
  duplicates: number;
  orphanObjects: number;
}

/** The part a process plays, from its command line. */
function roleOf(command: string): string {
  if (command.includes("cmd/run")) return "the program";
  if (command.includes("language-host")) return "the language host";
  if (command.includes("dynamic-provider")) return "the provider host";
  if (command.includes("pulumi-resource-pulumi-nodejs")) return "the provider host's launcher";
  return command;
}

/** Waits until the service has answered nothing for `quietMs`. */
async function untilQuiet(proxy: RecordingProxy, quietMs: number): Promise<void> {
  for (let seen = -1; seen !== proxy.requests.length; ) {
    seen = proxy.requests.length;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

/**
 * The processes the killed CLI left: the program is waited for (it ends when its connection to
 * the CLI breaks), the plugin hosts until the service has heard nothing from them for 3 s (they
 * serve on with no one to serve), then ended.
 */
async function settleOrphans(left: ProcessInfo[], proxy: RecordingProxy, requestsAtKill: number): Promise<Orphans> {
  const program = left.filter((orphan) => roleOf(orphan.command) === "the program").map((orphan) => orphan.pid);
  await waitUntilEnded(program, 30_000);
  await untilQuiet(proxy, 3_000);
  const running = left.filter((orphan) => isRunning(orphan.pid)).map((orphan) => orphan.pid);
  for (const pid of running) process.kill(pid, "SIGKILL");
  assert.deepEqual(await waitUntilEnded(running, 10_000), [], "a process the CLI left did not end");
  return {
    processes: left.map(({ pid, command }) => `${roleOf(command)}: ${running.includes(pid) ? "still running, ended by the test" : "ended by itself"}`),
    requests: proxy.requests.slice(requestsAtKill).map((request) => `${request.method} ${request.path}${request.query}`),
  };
}

describe(`reliability: the pulumi CLI killed mid-deployment, ${copies} copies of every CRM object type, ${killPointCount} kill points`, function () {
  this.timeout(soak ? 7_200_000 : 1_200_000);
  let program: string;
  let requestsOfOneUp: number;
  const outcomes: Outcome[] = [];
  /** The resource whose pending create `refresh --import-pending-creates` was tried on (once). */
  let importTriedOn: string | undefined;

  before(() => {
    program = installProgram(join(__dirname, "programs", "every-resource"), "reliability-killed", { typeCheck: "once" });
  });
  after(() => {
    console.log(`      requests of an uninterrupted up: ${requestsOfOneUp}`);
    for (const outcome of outcomes) console.log(`      ${JSON.stringify(outcome)}`);
  });

  /** A fresh service with the contacts the program names, behind a proxy, and a fresh stack that declares every object. */
  async function freshStack(name: string, intercept?: Parameters<typeof startRecordingProxy>[1]) {
    const emulator = await startEmulator({ port: 0, rateLimit: 0 });
    const proxy = await startRecordingProxy(emulator.crmUrl, intercept);
    const contactIds: string[] = [];
    for (let n = 1; n <= copies; n++) {
      contactIds.push((await emulatorCall(emulator, "POST", "/api/3/contacts", { contact: { email: `killed-${n}@example.com` } })).body.contact.id);
    }
    const declared = everyResourceStack(copies, contactIds);
    const stack = await CliStack.create(program, name, {
      config: { "crm:apiUrl": proxy.url, "crm:requestsPerSecond": "0", ...declared.config },
      secrets: { "crm:apiToken": emulator.apiToken },
    });
    return { emulator, proxy, stack, objects: declared.objects };
  }

  const output = (result: CliResult) => result.lines.join("\n");
  const pendingOperations = async (stack: CliStack) => (await stack.exported()).deployment.pending_operations ?? [];

  // The preview runs here only: a preview of this program sends no request (it would take no kill
  // point), and its Check and Diff calls, on values unknown, are not what the kills are about.
  it("an uninterrupted up, preview included, whose request count bounds the kill points", async () => {
    const { emulator, proxy, stack } = await freshStack("baseline");
    try {
      const before = await requestCount(emulator);
      const up = await stack.up();
      assert.equal(up.exitCode, 0, output(up));
      requestsOfOneUp = (await requestCount(emulator)) - before;
    } finally {
      stack.remove();
      await proxy.close();
      await emulator.close();
    }
  });

  it(`each of ${killPointCount} kills: a locked stack, pending creates, what was never recorded named, and convergence`, async () => {
    const random = mulberry32(seed);
    // Coalesced reads make the count vary a little with timing: the last tenth is left out, so that every run is killed.
    const killPoints = Array.from({ length: killPointCount }, () => 1 + Math.floor(random() * Math.floor(requestsOfOneUp * 0.9)));
    for (const [turn, killAt] of killPoints.entries()) {
      let cli: ChildProcess | undefined;
      const kill: { request?: string; left: ProcessInfo[]; requestsAtKill: number } = { left: [], requestsAtKill: 0 };
      const { emulator, proxy, stack, objects } = await freshStack(`kill-${turn + 1}`, (answered, request, status) => {
        if (answered !== killAt || !cli?.pid) return false;
        // Read before the kill: the CLI's children are then handed to init, and are no longer its.
        kill.left = descendantsOf(cli.pid);
        kill.request = `${request.method} ${request.path} -> ${status}`;
        kill.requestsAtKill = proxy.requests.length;
        process.kill(cli.pid, "SIGKILL");
        return true;
      });
      const outcome: Outcome = { killAt, pendingOperations: [], named: [], ups: 0, duplicates: 0, orphanObjects: 0 };
      outcomes.push(outcome);
      try {
        await stack.run(["up", "--yes", "--skip-preview"], { onStarted: (child) => (cli = child) });
        outcome.killedAt = kill.request;
        assert.equal(cli!.signalCode, "SIGKILL", `the up finished before ${killAt} requests`);
        outcome.orphans = await settleOrphans(kill.left, proxy, kill.requestsAtKill);

        const before = await requestCount(emulator);
        outcome.stateSidecar = await recoverStateSidecar(stack, turn === 0);
        // The killed run's lock is left: the next run stops at it, and asks nothing of the service.
        const locked = await stack.up("--skip-preview");
        assert.equal(locked.exitCode, 1, output(locked));
        assert.match(
          locked.stderr,
          /error: the stack is currently locked by 1 lock\(s\)\. Either wait for the other process\(es\) to end or delete the lock file with `pulumi cancel`\./,
        );
        assert.equal(await requestCount(emulator), before);
        // The kill came while the provider worked on a create: the state holds it pending.
        const pending = await pendingOperations(stack);
        outcome.pendingOperations = pending.map((op) => `${op.type} ${op.resource.urn.split("::").pop()}`);
        assert.ok(pending.length > 0, "no pending operation in the state of the killed run");
        assert.deepEqual(new Set(pending.map((op) => op.type)), new Set(["creating"]));
        const cancel = await stack.succeed(["cancel", "--yes"]);
        assert.match(cancel.stdout, new RegExp(`The currently running update for '${stack.name}' has been canceled!`));

        let up = await stack.up("--skip-preview");
        outcome.ups++;
        const warning = diagnostics(up, "warning");
        assert.match(
          warning,
          new RegExp(`Attempting to deploy or update resources with ${pending.length} pending operations from previous deployment\\.`),
          output(up),
        );
        for (const op of pending) assert.ok(warning.includes(`* ${op.resource.urn}, interrupted while ${op.type}`), warning);
        // A failed run names each object made but never recorded; the user checks and deletes it (here: the test).
        while (up.exitCode !== 0) {
          const named = resourceErrors(up);
          assert.ok(named.length > 0, `a failure that names no object to adopt or delete:\n${output(up)}`);
          for (const { message, urn } of named) {
            const [, url] = /delete it \(DELETE (\S+),/.exec(message) ?? [];
            const [, id] = /adoptId: "([^"]+)"/.exec(message) ?? [];
            assert.ok(url && id, `no adoptId or delete command in: ${message}`);
            if (!importTriedOn && (await importPendingCreate(stack, urn, id))) importTriedOn = urn;
            const path = new URL(url).pathname;
            await emulatorCall(emulator, "DELETE", path);
            outcome.named.push(`${urn.split("::").pop()}: deleted ${path}`);
          }
          // Each failed up names at least one object of a pending create.
          assert.ok(outcome.ups <= pending.length, output(up));
          up = await stack.up("--skip-preview");
          outcome.ups++;
        }

        // Pending creates outlive a successful up; every object they name settled, they can go.
        const remaining = (await pendingOperations(stack)).map((op) => op.resource.urn);
        assert.deepEqual(
          remaining.sort(),
          pending
            .map((op) => op.resource.urn)
            .filter((urn) => urn !== importTriedOn)
            .sort(),
        );
        outcome.clearedBy = clearings[turn % clearings.length];
        if (outcome.clearedBy === "refresh --clear-pending-creates") {
          const refresh = await stack.refresh("--clear-pending-creates", "--skip-preview");
          assert.equal(refresh.exitCode, 0, output(refresh));
        } else {
          const exported = join(stack.home, "exported.json");
          await stack.succeed(["stack", "export", "--file", exported]);
          const imported = await stack.succeed(["stack", "import", "--file", exported]);
          const removed = [...imported.stderr.matchAll(/warning: removing pending operation 'creating' on '(\S+)' from snapshot/g)].map((match) => match[1]);
          assert.deepEqual(removed.sort(), remaining);
        }
        assert.deepEqual(await pendingOperations(stack), []);

        const found = await tallyService(emulator, stack.resources());
        outcome.duplicates = found.duplicates.length;
        outcome.orphanObjects = found.orphans.length;
        assert.deepEqual(
          { duplicates: found.duplicates, orphans: found.orphans, missing: found.missing },
          { duplicates: [], orphans: [], missing: [] },
          JSON.stringify(outcome),
        );
        assert.equal(found.objects, objects);
        const drift = await stack.driftCheck();
        assert.equal(drift.exitCode, 0, output(drift));
        if (turn === 0) assert.ok(importTriedOn, "no object named had a pending create to try --import-pending-creates on");
      } finally {
        if (cli?.pid && isRunning(cli.pid)) process.kill(cli.pid, "SIGKILL");
        for (const { pid } of kill.left) if (isRunning(pid)) process.kill(pid, "SIGKILL");
        stack.remove();
        await proxy.close();
        await emulator.close();
      }
    }
  });
});

/**
 * The file backend saves the state in two writes: first, in place, the sidecar `<stack>.json.attrs`
 * (its content type and checksum: gocloud.dev's fileblob truncates it, then writes it), then the new
 * state under a temporary name, moved over the old one. A kill between the truncation and the write
 * leaves the sidecar empty: the state is whole (the save before), but every command then fails with
 * `error: failed to load checkpoint: EOF`. Kills early in a first up hit that now and then; the first
 * kill point makes it certain by truncating the sidecar as that kill does. What sdk-docs tells users,
 * deleting the empty sidecar, is then tried: the stack reads again, and the lock is next.
 */
async function recoverStateSidecar(stack: CliStack, cutShortOnPurpose: boolean): Promise<string> {
  const sidecar = `${stack.stateFile()}.attrs`;
  assert.ok(existsSync(sidecar), `no sidecar ${sidecar}: the file backend no longer writes one, and this test's premise is gone`);
  const cutShortByKill = statSync(sidecar).size === 0;
  if (!cutShortByKill && !cutShortOnPurpose) return "whole";
  if (!cutShortByKill) truncateSync(sidecar);
  // Every command fails, `pulumi cancel` (what the lock's message advises) included.
  for (const args of [
    ["up", "--yes", "--skip-preview"],
    ["cancel", "--yes"],
  ]) {
    const unreadable = await stack.run(args);
    assert.equal(unreadable.exitCode, 1, unreadable.lines.join("\n"));
    assert.match(unreadable.stderr, /^error: failed to load checkpoint: EOF$/m);
  }
  rmSync(sidecar);
  return `${cutShortByKill ? "cut short by the kill" : "cut short by the test"}, deleted`;
}

/**
 * What `refresh --import-pending-creates URN ID` does with an object the error named: it drops
 * the pending create, and the resource is not in the state: the object is not taken over. False
 * where the resource has no pending create.
 */
async function importPendingCreate(stack: CliStack, urn: string, id: string): Promise<boolean> {
  const pending = (await stack.exported()).deployment.pending_operations ?? [];
  if (!pending.some((op) => op.resource.urn === urn)) return false;
  const refresh = await stack.run(["refresh", "--yes", "--skip-preview", "--import-pending-creates", urn, "--import-pending-creates", id]);
  assert.equal(refresh.exitCode, 0, refresh.lines.join("\n"));
  const after = (await stack.exported()).deployment;
  assert.ok(!(after.pending_operations ?? []).some((op) => op.resource.urn === urn), "the pending create is still there");
  assert.ok(!(after.resources ?? []).some((resource) => resource.urn === urn), "the object was taken into the state");
  return true;
}
