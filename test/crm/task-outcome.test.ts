import assert from "node:assert/strict";
import * as provider from "../../provider/crm/task-outcome";
import { emulatorCall } from "../../scripts/harness/emulator";
import { assertUpdateHeld, checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

const interested = { title: "Interested", sentiment: "Positive" };

describeResource(
  {
    type: "crm.TaskOutcome",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      // The reference's create takes its members at the top of the body.
      existing: async ({ emulator }) => {
        const answer = await emulatorCall(emulator, "POST", "/api/3/taskOutcomes", { title: "No answer", sentiment: "Neutral", disabled: "0" });
        return { id: answer.body.taskOutcome.id, inputs: { title: "No answer", sentiment: "Neutral", disabled: false } };
      },
      changes: { sentiment: "Negative" },
      updateRoute: "PUT /api/3/taskOutcomes/:id",
    },
    badInputs: [
      [{ sentiment: "Positive" }, "title", /^crm\.TaskOutcome: title is required: the outcome's title/],
      [{ ...interested, sentiment: "Happy" }, "sentiment", /sentiment must be one of Positive, Neutral, Negative/],
      [{ ...interested, disabled: "yes" }, "disabled", /disabled must be true or false/],
    ],
    roundTrip: {
      inputs: [interested, { title: "Lost", sentiment: "Negative", disabled: true }],
      readInputs: (inputs) => ({ disabled: false, ...inputs }),
    },
  },
  (service) => {
    it("reads back the sentiment the service answers in capitals as declared, and updates every field in place", async () => {
      const created = await provider.create(await checked(provider, interested));
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/taskOutcomes/${created.id}`)).body.taskOutcome.sentiment, "POSITIVE");
      assert.equal(created.outs.sentiment, "Positive");
      const news = await checked(provider, { title: "Keen", sentiment: "Neutral", disabled: true });
      assert.deepEqual((await provider.diff(created.id, created.outs, news)).replaces, []);
      const { outs } = await provider.update(created.id, created.outs, news);
      await assertUpdateHeld(provider, created.id, outs, { title: "Keen", sentiment: "Neutral", disabled: true });
      const held = (await emulatorCall(service.emulator, "GET", `/api/3/taskOutcomes/${created.id}`)).body.taskOutcome;
      assert.deepEqual([held.title, held.sentiment, held.disabled], ["Keen", "NEUTRAL", "1"]);
    });

    it("a second outcome of a title the account holds (case aside) is refused by the service, naming the resource and the field", async () => {
      await provider.create(await checked(provider, interested));
      await assert.rejects(
        provider.create(await checked(provider, { ...interested, title: "interested" })),
        /^ServiceError: crm\.TaskOutcome "interested": the service answered 422 \(field_invalid\) for field "title": A task outcome with the same title already exists/,
      );
    });
  },
);
