import assert from "node:assert/strict";
import * as provider from "../../provider/crm/task-outcome";
import { withLog, type Severity } from "../../provider/kit/log";
import { emulatorCall } from "../../scripts/harness/emulator";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

const interested = { title: "Interested", sentiment: "Positive" };

describeResource(
  {
    type: "crm.TaskOutcome",
    provider,
    beforeEach: emptyAccount,
    undeletable: true,
    adoption: {
      // The reference's create takes its members at the top of the body.
      existing: async ({ emulator }) => {
        const answer = await emulatorCall(emulator, "POST", "/api/3/taskOutcomes", { title: "No answer", sentiment: "Neutral", disabled: "0" });
        return { id: answer.body.taskOutcome.id, inputs: { title: "No answer", sentiment: "Neutral", disabled: false } };
      },
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
    it("reads back the sentiment the service answers in capitals as declared, and replaces on every change", async () => {
      const created = await provider.create(await checked(provider, interested));
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/taskOutcomes/${created.id}`)).body.taskOutcome.sentiment, "POSITIVE");
      assert.equal(created.outs.sentiment, "Positive");
      assert.deepEqual((await provider.read(created.id, created.outs)).props, created.outs);
      for (const change of [{ title: "Keen" }, { sentiment: "Neutral" }, { disabled: true }]) {
        const diff = await provider.diff(created.id, created.outs, await checked(provider, { ...interested, ...change }));
        assert.deepEqual(diff.replaces, Object.keys(change));
      }
    });

    it("leaves the outcome in the account on delete, the service having no delete, and says so with what to do", async () => {
      const created = await provider.create(await checked(provider, interested));
      const lines: Array<[Severity, string]> = [];
      await withLog(
        (severity, message) => lines.push([severity, message]),
        () => provider.delete(created.id, created.outs),
      );
      assert.deepEqual(lines, [
        [
          "warning",
          `crm.TaskOutcome ${created.id}: left in the account, since the service cannot delete a task outcome; delete or disable it in the account's deal settings.`,
        ],
      ]);
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/taskOutcomes/${created.id}`)).status, 200);
    });
  },
);
