import assert from "node:assert/strict";
import * as provider from "../../provider/crm/list";
import { emulatorCall } from "../../scripts/harness/emulator";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

const news = { name: "Monthly news", stringid: "monthly-news", senderUrl: "https://acme.example", senderReminder: "You signed up on acme.example." };

describeResource(
  {
    type: "crm.List",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      existing: async ({ emulator }) => {
        const list = { name: "Offers", stringid: "offers", sender_url: "https://acme.example/offers", sender_reminder: "You asked for offers." };
        const id = (await emulatorCall(emulator, "POST", "/api/3/lists", { list })).body.list.id;
        return { id, inputs: { name: "Offers", stringid: "offers", senderUrl: list.sender_url, senderReminder: list.sender_reminder } };
      },
    },
    badInputs: [
      [{ ...news, name: undefined }, "name", /^crm\.List: name is required: the list's name/],
      [{ ...news, stringid: "monthly news" }, "stringid", /stringid must be 1 to 255 letters, digits, - or _/],
      [{ ...news, senderUrl: "acme.example" }, "senderUrl", /senderUrl must be an http or https URL/],
      [{ ...news, senderReminder: "" }, "senderReminder", /senderReminder must not be blank/],
    ],
    roundTrip: {
      inputs: [news, { ...news, name: "Offers", stringid: "offers", sendLastBroadcast: true, subscriptionNotify: "sales@acme.example" }],
      readInputs: (inputs) => ({ sendLastBroadcast: false, ...inputs }),
    },
  },
  (service) => {
    it("replaces on every change (the service cannot update a list), and finds a list deleted behind its back gone", async () => {
      const created = await provider.create(await checked(provider, news));
      for (const change of [{ name: "News" }, { stringid: "news" }, { senderReminder: "Hello." }, { sendLastBroadcast: true }]) {
        const diff = await provider.diff(created.id, created.outs, await checked(provider, { ...news, ...change }));
        assert.deepEqual(diff.replaces, Object.keys(change));
      }
      await emulatorCall(service.emulator, "DELETE", `/api/3/lists/${created.id}`);
      assert.deepEqual(await provider.read(created.id, created.outs), {});
    });

    it("refuses to take over by id a list whose fields differ, since nothing can update them", async () => {
      const created = await provider.create(await checked(provider, news));
      await assert.rejects(
        provider.create(await checked(provider, { ...news, name: "Other", adoptId: created.id })),
        /whose name is "Monthly news", which an update cannot change/,
      );
    });
  },
);
