import assert from "node:assert/strict";
import * as provider from "../../provider/crm/saved-response";
import { emulatorCall } from "../../scripts/harness/emulator";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

const followUp = { title: "Follow-up", subject: "Thanks, %FIRSTNAME%", body: "Here are the slides." };

describeResource(
  {
    type: "crm.SavedResponse",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      existing: async ({ emulator }) => {
        const savedResponse = { title: "Pricing", subject: "Our prices", body: "See attached." };
        return { id: (await emulatorCall(emulator, "POST", "/api/3/savedResponses", { savedResponse })).body.savedResponse.id, inputs: savedResponse };
      },
      changes: { subject: "Our 2027 prices" },
      updateRoute: "PUT /api/3/savedResponses/:id",
    },
    badInputs: [
      [{ subject: "s", body: "b" }, "title", /^crm\.SavedResponse: title is required: the saved response's title/],
      [{ ...followUp, subject: "" }, "subject", /^crm\.SavedResponse "Follow-up": subject must not be blank/],
      [{ title: "t", subject: "s" }, "body", /body is required: the email's body/],
    ],
    roundTrip: { inputs: [followUp] },
  },
  (service) => {
    it("updates in place and finds a body changed behind its back", async () => {
      const created = await provider.create(await checked(provider, followUp));
      const news = await checked(provider, { ...followUp, body: "Slides attached." });
      assert.deepEqual((await provider.diff(created.id, created.outs, news)).replaces, []);
      const { outs } = await provider.update(created.id, created.outs, news);
      // The outcome as the service holds it, not only as the update reports it.
      assert.equal(outs.body, "Slides attached.");
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/savedResponses/${created.id}`)).body.savedResponse.body, "Slides attached.");
      await emulatorCall(service.emulator, "PUT", `/api/3/savedResponses/${created.id}`, { savedResponse: { body: "Edited" } });
      const drifted = await provider.read(created.id, outs);
      assert.equal(drifted.props?.body, "Edited");
      assert.equal((await provider.diff(created.id, drifted.props!, news)).changes, true);
    });
  },
);
