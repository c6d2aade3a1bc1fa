import assert from "node:assert/strict";
import { releaseNaturalKey } from "../../provider/kit/adoption";
import { CrmClient } from "../../provider/crm/service/client";
import { emulatorCall, type RunningEmulator } from "../../scripts/harness/emulator";
import { checked } from "./provider-steps";
import { describeResource, emptyAccount } from "./describe-resource";

/** An account-wide switch's module (see provider/crm/account-switch.ts). */
type SwitchModule = Omit<typeof import("../../provider/crm/site-tracking"), "SiteTracking">;

/**
 * The tests of an account-wide switch: `member` its path and id (`siteTracking`), `what` it
 * in words, `other` another switch's id, which names none of this kind.
 */
export function describeAccountSwitch(
  provider: SwitchModule,
  { type, name, member, what, other }: { type: string; name: string; member: string; what: string; other: string },
): void {
  /** The account's switch, as the service holds it. */
  const enabledOf = async (emulator: RunningEmulator) => (await emulatorCall(emulator, "GET", `/api/3/${member}`)).body[member].enabled;
  const setSwitch = (emulator: RunningEmulator, enabled: boolean) => emulatorCall(emulator, "PUT", `/api/3/${member}`, { [member]: { enabled } });

  describeResource(
    {
      type,
      provider,
      // Each test takes the account's one switch over afresh, as a new deployment would.
      beforeEach: async (service) => {
        await emptyAccount(service);
        releaseNaturalKey(new CrmClient("test"), type, member);
      },
      adoption: {
        existing: async ({ emulator }) => ({ id: member, inputs: { enabled: await enabledOf(emulator) } }),
        changes: { enabled: false },
        updateRoute: `PUT /api/3/${member}`,
        unknownId: other,
      },
      badInputs: [
        [{}, "enabled", new RegExp(`^${type.replace(".", "\\.")}: enabled is required: true or false`)],
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
        const imported = (await provider.core.read(member, { import: true }))!;
        assert.deepEqual(imported.inputs, provider.inputsDeclaring({ enabled: false }));
        assert.deepEqual(imported.outputs, { enabled: false, originalValues: { enabled: false } });
        assert.equal((await provider.diff(member, imported.outputs, await checked(provider, imported.inputs))).changes, false);
        assert.equal(await provider.core.read(other, { import: true }), undefined);
      });

      it(`refuses a second ${name} of the program before any write`, async () => {
        await provider.create(await checked(provider, { enabled: true }));
        await assert.rejects(
          provider.create(await checked(provider, { enabled: false })),
          new RegExp(`two ${name} resources of this program manage the account's ${what}; declare it once`),
        );
        assert.equal(await enabledOf(service.emulator), true);
      });
    },
  );
}
