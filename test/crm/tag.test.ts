import assert from "node:assert/strict";
import * as provider from "../../provider/crm/tag";
import { DeclaredNames } from "../../provider/kit/unique-names";
import { emulatorCall } from "../../scripts/harness/emulator";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

describeResource(
  {
    type: "crm.Tag",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      existing: async ({ emulator }) => {
        const tag = { tag: "Gold", tagType: "contact", description: "Gold customers" };
        return { id: (await emulatorCall(emulator, "POST", "/api/3/tags", { tag })).body.tag.id, inputs: tag };
      },
      changes: { tag: "Platinum", description: "Best customers" },
      updateRoute: "PUT /api/3/tags/:id",
    },
    badInputs: [
      [{}, "tag", /^crm\.Tag: tag is required: the tag's name/],
      [{ tag: "" }, "tag", /^crm\.Tag: tag must not be blank/],
      [{ tag: "  " }, "tag", /tag must not be blank/],
      [{ tag: " VIP" }, "tag", /tag must not start or end with spaces/],
      [{ tag: "VIP", tagType: "deal" }, "tagType", /^crm\.Tag "VIP": tagType must be one of contact, template/],
      [{ tag: "VIP", color: "red" }, "color", /color is not a field of this resource; the fields are: tag, tagType, description, adoptId/],
    ],
    roundTrip: {
      inputs: [{ tag: "VIP" }, { tag: "Newsletter", tagType: "template", description: "Templates of the newsletter" }],
      readInputs: (inputs) => ({ tagType: "contact", ...inputs }),
    },
  },
  (service) => {
    it("updates every field in place, finds a rename behind its back, and treats a deleted tag as gone", async () => {
      const created = await provider.create(await checked(provider, { tag: "Lead" }));
      let state = created.outs;
      for (const change of [{ tag: "Hot lead" }, { tagType: "template" }, { description: "Ready to buy" }]) {
        const news = await checked(provider, { tag: "Lead", ...change });
        assert.deepEqual((await provider.diff(created.id, state, news)).replaces, []);
        state = (await provider.update(created.id, state, news)).outs;
        // The outcome as the service holds it, not only as the update reports it.
        const [field, value] = Object.entries(change)[0];
        assert.equal(state[field], value);
        assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/tags/${created.id}`)).body.tag[field], value);
        assert.deepEqual((await provider.read(created.id, state)).props, state);
      }
      await emulatorCall(service.emulator, "PUT", `/api/3/tags/${created.id}`, { tag: { tag: "Renamed" } });
      const drifted = await provider.read(created.id, state);
      assert.equal(drifted.props?.tag, "Renamed");
      assert.equal((await provider.diff(created.id, drifted.props!, await checked(provider, { tag: "Lead", description: "Ready to buy" }))).changes, true);
      await provider.delete(created.id, state);
      assert.deepEqual(await provider.read(created.id, state), {});
    });

    it("refuses a tag declared twice in one type (regardless of case), and allows it in the other type", () => {
      const names = new DeclaredNames();
      assert.equal(names.claim(provider.core, { tag: "VIP" }, "first"), undefined);
      assert.match(
        names.claim(provider.core, { tag: "vip", tagType: "contact" }, "second")!.message,
        /^crm\.Tag "vip": two resources of this program declare the tag "vip" \(tags are unique regardless of case, per tagType\)/,
      );
      assert.equal(names.claim(provider.core, { tag: "VIP", tagType: "template" }, "third"), undefined);
    });

    it("a name the service finds taken in its type names the tag holding it and adoptId; in the other type it is free", async () => {
      const partner = String((await emulatorCall(service.emulator, "POST", "/api/3/tags", { tag: { tag: "Partner", tagType: "contact" } })).body.tag.id);
      await assert.rejects(
        provider.create(await checked(provider, { tag: "partner", description: "Another" })),
        new RegExp(`the tag "partner" is taken by the existing crm\\.Tag ${partner} .* adoptId: "${partner}"`),
      );
      await provider.create(await checked(provider, { tag: "partner", tagType: "template" }));
    });
  },
);
