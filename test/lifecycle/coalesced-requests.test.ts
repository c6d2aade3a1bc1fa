// Requests a 150-account stack sends on the real `pulumi` CLI, at a fixed parallelism:
// refresh and destroy coalesce, so they cost a few requests instead of one per account.
// Counts, not times: the emulator's rate limit is off, and so is the provider's.

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { emulatorCall, emulatorStats, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { installProgram } from "../../scripts/harness/packed-program";
import { CHANGES_NOT_EXPECTED, type CliResult, CliStack } from "../../scripts/harness/pulumi-cli";

const accounts = 150;
/** The CLI's default on a 2-core machine (4 per CPU), fixed so that counts do not depend on the machine. */
const parallel = 8;

describe("coalesced requests of a 150-account stack on the pulumi CLI", function () {
  this.timeout(600_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  let started = 0;

  before(async () => {
    started = Date.now();
    emulator = await startEmulator({ port: 0, rateLimit: 0 });
    const program = installProgram(join(__dirname, "programs", "many-accounts"), "lifecycle-many-accounts", { typeCheck: "once" });
    stack = await CliStack.create(program, "dev", stackOnEmulator(emulator, { "crm:requestsPerSecond": "0", "many-accounts:count": String(accounts) }));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
    console.log(`      lifecycle suite: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  const atParallel = ["--parallel", String(parallel)];
  // up skips the preview (`up --skip-preview`): the accounts take no value from one another, so the
  // preview would see nothing unknown and make the update's own Check calls, and it sends no request.
  const up = () => stack.up("--skip-preview", ...atParallel);
  const driftCheck = () => stack.driftCheck(...atParallel);
  /** Runs the command and returns the requests it sent, by route; `what` names it in the figures printed. */
  const requestsOf = async (what: string, run: () => Promise<CliResult>, exitCode = 0) => {
    const before = await emulatorStats(emulator);
    const result = await run();
    assert.equal(result.exitCode, exitCode, result.lines.join("\n"));
    const after = await emulatorStats(emulator);
    const byRoute = Object.fromEntries(
      Object.entries(after.byRoute)
        .map(([route, count]) => [route, count - (before.byRoute[route] ?? 0)] as const)
        .filter(([, count]) => count > 0),
    );
    console.log(`      ${what}: ${after.requests - before.requests} requests ${JSON.stringify(byRoute)}`);
    return { result, total: after.requests - before.requests, byRoute };
  };
  const idOf = (name: string) => stack.resources().find((resource) => resource.outputs?.name === name)!.id!;

  it("up creates one account per request, and a no-op up sends none", async () => {
    assert.deepEqual((await requestsOf("up", up)).byRoute, { "POST /api/3/accounts": accounts });
    assert.equal((await requestsOf("no-op up", up)).total, 0);
  });

  it("a drift check reads the 150 accounts from 2 pages", async () => {
    const { result, byRoute } = await requestsOf("drift check", driftCheck);
    assert.equal(result.changes, false);
    assert.deepEqual(byRoute, { "GET /api/3/accounts": 2 });
  });

  it("a drift check still finds an account renamed and one deleted out of band, each confirmed", async () => {
    await emulatorCall(emulator, "PUT", `/api/3/accounts/${idOf("Bench account 7")}`, { account: { name: "Renamed out of band" } });
    await emulatorCall(emulator, "DELETE", `/api/3/accounts/${idOf("Bench account 90")}`);
    const { result, byRoute } = await requestsOf("drift check after changes out of band", driftCheck, CHANGES_NOT_EXPECTED);
    assert.deepEqual({ update: result.steps.update, delete: result.steps.delete }, { update: 1, delete: 1 });
    assert.ok(
      result.lines.some((line) => line.includes("account-7")),
      result.lines.join("\n"),
    );
    assert.ok(
      result.lines.some((line) => line.includes("account-90")),
      result.lines.join("\n"),
    );
    // Both pages, and the deleted account's own GET before it is declared gone.
    assert.deepEqual(byRoute, { "GET /api/3/accounts": 2, "GET /api/3/accounts/:id": 1 });
  });

  it("destroy deletes the accounts in bulk, mostly a request per group the CLI runs at once", async () => {
    assert.equal((await requestsOf("refresh", () => stack.refresh("--skip-preview", ...atParallel))).total, 3);
    const { result, byRoute } = await requestsOf("destroy", () => stack.destroy("--skip-preview", ...atParallel));
    // 149 accounts left after the refresh, plus the stack, which the CLI's summary counts too.
    const left = accounts - 1;
    assert.equal(result.steps.delete, accounts);
    assert.deepEqual((await emulatorCall(emulator, "GET", "/api/3/accounts")).body.accounts, []);
    // Deletes arrive P at a time, each batch closing its group once complete: ceil(149 / 8) = 19 bulk
    // deletes and no single one while the CLI keeps within the quiet window (the figures are printed
    // above; bench/stack.ts prints a destroy's requests at each size). Asserted is what a slow CLI
    // cannot break: only these two routes, no group beyond the CLI's parallelism; and, as a batch
    // splits only where the CLI pauses past the quiet between two deletes, fewer requests than half
    // the accounts.
    const bulkDeletes = byRoute["DELETE /api/3/accounts/bulk_delete"] ?? 0;
    const singleDeletes = byRoute["DELETE /api/3/accounts/:id"] ?? 0;
    assert.deepEqual(
      Object.keys(byRoute).filter((route) => !/^DELETE \/api\/3\/accounts\/(bulk_delete|:id)$/.test(route)),
      [],
    );
    assert.ok(bulkDeletes >= Math.ceil((left - singleDeletes) / parallel), `${bulkDeletes} bulk deletes for ${left - singleDeletes} accounts`);
    assert.ok(bulkDeletes + singleDeletes < left / 2, `${bulkDeletes} bulk and ${singleDeletes} single deletes for ${left} accounts`);
  });
});
