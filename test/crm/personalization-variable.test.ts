import assert from "node:assert/strict";
import * as provider from "../../provider/crm/personalization-variable";
import { emulatorCall } from "../../scripts/harness/emulator";
import { assertUpdateHeld, checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

const promo = { tag: "promo-code", name: "Promo code", format: "text", content: "SPRING24" };

describeResource(
  {
    type: "crm.PersonalizationVariable",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      existing: async ({ emulator }) => {
        const personalization = { tag: "signature", name: "Signature", format: "html", content: "<p>Ada</p>" };
        return { id: (await emulatorCall(emulator, "POST", "/api/3/personalizations", { personalization })).body.personalization.id, inputs: personalization };
      },
      changes: { content: "<p>Ada Lovelace</p>" },
      updateRoute: "PUT /api/3/personalizations/:id",
    },
    badInputs: [
      [{ name: "n", content: "c" }, "tag", /^crm\.PersonalizationVariable: tag is required: the tag messages write as %TAG%/],
      [{ ...promo, tag: "promo code" }, "tag", /tag must be 1 to 100 letters, digits, - or _ \(messages write it between % signs\)/],
      [{ ...promo, tag: "%%" }, "tag", /tag must be 1 to 100 letters/],
      [{ ...promo, format: "markdown" }, "format", /format must be one of html, text/],
    ],
    roundTrip: {
      inputs: [promo, { tag: "%Footer%", name: "Footer", content: "<p>Acme</p>" }],
      readInputs: (inputs) => ({ format: "html", ...inputs, tag: String(inputs.tag).replace(/%/g, "").toLowerCase() }),
    },
  },
  (service) => {
    it("keeps the tag in lower case without % signs, as messages match it", async () => {
      assert.equal((await checked(provider, { ...promo, tag: "%Promo-Code%" })).tag, "promo-code");
    });

    it("updates in place and finds content changed behind its back", async () => {
      const created = await provider.create(await checked(provider, promo));
      const news = await checked(provider, { ...promo, content: "SUMMER24" });
      assert.deepEqual((await provider.diff(created.id, created.outs, news)).replaces, []);
      const { outs } = await provider.update(created.id, created.outs, news);
      await assertUpdateHeld(provider, created.id, outs, { content: "SUMMER24" });
      await emulatorCall(service.emulator, "PUT", `/api/3/personalizations/${created.id}`, { personalization: { content: "FALL24" } });
      const drifted = await provider.read(created.id, outs);
      assert.equal(drifted.props?.content, "FALL24");
      assert.equal((await provider.diff(created.id, drifted.props!, news)).changes, true);
    });
  },
);
