// The sales side's lookups against the emulator: pipelines, user groups and users, each by its
// name and by a text its name contains, typed; one walk of a collection for a run's lookups of it.

import assert from "node:assert/strict";
import { crm } from "../../provider";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, emulatorForProvider, emulatorStats, type RunningEmulator } from "../../scripts/harness/emulator";

describe("crm lookups of pipelines, user groups and users", () => {
  let emulator: RunningEmulator;
  const ids: Record<string, string> = {};

  before(async () => {
    emulator = await emulatorForProvider();
    useStackConfig(configOf({ "crm:apiUrl": emulator.crmUrl, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
    const post = async (path: string, member: string, body: Record<string, unknown>) =>
      String((await emulatorCall(emulator, "POST", `/api/3/${path}`, { [member]: body })).body[member].id);
    ids.sales = await post("dealGroups", "dealGroup", { title: "Sales", currency: "usd" });
    ids.partners = await post("dealGroups", "dealGroup", { title: "Partner sales", currency: "eur" });
    ids.reps = await post("groups", "group", { title: "Reps", descript: "The sales team" });
    ids.ada = await post("users", "user", {
      username: "Ada",
      email: "ada@acme.example",
      firstName: "Ada",
      lastName: "Lovelace",
      group: Number(ids.reps),
      password: "never answered",
    });
    ids.grace = await post("users", "user", { username: "grace", email: "grace@acme.example", firstName: "Grace", group: Number(ids.reps) });
  });
  after(() => emulator.close());

  it("find a pipeline by its exact title, with its stages, and those whose title contains a text", async () => {
    const sales = await crm.getPipeline({ name: "Sales" });
    assert.deepEqual({ ...sales, cdate: null }, { id: ids.sales, title: "Sales", currency: "usd", stageIds: sales.stageIds, cdate: null });
    assert.equal(sales.stageIds.length, 3);
    assert.deepEqual(
      (await crm.getPipelines({ nameContains: "SALES" })).pipelines.map((pipeline) => pipeline.id),
      [ids.sales, ids.partners],
    );
    await assert.rejects(crm.getPipeline({ name: "sales" }), /^.*crm\.getPipeline: no pipeline has the name "sales"/);
  });

  it("find a user group by its title, and a user by its username regardless of case, typed, never with a password", async () => {
    assert.deepEqual(await crm.getUserGroup({ name: "Reps" }), { id: ids.reps, title: "Reps", description: "The sales team" });
    const ada = await crm.getUser({ name: "ADA" });
    assert.deepEqual(ada, { id: ids.ada, username: "Ada", email: "ada@acme.example", firstName: "Ada", lastName: "Lovelace" });
    assert.deepEqual(await crm.getUser({ id: ids.grace }), {
      id: ids.grace,
      username: "grace",
      email: "grace@acme.example",
      firstName: "Grace",
      lastName: null,
    });
    assert.deepEqual(
      (await crm.getUsers({ nameContains: "gra" })).users.map((user) => user.id),
      [ids.grace],
    );
    // The account's own admins' group comes first.
    assert.deepEqual(
      (await crm.getUserGroups()).groups.map((group) => group.title),
      ["Admin", "Reps"],
    );
    assert.equal((await crm.getUser({ name: "admin" })).id, "1");
  });

  it("find a user by its email address regardless of case, and refuse two keys at once before any request", async () => {
    assert.equal((await crm.getUser({ email: "GRACE@acme.example" })).id, ids.grace);
    await assert.rejects(crm.getUser({ email: "nobody@acme.example" }), /crm\.getUser: no user has the email "nobody@acme\.example"/);
    const before = (await emulatorStats(emulator)).requests;
    await assert.rejects(
      crm.getUser({ email: "grace@acme.example", name: "grace" } as never),
      /crm\.getUser: give one of the id, the name or the email of the user/,
    );
    assert.equal((await emulatorStats(emulator)).requests, before);
  });

  it("read each collection once however many lookups of it a run makes", async () => {
    const before = (await emulatorStats(emulator)).byRoute["GET /api/3/users"] ?? 0;
    await crm.getUser({ name: "grace" });
    await crm.getUsers();
    assert.equal(((await emulatorStats(emulator)).byRoute["GET /api/3/users"] ?? 0) - before, 0);
  });
});
