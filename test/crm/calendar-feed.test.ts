import assert from "node:assert/strict";
import * as provider from "../../provider/crm/calendar-feed";
import { emulatorCall, emulatorForProvider, RunningEmulator } from "../support/emulator";

const providerCode = "exports.handler = ...";

describe("crm.CalendarFeed provider", () => {
  let emulator: RunningEmulator;
  before(async () => (emulator = await emulatorForProvider()));
  after(async () => emulator.close());

  const checked = async (news: Record<string, unknown>) => {
    const result = await provider.check({}, { ...news, __provider: providerCode });
    assert.equal(result.failures, undefined, JSON.stringify(result.failures));
    return result.inputs!;
  };

  it("names the field and the rule for bad inputs", async () => {
    const result = await provider.check({}, { title: "", type: "Tasks", notification: "yes" });
    const reasons = (result.failures ?? []).map((f) => f.reason).join("\n");
    assert.match(reasons, /crm\.CalendarFeed: title must not be empty/);
    assert.match(reasons, /type must be one of All, Deals, Contacts/);
    assert.match(reasons, /notification must be true or false/);
  });

  for (const inputs of [{ title: "Team", type: "All" }, { title: "Deals", type: "Deals", notification: true }, { title: "People", type: "Contacts", notification: false }]) {
    it(`reads back exactly what create returned: ${JSON.stringify(inputs)}`, async () => {
      const created = await provider.create(await checked(inputs));
      assert.match(created.outs.token, /^[0-9a-f]+$/);
      const read = await provider.read(created.id, created.outs);
      assert.deepEqual(read.props, created.outs);
      assert.deepEqual(read.inputs, { title: inputs.title, type: inputs.type, notification: inputs.notification ?? false });
      assert.equal((await provider.diff(created.id, created.outs, await checked(inputs))).changes, false);
    });
  }

  it("updates every field in place, finds drift, and treats a deleted feed as gone", async () => {
    const created = await provider.create(await checked({ title: "Feed", type: "All" }));
    for (const change of [{ title: "Feed 2" }, { type: "Deals" }, { notification: true }]) {
      const news = await checked({ title: "Feed", type: "All", ...change });
      assert.deepEqual((await provider.diff(created.id, created.outs, news)).replaces, []);
      const updated = await provider.update(created.id, created.outs, news);
      assert.deepEqual((await provider.read(created.id, updated.outs)).props, updated.outs);
    }
    await emulatorCall(emulator, "PUT", `/api/3/calendars/${created.id}`, { calendar: { title: "Changed out of band" } });
    assert.equal((await provider.read(created.id, created.outs)).props?.title, "Changed out of band");
    await provider.delete(created.id, created.outs);
    await provider.delete(created.id, created.outs);
    assert.deepEqual(await provider.read(created.id, created.outs), {});
  });
});
