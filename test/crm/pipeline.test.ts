import assert from "node:assert/strict";
import * as provider from "../../provider/crm/pipeline";
import { emulatorCall } from "../../scripts/harness/emulator";
import { assertUpdateHeld, checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

const sales = { title: "Sales", currency: "usd" };

describeResource(
  {
    type: "crm.Pipeline",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      existing: async ({ emulator }) => {
        const dealGroup = { title: "Renewals", currency: "eur", allgroups: 1, allusers: 0, autoassign: 1 };
        const id = (await emulatorCall(emulator, "POST", "/api/3/dealGroups", { dealGroup })).body.dealGroup.id;
        return { id, inputs: { title: "Renewals", currency: "eur", allUserGroups: true, allUsers: false, autoAssign: "roundRobin" } };
      },
      changes: { title: "Renewals 2027", autoAssign: "byValue", allUserGroups: false },
      updateRoute: "PUT /api/3/dealGroups/:id",
    },
    badInputs: [
      [{ currency: "usd" }, "title", /^crm\.Pipeline: title is required: the pipeline's title/],
      [{ title: "Sales" }, "currency", /^crm\.Pipeline "Sales": currency is required: a 3-letter currency code, such as usd/],
      [{ title: "Sales", currency: "USD" }, "currency", /currency must be a 3-letter currency code in lower case, such as usd/],
      [{ ...sales, autoAssign: "random" }, "autoAssign", /autoAssign must be one of off, roundRobin, byValue/],
      [{ ...sales, allUsers: "yes" }, "allUsers", /allUsers must be true or false/],
      [{ ...sales, userIds: ["ada"] }, "userIds.0", /must be the id of a user/],
    ],
    roundTrip: {
      inputs: [sales, { title: "Partners", currency: "eur", allUserGroups: false, allUsers: true, autoAssign: "off" }],
      readInputs: (inputs) => ({ allUserGroups: true, allUsers: false, autoAssign: "roundRobin", ...inputs }),
    },
  },
  (service) => {
    it("removes the three stages the service makes with a pipeline: its stages are the declared ones", async () => {
      const created = await provider.create(await checked(provider, sales));
      const { dealGroup } = (await emulatorCall(service.emulator, "GET", `/api/3/dealGroups/${created.id}`)).body;
      assert.deepEqual(dealGroup.stages, []);
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/dealStages?filters[d_groupid]=${created.id}`)).body.dealStages.length, 0);
    });

    it("assigns deals to its users and is managed by its groups, read from its links; clears them when unset; finds one added behind its back", async () => {
      const group = String((await emulatorCall(service.emulator, "POST", "/api/3/groups", { group: { title: "Reps" } })).body.group.id);
      const user = async (username: string) =>
        String(
          (await emulatorCall(service.emulator, "POST", "/api/3/users", { user: { username, email: `${username}@acme.example`, group: Number(group) } })).body
            .user.id,
        );
      const [ada, grace] = [await user("ada"), await user("grace")];
      const declared = { ...sales, allUserGroups: false, userIds: [grace, ada, ada], userGroupIds: [group] };
      const created = await provider.create(await checked(provider, declared));
      assert.deepEqual([created.outs.userIds, created.outs.userGroupIds], [[ada, grace].sort((a, b) => Number(a) - Number(b)), [group]]);
      assert.deepEqual((await provider.read(created.id, created.outs)).props, created.outs);
      const imported = await provider.read(created.id, {});
      assert.deepEqual([imported.inputs?.userIds, imported.inputs?.userGroupIds], [created.outs.userIds, [group]]);
      const cleared = await provider.update(created.id, created.outs, await checked(provider, { ...sales, allUserGroups: false }));
      await assertUpdateHeld(provider, created.id, cleared.outs, { userIds: undefined, userGroupIds: undefined });
      await emulatorCall(service.emulator, "PUT", `/api/3/dealGroups/${created.id}`, { dealGroup: { users: [ada] } });
      const drifted = await provider.read(created.id, cleared.outs);
      assert.deepEqual(drifted.props?.userIds, [ada]);
      assert.equal((await provider.diff(created.id, drifted.props!, await checked(provider, { ...sales, allUserGroups: false }))).changes, true);
    });

    it("updates in place and finds the auto-assignment changed behind its back", async () => {
      const created = await provider.create(await checked(provider, sales));
      const news = await checked(provider, { ...sales, autoAssign: "off" });
      assert.deepEqual((await provider.diff(created.id, created.outs, news)).replaces, []);
      const { outs } = await provider.update(created.id, created.outs, news);
      await assertUpdateHeld(provider, created.id, outs, { autoAssign: "off" });
      await emulatorCall(service.emulator, "PUT", `/api/3/dealGroups/${created.id}`, { dealGroup: { autoassign: 2 } });
      const drifted = await provider.read(created.id, outs);
      assert.equal(drifted.props?.autoAssign, "byValue");
      assert.equal((await provider.diff(created.id, drifted.props!, news)).changes, true);
    });
  },
);
