import assert from "node:assert/strict";
import * as provider from "../../provider/crm/webhook";
import { emulatorCall } from "../../scripts/harness/emulator";
import { assertUpdateHeld, checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";
import { makeList } from "../support/resource-examples";

const hook = { name: "Subscriptions", url: "https://hooks.acme.example/crm", events: ["unsubscribe", "subscribe"], sources: ["public", "api"] };

describeResource(
  {
    type: "crm.Webhook",
    provider,
    beforeEach: async (service) => {
      await emptyAccount(service);
      return { list: await makeList(service.emulator, "news") };
    },
    adoption: {
      existing: async ({ emulator }) => {
        const webhook = { name: "Opens", url: "http://hooks.acme.example/opens", events: ["open"], sources: ["system"] };
        return { id: (await emulatorCall(emulator, "POST", "/api/3/webhooks", { webhook })).body.webhook.id, inputs: webhook };
      },
      changes: { url: "https://hooks.acme.example/opens", events: ["click", "open"] },
      updateRoute: "PUT /api/3/webhooks/:id",
    },
    badInputs: [
      [{ ...hook, url: "ftp://hooks.acme.example" }, "url", /^crm\.Webhook "Subscriptions": url must be an http or https URL/],
      [{ ...hook, url: "hooks.acme.example" }, "url", /url must be an http or https URL/],
      [{ ...hook, events: ["subscribe", "contact_added"] }, "events.1", /events\[1\] must be one of bounce, click, .*, update/],
      [{ ...hook, events: [] }, "events", /events must hold at least one of bounce/],
      [{ ...hook, sources: ["web"] }, "sources.0", /sources\[0\] must be one of public, admin, api, system/],
      [{ ...hook, listId: "news" }, "listId", /listId must be the id of a list/],
    ],
    roundTrip: {
      inputs: (parents) => [hook, { ...hook, name: "News", events: ["sent", "open", "sent"], listId: parents.list }],
      readInputs: (inputs) => ({ ...inputs, events: [...new Set(inputs.events as string[])].sort(), sources: [...(inputs.sources as string[])].sort() }),
    },
  },
  (service) => {
    it("updates in place, finds a URL changed behind its back, and clears the list with 0", async () => {
      const created = await provider.create(await checked(provider, { ...hook, listId: service.parents.list }));
      assert.equal(created.outs.listId, service.parents.list);
      const news = await checked(provider, hook);
      assert.deepEqual((await provider.diff(created.id, created.outs, news)).replaces, []);
      const { outs } = await provider.update(created.id, created.outs, news);
      await assertUpdateHeld(provider, created.id, outs, { listId: undefined });
      await emulatorCall(service.emulator, "PUT", `/api/3/webhooks/${created.id}`, { webhook: { url: "https://elsewhere.example/" } });
      const drifted = await provider.read(created.id, outs);
      assert.equal(drifted.props?.url, "https://elsewhere.example/");
      assert.equal((await provider.diff(created.id, drifted.props!, news)).changes, true);
    });
  },
);
