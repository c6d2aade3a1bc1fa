import assert from "node:assert/strict";
import * as provider from "../../provider/crm/task-type";
import { emulatorCall } from "../support/emulator";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

describeResource(
  {
    type: "crm.TaskType",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      existing: async ({ emulator }) => {
        const dealTasktype = { title: "Skype", status: 0 };
        return { id: (await emulatorCall(emulator, "POST", "/api/3/dealTasktypes", { dealTasktype })).body.dealTasktype.id, inputs: { title: "Skype", disabled: false } };
      },
      changes: { title: "Video call", disabled: true },
      updateRoute: "PUT /api/3/dealTasktypes/:id",
    },
    badInputs: [
      [{}, "title", /^crm\.TaskType: title is required: the task type's title/],
      [{ title: " Call" }, "title", /title must not start or end with spaces/],
      [{ title: "Call", disabled: "yes" }, "disabled", /^crm\.TaskType "Call": disabled must be true or false/],
      [{ title: "Call", status: 1 }, "status", /status is not a field of this resource; the fields are: title, disabled, adoptId/],
    ],
    roundTrip: {
      inputs: [{ title: "Demo" }, { title: "Site visit", disabled: true }],
      readInputs: (inputs) => ({ disabled: false, ...inputs }),
    },
  },
  (service) => {
    it("disables in place (status 1 on the wire), and finds a task type enabled behind its back", async () => {
      const created = await provider.create(await checked(provider, { title: "Lunch" }));
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/dealTasktypes/${created.id}`)).body.dealTasktype.status, "0");
      const news = await checked(provider, { title: "Lunch", disabled: true });
      assert.deepEqual((await provider.diff(created.id, created.outs, news)).replaces, []);
      const { outs } = await provider.update(created.id, created.outs, news);
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/dealTasktypes/${created.id}`)).body.dealTasktype.status, "1");
      await emulatorCall(service.emulator, "PUT", `/api/3/dealTasktypes/${created.id}`, { dealTasktype: { status: 0 } });
      const drifted = await provider.read(created.id, outs);
      assert.equal(drifted.props?.disabled, false);
      assert.equal((await provider.diff(created.id, drifted.props!, news)).changes, true);
    });

    it("is refused a second task type of a title, naming the field", async () => {
      await provider.create(await checked(provider, { title: "Call" }));
      await assert.rejects(provider.create(await checked(provider, { title: "call" })), /title/);
    });
  },
);
