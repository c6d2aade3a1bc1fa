import assert from "node:assert/strict";
import * as provider from "../../provider/crm/connection";
import { emulatorCall } from "../../scripts/harness/emulator";
import { assertUpdateHeld, checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

const store = {
  service: "shopify",
  externalId: "toystore.myshopify.com",
  name: "Toystore, Inc.",
  logoUrl: "https://toystore.example/logo.png",
  linkUrl: "https://toystore.example/admin",
};
const asSent = { service: store.service, externalid: store.externalId, name: store.name, logoUrl: store.logoUrl, linkUrl: store.linkUrl };

describeResource(
  {
    type: "crm.Connection",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      existing: async ({ emulator }) => {
        const connection = { ...asSent, externalid: "other.myshopify.com", name: "Other, Inc." };
        const id = (await emulatorCall(emulator, "POST", "/api/3/connections", { connection })).body.connection.id;
        return { id, inputs: { ...store, externalId: "other.myshopify.com", name: "Other, Inc." } };
      },
      changes: { name: "Other Toys, Inc." },
      updateRoute: "PUT /api/3/connections/:id",
    },
    badInputs: [
      [{ ...store, service: undefined }, "service", /^crm\.Connection "Toystore, Inc\.": service is required: the external service's name/],
      [{ ...store, externalId: " " }, "externalId", /externalId must not be blank/],
      [{ ...store, logoUrl: "toystore.example/logo.png" }, "logoUrl", /logoUrl must be an http or https URL/],
      [{ ...store, linkUrl: undefined }, "linkUrl", /linkUrl is required: the URL where the integration is managed/],
    ],
    roundTrip: { inputs: [store, { ...store, service: "woocommerce", externalId: "shop-2", name: "Second Shop" }] },
  },
  (service) => {
    it("updates every field in place, as the service then holds it, and finds a name changed behind its back", async () => {
      const created = await provider.create(await checked(provider, store));
      const news = await checked(provider, { ...store, service: "bigcommerce", externalId: "store-9", linkUrl: "https://toystore.example/apps" });
      assert.deepEqual((await provider.diff(created.id, created.outs, news)).replaces, []);
      const { outs } = await provider.update(created.id, created.outs, news);
      await assertUpdateHeld(provider, created.id, outs, { service: "bigcommerce", externalId: "store-9", linkUrl: "https://toystore.example/apps" });
      const held = (await emulatorCall(service.emulator, "GET", `/api/3/connections/${created.id}`)).body.connection;
      assert.deepEqual([held.service, held.externalid, held.linkUrl], ["bigcommerce", "store-9", "https://toystore.example/apps"]);
      await emulatorCall(service.emulator, "PUT", `/api/3/connections/${created.id}`, { connection: { name: "Renamed" } });
      const drifted = await provider.read(created.id, outs);
      assert.equal(drifted.props?.name, "Renamed");
      assert.equal((await provider.diff(created.id, drifted.props!, news)).changes, true);
    });
  },
);
