// Issue 47's sales side on the real CLI, in TypeScript on the dynamic classes: a user group with
// a user, a pipeline with three stages referring to both, a task type and a custom object schema
// deploy with their references; a second up sends nothing; a stage renamed, the task type
// disabled, the user renamed and a schema's field relabelled behind the program's back are drift,
// named by field, and `up --refresh` repairs them; destroy leaves the account as found.

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { installProgram } from "../support/packed-program";
import { emulatorCallWhenAdmitted, emulatorRead, RunningEmulator, stackOnEmulator } from "../support/emulator";
import { assertNoOpUp } from "../support/plugin-program";
import { CHANGES_NOT_EXPECTED, CliStack } from "../support/pulumi-cli";

const salesSide = ["/dealGroups", "/dealStages", "/dealTasktypes", "/groups", "/users", "/customObjects/schemas"];

describe("the sales side, TypeScript on the dynamic classes, on the real CLI", function () {
  this.timeout(20 * 60_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  const read = (path: string) => emulatorRead(emulator, path);
  /** The list's root key: the path's last segment. */
  const collectionOf = (path: string) => path.split("/").at(-1)!;
  let found: Record<string, unknown[]>;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    found = Object.fromEntries(await Promise.all(salesSide.map(async (path) => [path, (await read(path))[collectionOf(path)]])));
    const program = installProgram(join(__dirname, "programs", "sales-side"), "lifecycle-sales-side", { typeCheck: "once" });
    stack = await CliStack.create(program, "dev", stackOnEmulator(emulator));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  it("up makes the group, the user in it, the pipeline of both with its three stages only, the task type and the schema", async () => {
    const up = await stack.up("--skip-preview");
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    const { pipelineId, reviewSchemaId } = await stack.outputs();
    assert.equal((await read(`/customObjects/schemas/${reviewSchemaId}`)).schema.slug, "deal-review");
    // Made in parallel: in the pipeline's order, not the order of their ids.
    const stages = (await read(`/dealStages?filters[d_groupid]=${pipelineId}`)).dealStages
      .sort((a: { order: string }, b: { order: string }) => Number(a.order) - Number(b.order))
      .map((stage: { title: string }) => stage.title);
    assert.deepEqual(stages, ["Qualified", "Proposal", "Won"]);
    const [user] = (await read("/users")).users;
    const [group] = (await read("/groups")).groups;
    assert.equal((await read(`/users/${user.id}/userGroup`)).userGroup.groupid, group.id);
    assert.deepEqual((await read(`/dealGroups/${pipelineId}/dealGroupUsers`)).dealGroupUsers.map((row: { user: string }) => row.user), [user.id]);
    assert.deepEqual((await read("/dealTasktypes")).dealTasktypes.map((type: { title: string }) => type.title), ["Demo"]);
  });

  it("a second up, its preview included, changes nothing and sends no request", () => assertNoOpUp(stack, emulator));

  it("a stage renamed, the task type disabled, the user renamed and a schema's field relabelled are drift, named by field, and up --refresh repairs them", async () => {
    const stage = (await read("/dealStages")).dealStages.find((found: { title: string }) => found.title === "Proposal");
    await emulatorCallWhenAdmitted(emulator, "PUT", `/api/3/dealStages/${stage.id}`, { dealStage: { title: "Offer" } });
    const [taskType] = (await read("/dealTasktypes")).dealTasktypes;
    await emulatorCallWhenAdmitted(emulator, "PUT", `/api/3/dealTasktypes/${taskType.id}`, { dealTasktype: { status: "1" } });
    const [user] = (await read("/users")).users;
    await emulatorCallWhenAdmitted(emulator, "PUT", `/api/3/users/${user.id}`, { user: { lastName: "Byron" } });
    const { reviewSchemaId } = await stack.outputs();
    const score = { id: "score", labels: { singular: "Rating", plural: "Ratings" }, type: "number" };
    await emulatorCallWhenAdmitted(emulator, "PUT", `/api/3/customObjects/schemas/${reviewSchemaId}`, { schema: { fields: [score] } });

    const check = await stack.driftCheck("--diff");
    assert.equal(check.exitCode, CHANGES_NOT_EXPECTED, check.lines.join("\n"));
    assert.match(check.stdout, /title\s*:\s*"Proposal" => "Offer"/);
    assert.match(check.stdout, /disabled\s*:\s*false => true/);
    assert.match(check.stdout, /lastName\s*:\s*"Lovelace" => "Byron"/);
    assert.match(check.stdout, /singular\s*:\s*"Score" => "Rating"/);
    assert.doesNotMatch(check.stdout + check.stderr, /correct horse battery/);

    const repair = await stack.up("--refresh", "--skip-preview");
    assert.equal(repair.exitCode, 0, repair.lines.join("\n"));
    assert.equal(repair.steps.update, 4, repair.lines.join("\n"));
    assert.equal((await stack.driftCheck()).exitCode, 0);
    assert.equal((await read(`/dealStages/${stage.id}`)).dealStage.title, "Proposal");
    assert.equal((await read(`/dealTasktypes/${taskType.id}`)).dealTasktype.status, "0");
    const fields = (await read(`/customObjects/schemas/${reviewSchemaId}`)).schema.fields;
    assert.deepEqual(fields.find((field: { id: string }) => field.id === "score").labels, { singular: "Score", plural: "Scores" });
  });

  it("destroy leaves the sales side of the account as found", async () => {
    const destroy = await stack.destroy("--skip-preview");
    assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
    for (const path of salesSide) assert.deepEqual((await read(path))[collectionOf(path)], found[path], path);
  });
});
