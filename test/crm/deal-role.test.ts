import assert from "node:assert/strict";
import * as provider from "../../provider/crm/deal-role";
import { emulatorCall } from "../../scripts/harness/emulator";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

describeResource(
  {
    type: "crm.DealRole",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      // The reference's create takes the title at the top of the body.
      existing: async ({ emulator }) => ({
        id: (await emulatorCall(emulator, "POST", "/api/3/dealRoles", { title: "Finance" })).body.dealRole.id,
        inputs: { title: "Finance" },
      }),
    },
    badInputs: [
      [{}, "title", /^crm\.DealRole: title is required: the role's title/],
      [{ title: "" }, "title", /title must not be blank/],
    ],
    roundTrip: { inputs: [{ title: "Legal" }, { title: "Champion" }] },
  },
  (service) => {
    it("reads a role from the list, the service having no read of one, among many, and finds it gone once deleted behind its back", async () => {
      const made = [];
      for (const title of ["Champion", "Buyer", "Finance"]) made.push(await provider.create(await checked(provider, { title })));
      for (let n = 0; n < 120; n++) await emulatorCall(service.emulator, "POST", "/api/3/dealRoles", { title: `Filler ${n}` });
      const last = await provider.create(await checked(provider, { title: "Legal" }));
      assert.deepEqual((await provider.read(last.id, last.outs)).props, last.outs);
      assert.deepEqual((await provider.read(made[1].id, made[1].outs)).props, made[1].outs);
      await emulatorCall(service.emulator, "DELETE", `/api/3/dealRoles/${last.id}`);
      assert.deepEqual(await provider.read(last.id, last.outs), {});
    });

    it("takes over a role every account comes with by its title, with no write, and leaves it in place on delete", async () => {
      const before = (await emulatorCall(service.emulator, "GET", "/api/3/dealRoles")).body.dealRoles;
      const taken = await provider.create(await checked(provider, { title: "Decision Maker" }));
      assert.equal(taken.id, before.find((role: { title: string }) => role.title === "Decision Maker").id);
      await provider.delete(taken.id, taken.outs);
      assert.deepEqual((await emulatorCall(service.emulator, "GET", "/api/3/dealRoles")).body.dealRoles, before);
    });

    it("replaces a role whose title changes, the service having no update", async () => {
      const created = await provider.create(await checked(provider, { title: "Champion" }));
      const diff = await provider.diff(created.id, created.outs, await checked(provider, { title: "Sponsor" }));
      assert.deepEqual(diff.replaces, ["title"]);
    });
  },
);
