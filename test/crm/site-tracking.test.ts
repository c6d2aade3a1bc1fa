import assert from "node:assert/strict";
import * as provider from "../../provider/crm/site-tracking";
import { releaseNaturalKey } from "../../provider/kit/adoption";
import { CrmClient } from "../../provider/crm/service/client";
import { emulatorCall, RunningEmulator } from "../support/emulator";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

/** The account's switch, as the service holds it. */
const enabledOf = async (emulator: RunningEmulator) => (await emulatorCall(emulator, "GET", "/api/3/siteTracking")).body.siteTracking.enabled;
const setSwitch = (emulator: RunningEmulator, enabled: boolean) => emulatorCall(emulator, "PUT", "/api/3/siteTracking", { siteTracking: { enabled } });

describeResource(
  {
    type: "crm.SiteTracking",
    provider,
    // Each test takes the account's one switch over afresh, as a new deployment would.
    beforeEach: async (service) => {
      await emptyAccount(service);
      releaseNaturalKey(new CrmClient("test"), "crm.SiteTracking", "siteTracking");
    },
    adoption: {
      existing: async ({ emulator }) => ({ id: "siteTracking", inputs: { enabled: await enabledOf(emulator) } }),
      changes: { enabled: false },
      updateRoute: "PUT /api/3/siteTracking",
      unknownId: "eventTracking",
    },
    badInputs: [
      [{}, "enabled", /^crm\.SiteTracking: enabled is required: true or false/],
      [{ enabled: "on" }, "enabled", /enabled must be true or false/],
      [{ enabled: true, status: 1 }, "status", /status is not a field of this resource; the fields are: enabled, adoptId/],
    ],
    roundTrip: {
      inputs: [{ enabled: true }, { enabled: false }],
      title: ", takes the switch over, and destroy puts it back as found",
      created: (created) => assert.deepEqual(created.outs.originalValues, { enabled: true }),
      then: async (created, _inputs, { emulator }) => {
        await provider.delete(created.id, created.outs);
        assert.equal(await enabledOf(emulator), true);
      },
    },
  },
  (service) => {
    it("finds the switch turned behind its back (drift), repairs it, and destroy puts back the value first found", async () => {
      await setSwitch(service.emulator, false);
      const news = await checked(provider, { enabled: true });
      const created = await provider.create(news);
      assert.equal(await enabledOf(service.emulator), true);
      await setSwitch(service.emulator, false);
      const drifted = await provider.read(created.id, created.outs);
      assert.equal(drifted.props?.enabled, false);
      assert.deepEqual(drifted.props?.originalValues, { enabled: false });
      const changes = await provider.diff(created.id, drifted.props!, news);
      assert.deepEqual([changes.changes, changes.replaces], [true, []]);
      const { outs } = await provider.update(created.id, drifted.props!, news);
      assert.equal(await enabledOf(service.emulator), true);
      await provider.delete(created.id, outs);
      assert.equal(await enabledOf(service.emulator), false);
    });

    it("imports by its id alone, remembering the switch as found", async () => {
      await setSwitch(service.emulator, false);
      const imported = (await provider.core.read("siteTracking", { import: true }))!;
      assert.deepEqual(imported.inputs, provider.inputsDeclaring({ enabled: false }));
      assert.deepEqual(imported.outputs, { enabled: false, originalValues: { enabled: false } });
      assert.equal((await provider.diff("siteTracking", imported.outputs, await checked(provider, imported.inputs))).changes, false);
      assert.equal(await provider.core.read("eventTracking", { import: true }), undefined);
    });

    it("refuses a second SiteTracking of the program before any write", async () => {
      await provider.create(await checked(provider, { enabled: true }));
      await assert.rejects(provider.create(await checked(provider, { enabled: false })), /two SiteTracking resources of this program manage the account's site tracking; declare it once/);
      assert.equal(await enabledOf(service.emulator), true);
    });
  },
);
