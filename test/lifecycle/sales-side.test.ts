// Issue 47's done-when program in TypeScript on the dynamic classes, on the real CLI: the same
// objects as the YAML program's (test/support/sales-side.ts) deploy with their references; a
// second up sends nothing; a change of each kind behind the program's back is drift (exit 7),
// repaired by up --refresh; the program with `adoptId` takes each object over by its id alone
// (the dynamic classes' import: `pulumi import` does not reach them) with a clean preview and no
// write; destroy leaves the account as found. (`pulumi-crm export` adopting each kind with no
// write: test/lifecycle/export.test.ts.)

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { installProgram } from "../../scripts/harness/packed-program";
import { writesByRoute, writesSince } from "../support/adoption";
import { emulatorRead, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { CliStack } from "../../scripts/harness/pulumi-cli";
import { accountAt, assertDestroyLeavesAsFound, declaredIn, itDeploysAndRepairs, salesSide } from "../support/sales-side";

describe("the sales, team and tracking side, TypeScript on the dynamic classes, on the real CLI", function () {
  this.timeout(20 * 60_000);
  let emulator: RunningEmulator;
  let program: string;
  let stack: CliStack;
  let found: Record<string, unknown>;
  let started = 0;
  const read = (path: string) => emulatorRead(emulator, path);

  before(async () => {
    started = Date.now();
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    found = await accountAt(emulator);
    program = installProgram(join(__dirname, "programs", "sales-side"), "lifecycle-sales-side", { typeCheck: "once" });
    stack = await CliStack.create(program, "dev", stackOnEmulator(emulator));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
    console.log(`      typescript sales side: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  itDeploysAndRepairs(
    () => ({ stack, emulator }),
    (className) => `pulumi-nodejs:dynamic/crm:${className}`,
  );

  it("the pipeline holds its three stages only, in order, and refers to the group and the user", async () => {
    const made = declaredIn(stack);
    const pipelineId = made.get("sales")!.id!;
    const stages = (await read(`/dealStages?filters[d_groupid]=${pipelineId}`)).dealStages
      .sort((a: { order: string }, b: { order: string }) => Number(a.order) - Number(b.order))
      .map((stage: { title: string }) => stage.title);
    assert.deepEqual(stages, ["Qualified", "Proposal", "Won"]);
    const [userId, groupId] = [made.get("ada")!.id!, made.get("reps")!.id!];
    assert.equal((await read(`/users/${userId}/userGroup`)).userGroup.groupid, groupId);
    assert.deepEqual(
      (await read(`/dealGroups/${pipelineId}/dealGroupUsers`)).dealGroupUsers.map((row: { user: string }) => row.user),
      [userId],
    );
  });

  it("the program with adoptId takes each object over by its id alone: a clean preview, and no write", async () => {
    const ids = Object.fromEntries([...declaredIn(stack)].map(([name, resource]) => [name, resource.id!]));
    assert.deepEqual(Object.keys(ids).sort(), salesSide.map((object) => object.name).sort());
    const adopting = await CliStack.create(program, "adopting", stackOnEmulator(emulator, { "sales-side:adoptIds": JSON.stringify(ids) }));
    try {
      const preview = await adopting.preview("--diff");
      assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
      const writesBefore = await writesByRoute(emulator);
      const up = await adopting.up("--skip-preview");
      assert.equal(up.exitCode, 0, up.lines.join("\n"));
      assert.deepEqual(await writesSince(emulator, writesBefore), {});
      const adopted = [...declaredIn(adopting)].map(([name, resource]) => [name, resource.id]);
      assert.deepEqual(Object.fromEntries(adopted), ids);
      assert.equal((await adopting.driftCheck()).exitCode, 0);
    } finally {
      // Left without a destroy: the objects are the first stack's.
      adopting.remove();
    }
  });

  it("destroy leaves the account as found, the switches as they were", () => assertDestroyLeavesAsFound(stack, emulator, found));
});
