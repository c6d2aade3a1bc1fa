import assert from "node:assert/strict";
import * as provider from "../../provider/crm/calendar-feed";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall } from "../../scripts/harness/emulator";
import { checked, configuration } from "../support/provider-steps";
import { asHostSends } from "../support/host-struct";
import { createBody } from "../support/recording-proxy";
import { type ScriptedServer, sendJson, startScriptedServer } from "../support/scripted-server";
import { describeResource, emptyAccount } from "../support/describe-resource";

describeResource(
  {
    type: "crm.CalendarFeed",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      existing: async ({ emulator }) => {
        const calendar = { title: "Deal tasks", type: "Deals", notification: 1 };
        const id = (await emulatorCall(emulator, "POST", "/api/3/calendars", { calendar })).body.calendar.id;
        return { id, inputs: { ...calendar, notification: true } };
      },
      changes: { title: "All tasks", type: "All" },
      updateRoute: "PUT /api/3/calendars/:id",
    },
    badInputs: [
      [{ type: "All" }, "title", /^crm\.CalendarFeed: title is required: the feed's title/],
      [{ title: "", type: "All" }, "title", /^crm\.CalendarFeed: title must not be blank/],
      [{ title: "t".repeat(256), type: "All" }, "title", /title must be at most 255 characters/],
      [{ title: 42, type: "All" }, "title", /title must be a string/],
      [{ title: "Team" }, "type", /^crm\.CalendarFeed "Team": type is required: one of All, Deals, Contacts/],
      [{ title: "Team", type: "Tasks" }, "type", /type must be one of All, Deals, Contacts/],
      [{ title: "Team", type: "All", notification: "yes" }, "notification", /notification must be true or false/],
      [{ title: "Team", type: "All", token: "mine" }, "token", /token is not a field of this resource; the fields are: title, type, notification/],
    ],
    roundTrip: {
      inputs: [
        { title: "Team", type: "All" },
        { title: "Deals", type: "Deals", notification: true },
        { title: "People", type: "Contacts", notification: false },
      ],
      readInputs: (inputs) => ({ title: inputs.title, type: inputs.type, notification: inputs.notification ?? false }),
      created: (created) => assert.match(created.outs.token, /^[0-9a-f]+$/),
    },
  },
  (service) => {
    it("leaves an unset notification to its default, false, sent explicitly", async () => {
      const sent = service.proxy.requests.length;
      await provider.create(await checked(provider, { title: "Default", type: "All" }));
      assert.deepEqual(createBody(service.proxy.requests.slice(sent)), { calendar: { title: "Default", type: "All", notification: false } });
    });

    it("updates every field in place, finds drift, and treats a deleted feed as gone", async () => {
      const created = await provider.create(await checked(provider, { title: "Feed", type: "All" }));
      let state = created.outs;
      for (const change of [{ title: "Feed 2" }, { type: "Deals" }, { notification: true }]) {
        const news = await checked(provider, { title: "Feed", type: "All", ...change });
        assert.deepEqual((await provider.diff(created.id, state, news)).replaces, []);
        state = (await provider.update(created.id, state, news)).outs;
        const read = await provider.read(created.id, state);
        assert.deepEqual(read.props, state);
        assert.deepEqual(asHostSends(read.inputs), configuration(news));
        assert.equal(state.token, created.outs.token, "an update keeps the token");
      }
      await emulatorCall(service.emulator, "PUT", `/api/3/calendars/${created.id}`, { calendar: { title: "Changed out of band" } });
      const drifted = await provider.read(created.id, created.outs);
      assert.equal(drifted.props?.title, "Changed out of band");
      assert.equal((await provider.diff(created.id, drifted.props!, await checked(provider, { title: "Feed", type: "All" }))).changes, true);
      await provider.delete(created.id, created.outs);
      await provider.delete(created.id, created.outs);
      assert.deepEqual(await provider.read(created.id, created.outs), {});
    });
  },
);

describe("crm.CalendarFeed against a service that ignores a write", () => {
  let server: ScriptedServer;
  after(async () => server?.close());

  it("fails the update naming the field not taken, and keeps the object's id", async () => {
    // Like the real service given a wrong root key: 200, and nothing changed.
    server = await startScriptedServer((_req, res) =>
      sendJson(res, 200, { calendar: { id: "4", title: "Old", type: "All", notification: "0", token: "abc", userid: "1" } }),
    );
    useStackConfig(configOf({ "crm:apiUrl": server.url, "crm:apiToken": "k" }));
    await assert.rejects(provider.update("4", {}, await checked(provider, { title: "New", type: "All" })), (error: Error & { id?: string }) => {
      assert.match(error.message, /^crm\.CalendarFeed "New": the service accepted the write but did not take title \(sent "New", service has "Old"\)/);
      assert.equal(error.id, "4");
      return true;
    });
  });
});
