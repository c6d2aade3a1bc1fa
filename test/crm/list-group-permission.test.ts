import assert from "node:assert/strict";
import * as provider from "../../provider/crm/list-group-permission";
import { type Severity, withLog } from "../../provider/kit/log";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, emulatorForProvider, type RunningEmulator } from "../../scripts/harness/emulator";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount, type ResourceService } from "../support/describe-resource";
import { type RecordingProxy, startRecordingProxy } from "../support/recording-proxy";
import { makeList } from "../support/resource-examples";

/** What `call` logs. */
async function logged(call: () => Promise<unknown>): Promise<Array<[Severity, string]>> {
  const lines: Array<[Severity, string]> = [];
  await withLog((severity, message) => lines.push([severity, message]), call);
  return lines;
}

const newGroup = async (service: ResourceService, title: string) =>
  String((await emulatorCall(service.emulator, "POST", "/api/3/groups", { group: { title } })).body.group.id);

describeResource(
  {
    type: "crm.ListGroupPermission",
    provider,
    undeletable: true,
    beforeEach: async (service) => {
      await emptyAccount(service);
      return {
        list: await makeList(service.emulator, "news"),
        other: await makeList(service.emulator, "offers"),
        group: await newGroup(service, "Reps"),
      };
    },
    adoption: {
      existing: async ({ emulator, parents }) => ({
        id: (await emulatorCall(emulator, "POST", "/api/3/listGroups", { listGroup: { listid: Number(parents.other), groupid: Number(parents.group) } })).body
          .listGroup.id,
        inputs: { listId: parents.other, groupId: parents.group },
      }),
    },
    badInputs: [
      [{ groupId: "3" }, "listId", /^crm\.ListGroupPermission: listId is required: the id of a list/],
      [{ listId: "news", groupId: "3" }, "listId", /listId must be the id of a list/],
      [{ listId: "1" }, "groupId", /groupId is required: the id of a user group/],
    ],
    roundTrip: {
      inputs: ({ list, other, group }) => [
        { listId: list, groupId: group },
        { listId: other, groupId: "3" },
      ],
    },
  },
  (service) => {
    it("reads a permission through its group's listGroups link, and finds it gone with its group", async () => {
      const { list, group } = service.parents;
      const created = await provider.create(await checked(provider, { listId: list, groupId: group }));
      assert.deepEqual(created.outs, { listId: list, groupId: group });
      const paths = () => service.proxy.requests.map((request) => `${request.method} ${request.path}`);
      const before = paths().length;
      assert.deepEqual((await provider.read(created.id, created.outs)).props, created.outs);
      assert.deepEqual(paths().slice(before), [`GET /api/3/listGroups/${created.id}/group`, `GET /api/3/groups/${group}/listGroups`]);
      // An import, from the id alone.
      assert.deepEqual((await provider.read(created.id, {})).inputs, { listId: list, groupId: group });
      await emulatorCall(service.emulator, "DELETE", `/api/3/groups/${group}`);
      assert.deepEqual(await provider.read(created.id, created.outs), {});
    });

    it("replaces the permission on every change, the service having no update", async () => {
      const { list, other, group } = service.parents;
      const created = await provider.create(await checked(provider, { listId: list, groupId: group }));
      assert.deepEqual((await provider.diff(created.id, created.outs, await checked(provider, { listId: other, groupId: group }))).replaces, ["listId"]);
      assert.deepEqual((await provider.diff(created.id, created.outs, await checked(provider, { listId: list, groupId: "3" }))).replaces, ["groupId"]);
    });

    it("leaves the permission in the service on delete, with a warning saying so and how to delete it", async () => {
      const { list, group } = service.parents;
      const created = await provider.create(await checked(provider, { listId: list, groupId: group }));
      const before = service.proxy.requests.length;
      const lines = await logged(() => provider.delete(created.id, created.outs));
      assert.equal(service.proxy.requests.length, before, "no request: the service has no delete");
      assert.equal(lines.length, 1);
      assert.equal(lines[0][0], "warning");
      assert.match(
        lines[0][1],
        new RegExp(`^crm\\.ListGroupPermission of list ${list} for group ${group} \\(id ${created.id}\\): left in place in the service, which has no delete`),
      );
      assert.match(lines[0][1], /delete it in the service's UI/);
      const held = (await emulatorCall(service.emulator, "GET", `/api/3/groups/${group}/listGroups`)).body.listGroups;
      assert.deepEqual(
        held.map((permission: { id: string }) => permission.id),
        [created.id],
      );
    });
  },
);

describe("crm.ListGroupPermission: a create whose answer is lost", () => {
  let emulator: RunningEmulator;
  let proxy: RecordingProxy;
  // The first POST after dropNextPost is carried out by the service, and its answer dropped.
  let dropNextPost = false;

  before(async () => {
    emulator = await emulatorForProvider();
    proxy = await startRecordingProxy(emulator.crmUrl, (_answered, request) => {
      if (!dropNextPost || request.method !== "POST") return false;
      dropNextPost = false;
      return true;
    });
    useStackConfig(configOf({ "crm:apiUrl": proxy.url, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
  });
  after(async () => {
    await proxy?.close();
    await emulator?.close();
  });

  it("is found among its group's permissions, not made a second time", async () => {
    const list = await makeList(emulator, "news");
    const group = String((await emulatorCall(emulator, "POST", "/api/3/groups", { group: { title: "Reps" } })).body.group.id);
    dropNextPost = true;
    const created = await provider.create(await checked(provider, { listId: list, groupId: group }));
    assert.equal(dropNextPost, false, "the create's answer was dropped");
    const held = (await emulatorCall(emulator, "GET", `/api/3/groups/${group}/listGroups`)).body.listGroups;
    assert.deepEqual(
      held.map((permission: { id: string }) => String(permission.id)),
      [created.id],
    );
  });
});
