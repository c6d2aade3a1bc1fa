import assert from "node:assert/strict";
import * as provider from "../../provider/crm/custom-field-group-member";
import { emulatorCall } from "../../scripts/harness/emulator";
import { assertUpdateHeld, checked } from "../support/provider-steps";
import { describeResource, type ResourceService } from "../support/describe-resource";

/** A fresh account with two contact custom fields; the field group 1 every account has. */
async function twoFields({ emulator }: ResourceService): Promise<Record<string, string>> {
  await fetch(`${emulator.crmUrl}/__emulator/reset`, { method: "POST" });
  const field = async (title: string) => String((await emulatorCall(emulator, "POST", "/api/3/fields", { field: { title, type: "text" } })).body.field.id);
  return { plan: await field("Plan"), notes: await field("Notes") };
}

describeResource(
  {
    type: "crm.CustomFieldGroupMember",
    provider,
    beforeEach: twoFields,
    adoption: {
      // The reference's request carries the members at the top of the body.
      existing: async ({ emulator, parents }) => {
        const answer = await emulatorCall(emulator, "POST", "/api/3/groupMembers", { rel_id: Number(parents.notes), group_id: 1, ordernum: 5 });
        return { id: String(answer.body.groupMember.id), inputs: { fieldId: parents.notes, groupId: "1", order: 5 } };
      },
      changes: { order: 7 },
      updateRoute: "PUT /api/3/groupMembers/:groupId",
    },
    badInputs: [
      [{ groupId: "1" }, "fieldId", /^crm\.CustomFieldGroupMember: fieldId is required/],
      [{ fieldId: "3", groupId: "one" }, "groupId", /groupId must be/],
      [{ fieldId: "3", groupId: "1", order: -1 }, "order", /order must be a whole number from 0/],
    ],
    roundTrip: {
      inputs: (parents) => [
        { fieldId: parents.plan, groupId: "1", order: 3 },
        { fieldId: parents.notes, groupId: "1" },
      ],
    },
  },
  (service) => {
    it("leaves the position the service chose alone when order is unset, and moves the field in place", async () => {
      const created = await provider.create(await checked(provider, { fieldId: service.parents.plan, groupId: "1" }));
      const held = (await emulatorCall(service.emulator, "GET", `/api/3/groupMembers/${created.id}`)).body.groupMember;
      assert.equal(typeof held.ordernum, "number");
      assert.equal((await provider.diff(created.id, created.outs, await checked(provider, { fieldId: service.parents.plan, groupId: "1" }))).changes, false);
      const news = await checked(provider, { fieldId: service.parents.plan, groupId: "1", order: 9 });
      assert.deepEqual((await provider.diff(created.id, created.outs, news)).replaces, []);
      const { outs } = await provider.update(created.id, created.outs, news);
      await assertUpdateHeld(provider, created.id, outs, { order: 9 });
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/groupMembers/${created.id}`)).body.groupMember.ordernum, 9);
    });

    it("names an unknown field group as the service refuses it, and finds a member deleted behind its back gone", async () => {
      await assert.rejects(
        provider.create(await checked(provider, { fieldId: service.parents.plan, groupId: "94" })),
        /crm\.CustomFieldGroupMember .*GroupDefinition with id 94/,
      );
      const created = await provider.create(await checked(provider, { fieldId: service.parents.plan, groupId: "1" }));
      await emulatorCall(service.emulator, "DELETE", `/api/3/groupMembers/${created.id}`);
      assert.deepEqual(await provider.read(created.id, created.outs), {});
    });
  },
);
