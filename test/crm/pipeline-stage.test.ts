import assert from "node:assert/strict";
import * as provider from "../../provider/crm/pipeline-stage";
import { emulatorCall } from "../../scripts/harness/emulator";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";
import { pipelineWithoutStages } from "../support/resource-examples";

describeResource(
  {
    type: "crm.PipelineStage",
    provider,
    beforeEach: async (service) => {
      await emptyAccount(service);
      return { pipeline: await pipelineWithoutStages(service.emulator, "Sales") };
    },
    adoption: {
      existing: async ({ emulator }) => {
        const pipelineId = await pipelineWithoutStages(emulator, "Sales");
        const dealStage = { title: "Qualified", group: pipelineId, color: "32B0FC", width: 280, dealOrder: "title ASC" };
        const id = (await emulatorCall(emulator, "POST", "/api/3/dealStages", { dealStage })).body.dealStage.id;
        return { id, inputs: { title: "Qualified", pipelineId, color: "32B0FC", width: 280, dealOrder: "title ASC" } };
      },
      changes: { title: "Qualified lead", width: 300 },
      updateRoute: "PUT /api/3/dealStages/:id",
    },
    badInputs: [
      [{ pipelineId: "1" }, "title", /^crm\.PipelineStage: title is required: the stage's title/],
      [{ title: "Won" }, "pipelineId", /^crm\.PipelineStage "Won": pipelineId is required: the id of a pipeline/],
      [{ title: "Won", pipelineId: "1", color: "#18D499" }, "color", /color must be a 6-digit hex color without the #/],
      [{ title: "Won", pipelineId: "1", width: 0 }, "width", /width must be a whole number from 1/],
      [{ title: "Won", pipelineId: "1", order: 1.5 }, "order", /order must be a whole number from 0/],
      [{ title: "Won", pipelineId: "1", dealOrder: "title" }, "dealOrder", /dealOrder must be a sort option and a direction/],
    ],
    roundTrip: {
      inputs: ({ pipeline }) => [
        { title: "Qualified", pipelineId: pipeline },
        { title: "Won", pipelineId: pipeline, order: 3, color: "18D499", width: 300, dealOrder: "title ASC" },
      ],
      readInputs: (inputs) => ({ color: "3f3f3f", width: 280, dealOrder: "next-action DESC", ...inputs }),
    },
  },
  (service) => {
    it("moves to another pipeline in place, leaves a position it was not given alone, and finds a move behind its back", async () => {
      const [first, second] = [await pipelineWithoutStages(service.emulator, "Sales"), await pipelineWithoutStages(service.emulator, "Partners")];
      const created = await provider.create(await checked(provider, { title: "Qualified", pipelineId: first }));
      assert.equal(created.outs.order, undefined);
      const news = await checked(provider, { title: "Qualified", pipelineId: second });
      const changes = await provider.diff(created.id, created.outs, news);
      assert.deepEqual([changes.changes, changes.replaces], [true, []]);
      const { outs } = await provider.update(created.id, created.outs, news);
      assert.deepEqual(
        [outs.pipelineId, (await emulatorCall(service.emulator, "GET", `/api/3/dealStages/${created.id}`)).body.dealStage.group],
        [second, second],
      );
      await emulatorCall(service.emulator, "PUT", `/api/3/dealStages/${created.id}`, { dealStage: { group: first } });
      const drifted = await provider.read(created.id, outs);
      assert.equal(drifted.props?.pipelineId, first);
      assert.equal((await provider.diff(created.id, drifted.props!, news)).changes, true);
    });

    it("is gone with its pipeline", async () => {
      const pipelineId = await pipelineWithoutStages(service.emulator, "Sales");
      const created = await provider.create(await checked(provider, { title: "Qualified", pipelineId }));
      await emulatorCall(service.emulator, "DELETE", `/api/3/dealGroups/${pipelineId}`);
      assert.deepEqual(await provider.read(created.id, created.outs), {});
    });
  },
);
