import assert from "node:assert/strict";
import * as provider from "../../provider/crm/user-group";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall } from "../../scripts/harness/emulator";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

/** Every permission false: what the group holds of those the program leaves out. */
const everyOff: Record<string, boolean> = provider.inputSchema.shape.permissions.parse({});
const reps = { title: "Sales reps", permissions: { contactAdd: true, deal: true } };

describeResource(
  {
    type: "crm.UserGroup",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      existing: async ({ emulator }) => {
        const group = { title: "Editors", descript: "Edit content", pgMessageAdd: true, pgMessageEdit: true };
        const id = (await emulatorCall(emulator, "POST", "/api/3/groups", { group })).body.group.id;
        return { id, inputs: { title: "Editors", description: "Edit content", permissions: { messageAdd: true, messageEdit: true } } };
      },
      changes: { permissions: { ...everyOff, messageAdd: true } },
      updateRoute: "PUT /api/3/groups/:id",
    },
    badInputs: [
      [{}, "title", /^crm\.UserGroup: title is required: the group's title/],
      [{ title: "Reps", permissions: { contactAdd: "yes" } }, "permissions.contactAdd", /must be true or false/],
      [{ title: "Reps", permissions: { fly: true } }, "permissions.fly", /fly is not a field of the permissions; the fields are: listAdd, /],
    ],
    roundTrip: {
      inputs: [
        reps,
        { title: "Admins", description: "Everything", forceUnsubscribeLink: true, permissions: { userAdd: true, groupEdit: true, tagManage: true } },
      ],
      readInputs: (inputs) => ({
        forceUnsubscribeLink: false,
        forceOptInConfirmation: false,
        ...inputs,
        permissions: { ...everyOff, ...(inputs.permissions as object) },
      }),
    },
  },
  (service) => {
    it("sends each permission as the group's own pg* member, finds one granted behind its back, and takes it back", async () => {
      const created = await provider.create(await checked(provider, reps));
      const { group } = (await emulatorCall(service.emulator, "GET", `/api/3/groups/${created.id}`)).body;
      assert.deepEqual([group.pgContactAdd, group.pgDeal, group.pg_user_add, group.permissions], ["1", "1", "0", undefined]);
      await emulatorCall(service.emulator, "PUT", `/api/3/groups/${created.id}`, { group: { pg_user_add: true } });
      const drifted = await provider.read(created.id, created.outs);
      assert.equal((drifted.props?.permissions as Record<string, boolean> | undefined)?.userAdd, true);
      const news = await checked(provider, reps);
      const changes = await provider.diff(created.id, drifted.props!, news);
      assert.deepEqual([changes.changes, changes.replaces], [true, []]);
      const { outs } = await provider.update(created.id, drifted.props!, news);
      assert.deepEqual(
        [
          (outs.permissions as Record<string, boolean>).userAdd,
          (await emulatorCall(service.emulator, "GET", `/api/3/groups/${created.id}`)).body.group.pg_user_add,
        ],
        [false, "0"],
      );
    });

    it("takes the service's 403 \"No Result found for Group\" as the group gone; a refused key's 403 stays a refused key", async () => {
      const created = await provider.create(await checked(provider, reps));
      await emulatorCall(service.emulator, "DELETE", `/api/3/groups/${created.id}`);
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/groups/${created.id}`)).status, 403);
      // A refresh drops it, a delete finds it done, an update says where it went.
      assert.equal((await provider.read(created.id, created.outs)).id, undefined);
      await provider.delete(created.id, created.outs);
      await assert.rejects(
        provider.update(created.id, created.outs, await checked(provider, { ...reps, title: "Reps" })),
        /answered 404: No Result found for Group with id \d+; it no longer exists in the account; run `pulumi refresh`/,
      );
      useStackConfig(configOf({ "crm:apiUrl": service.proxy.url, "crm:apiToken": "not-the-key", "crm:requestsPerSecond": "0" }));
      await assert.rejects(provider.read(created.id, created.outs), /answered 403.*the service refused the key in crm:apiToken/);
    });
  },
);
