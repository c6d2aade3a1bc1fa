import assert from "node:assert/strict";
import * as provider from "../../provider/crm/task-type";
import { emulatorCall } from "../../scripts/harness/emulator";
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
        return {
          id: (await emulatorCall(emulator, "POST", "/api/3/dealTasktypes", { dealTasktype })).body.dealTasktype.id,
          inputs: { title: "Skype", disabled: false },
        };
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
      const created = await provider.create(await checked(provider, { title: "Site visit" }));
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/dealTasktypes/${created.id}`)).body.dealTasktype.status, "0");
      const news = await checked(provider, { title: "Site visit", disabled: true });
      assert.deepEqual((await provider.diff(created.id, created.outs, news)).replaces, []);
      const { outs } = await provider.update(created.id, created.outs, news);
      assert.deepEqual(
        [outs.disabled, (await emulatorCall(service.emulator, "GET", `/api/3/dealTasktypes/${created.id}`)).body.dealTasktype.status],
        [true, "1"],
      );
      await emulatorCall(service.emulator, "PUT", `/api/3/dealTasktypes/${created.id}`, { dealTasktype: { status: 0 } });
      const drifted = await provider.read(created.id, outs);
      assert.equal(drifted.props?.disabled, false);
      assert.equal((await provider.diff(created.id, drifted.props!, news)).changes, true);
    });

    it("is refused a second task type of a title, naming the one that holds it and adoptId", async () => {
      const demo = await provider.create(await checked(provider, { title: "Demo" }));
      await assert.rejects(
        provider.create(await checked(provider, { title: "demo", disabled: true })),
        new RegExp(
          `crm\\.TaskType "demo": the task type "demo" is taken by the existing crm\\.TaskType ${demo.id} \\(task types are unique regardless of case\\)\\. To manage that object with this stack, take it over with adoptId: "${demo.id}"`,
        ),
      );
    });

    it("takes over a task type every account comes with by its title, writing only what differs, and leaves it in place on delete", async () => {
      const builtIn = (await emulatorCall(service.emulator, "GET", "/api/3/dealTasktypes")).body.dealTasktypes.find(
        (type: { title: string }) => type.title === "Call",
      );
      assert.deepEqual([builtIn.cdate, builtIn.status], [null, "0"]);
      const before = service.proxy.requests.length;
      // Declared as the account holds it: nothing is written.
      const adopted = await provider.create(await checked(provider, { title: "Call" }));
      assert.equal(adopted.id, builtIn.id);
      assert.deepEqual(
        service.proxy.requests.slice(before).filter((request) => request.method !== "GET"),
        [],
      );
      // Another, taken over with another value: the one PUT, no POST; a delete sends nothing.
      const email = await provider.create(await checked(provider, { title: "Email", disabled: true }));
      assert.notEqual(email.id, builtIn.id);
      await provider.delete(adopted.id, adopted.outs);
      await provider.delete(email.id, email.outs);
      assert.deepEqual(
        service.proxy.requests
          .slice(before)
          .filter((request) => request.method !== "GET")
          .map((request) => `${request.method} ${request.path}`),
        [`PUT /api/3/dealTasktypes/${email.id}`],
      );
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/dealTasktypes/${email.id}`)).body.dealTasktype.status, "1");
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/dealTasktypes/${builtIn.id}`)).status, 200);
    });

    it("makes a built-in's title anew in an account that lost it, and still never deletes it", async () => {
      const call = (await emulatorCall(service.emulator, "GET", "/api/3/dealTasktypes")).body.dealTasktypes.find(
        (type: { title: string }) => type.title === "Call",
      );
      assert.equal((await emulatorCall(service.emulator, "DELETE", `/api/3/dealTasktypes/${call.id}`)).status, 200);
      const made = await provider.create(await checked(provider, { title: "Call" }));
      assert.notEqual(made.id, call.id);
      await provider.delete(made.id, made.outs);
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/dealTasktypes/${made.id}`)).status, 200);
    });
  },
);
