import assert from "node:assert/strict";
import * as provider from "../../provider/crm/address";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall } from "../../scripts/harness/emulator";
import { assertUpdateHeld, checked, configuration, providerCode } from "../support/provider-steps";
import { asHostSends } from "../support/host-struct";
import { createBody } from "../support/recording-proxy";
import { type ScriptedServer, sendJson, startScriptedServer } from "../support/scripted-server";
import { describeResource } from "../support/describe-resource";

const base = { companyName: "Acme", address1: "1 Main St", country: "US" };

describeResource(
  {
    type: "crm.Address",
    provider,
    // Each test starts without addresses: a create is refused while an identical address exists.
    afterEach: async ({ emulator }) => {
      for (const address of (await emulatorCall(emulator, "GET", "/api/3/addresses?limit=100")).body.addresses) {
        await emulatorCall(emulator, "DELETE", `/api/3/addresses/${address.id}`);
      }
    },
    adoption: {
      // Lower-case country and a group association, as the service takes them.
      existing: async ({ emulator }) => {
        const address = { company_name: "Acme", address_1: "1 Main St", city: "Berlin", country: "de", is_default: 0, groupid: 3 };
        const id = (await emulatorCall(emulator, "POST", "/api/3/addresses", { address })).body.address.id;
        return { id, inputs: { companyName: "Acme", address1: "1 Main St", city: "Berlin", country: "DE", groupId: "3" } };
      },
      changes: { city: "Hamburg", zip: "20095" },
      updateRoute: "PUT /api/3/addresses/:id",
    },
    badInputs: [
      [{ address1: "x", country: "US" }, "companyName", /^crm\.Address: companyName is required: the company name/],
      [{ ...base, address1: "" }, "address1", /^crm\.Address "Acme": address1 must not be blank/],
      [{ ...base, city: "x".repeat(256) }, "city", /city must be at most 255 characters/],
      [{ ...base, zip: 60601 }, "zip", /zip must be a string/],
      [{ companyName: "Acme", address1: "x" }, "country", /country is required: a 2-letter ISO 3166 country code/],
      [{ ...base, country: "USA" }, "country", /country must be a 2-letter ISO 3166 country code such as US or DE/],
      [{ ...base, country: "XX" }, "country", /country must be a 2-letter ISO 3166 country code/],
      [{ ...base, isDefault: "yes" }, "isDefault", /isDefault must be true or false/],
      [{ ...base, allgroup: 1 }, "allgroup", /allgroup must be true or false/],
      [{ ...base, groupId: "three" }, "groupId", /groupId must be a positive integer id such as "3"/],
      [{ ...base, groupId: "0" }, "groupId", /groupId must be a positive integer id/],
      [{ ...base, listId: 7 }, "listId", /listId must be a string of digits/],
      [{ ...base, company_name: "Acme" }, "company_name", /company_name is not a field of this resource; the fields are: companyName, address1/],
    ],
    roundTrip: {
      inputs: [
        base,
        { ...base, country: "de", city: "Berlin", zip: "10115" },
        {
          companyName: "Globex",
          address1: "2 Side St",
          address2: "Suite 5",
          city: "Toronto",
          state: "Ontario",
          district: "Old Toronto",
          zip: "M5H 2N2",
          country: "CA",
          isDefault: true,
          allgroup: true,
          groupId: "3",
          listId: "7",
        },
        { ...base, groupId: "4" },
      ],
      created: (created, inputs) =>
        assert.equal(created.outs.country, String(inputs.country).toUpperCase(), "the country as the read answers it, not the create's number"),
    },
  },
  (service) => {
    const associations = async (id: string, link: "addressGroup" | "addressList") =>
      (await emulatorCall(service.emulator, "GET", `/api/3/addresses/${id}/${link}`)).body[`${link}s`].map(
        (a: Record<string, string>) => a.groupid ?? a.listid,
      );

    it("normalizes inputs: country in upper case, flags false by default, empty text unset", async () => {
      const inputs = await checked(provider, { ...base, country: "de", address2: "", city: "Berlin" });
      assert.deepEqual(asHostSends(inputs), { ...base, country: "DE", city: "Berlin", isDefault: false, allgroup: false, __provider: providerCode });
    });

    it("sends the reference's snake_case fields, leaves unset ones out (an update clearing them), and never sends an association twice", async () => {
      const sent = service.proxy.requests.length;
      const created = await provider.create(await checked(provider, { ...base, city: "Chicago", groupId: "3" }));
      assert.deepEqual(createBody(service.proxy.requests.slice(sent)), {
        address: { company_name: "Acme", address_1: "1 Main St", city: "Chicago", country: "US", is_default: false, allgroup: 0, groupid: 3 },
      });
      const updated = await provider.update(created.id, created.outs, await checked(provider, { ...base, groupId: "3" }));
      await assertUpdateHeld(provider, created.id, updated.outs, { city: undefined, groupId: "3" });
      const put = service.proxy.requests.slice(sent).find((r) => r.method === "PUT")!;
      assert.deepEqual(put.body, {
        address: {
          company_name: "Acme",
          address_1: "1 Main St",
          address_2: "",
          city: "",
          state: "",
          district: "",
          zip: "",
          country: "US",
          is_default: false,
          allgroup: 0,
        },
      });
      assert.deepEqual(await associations(created.id, "addressGroup"), ["3"]);
    });

    it("updates each field in place, clears optional ones, and moves associations", async () => {
      const created = await provider.create(await checked(provider, { ...base, address2: "Floor 2", groupId: "3" }));
      let state = created.outs;
      const steps: Array<Record<string, unknown>> = [
        { companyName: "Acme Ltd" },
        { address1: "5 High St" },
        { address2: "Floor 3" },
        { city: "Leeds", state: "West Yorkshire", district: "Headingley", zip: "LS6 3AA" },
        { country: "gb" },
        { isDefault: true },
        { allgroup: true },
        { groupId: "5" },
        { listId: "8" },
        { listId: "9", groupId: undefined, address2: undefined },
      ];
      let inputs: Record<string, unknown> = { ...base, address2: "Floor 2", groupId: "3" };
      for (const step of steps) {
        inputs = { ...inputs, ...step };
        const news = await checked(provider, inputs);
        const diff = await provider.diff(created.id, state, news);
        assert.deepEqual([diff.changes, diff.replaces], [true, []], JSON.stringify(step));
        state = (await provider.update(created.id, state, news)).outs;
        const read = await provider.read(created.id, state);
        assert.deepEqual(asHostSends(read.props), asHostSends(state), JSON.stringify(step));
        assert.deepEqual(asHostSends(read.inputs), asHostSends(configuration(news)), JSON.stringify(step));
        assert.equal((await provider.diff(created.id, state, news)).changes, false, JSON.stringify(step));
      }
      assert.equal(state.address2, undefined);
      assert.equal(state.country, "GB");
      assert.deepEqual(await associations(created.id, "addressGroup"), []);
      assert.deepEqual(await associations(created.id, "addressList"), ["9"]);
      const stored = (await emulatorCall(service.emulator, "GET", `/api/3/addresses/${created.id}`)).body.address;
      assert.deepEqual([stored.address2, stored.companyName, stored.isDefault, stored.allgroup], ["", "Acme Ltd", "1", "1"]);
    });

    it("finds drift by read, association included, repairs it as the service then holds it, and reads a deleted address as gone", async () => {
      const news = await checked(provider, { ...base, city: "Chicago", groupId: "3" });
      const created = await provider.create(news);
      await emulatorCall(service.emulator, "PUT", `/api/3/addresses/${created.id}`, { address: { city: "Boston" } });
      const [group] = (await emulatorCall(service.emulator, "GET", `/api/3/addresses/${created.id}/addressGroup`)).body.addressGroups;
      await emulatorCall(service.emulator, "DELETE", `/api/3/addressGroups/${group.id}`);
      const drifted = await provider.read(created.id, created.outs);
      assert.deepEqual([drifted.props?.city, drifted.props?.groupId], ["Boston", undefined]);
      assert.equal((await provider.diff(created.id, drifted.props!, news)).changes, true);
      const restored = await provider.update(created.id, drifted.props!, news);
      assert.deepEqual(asHostSends(restored.outs), asHostSends(created.outs));
      await assertUpdateHeld(provider, created.id, restored.outs, { city: "Chicago" });
      assert.deepEqual(await associations(created.id, "addressGroup"), ["3"]);

      await emulatorCall(service.emulator, "DELETE", `/api/3/addresses/${created.id}`);
      assert.deepEqual(await provider.read(created.id, created.outs), {});
      await provider.delete(created.id, created.outs);
    });

    it("deletes the address with its associations", async () => {
      const created = await provider.create(await checked(provider, { ...base, groupId: "3", listId: "7" }));
      await provider.delete(created.id, created.outs);
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/addresses/${created.id}`)).status, 404);
    });
  },
);

describe("crm.Address against a service that ignores listid", () => {
  let server: ScriptedServer;
  after(async () => server?.close());

  it("fails the create, naming listId, instead of recording an association that does not exist", async () => {
    const address = {
      companyName: "Acme",
      address1: "1 Main St",
      address2: "",
      city: "",
      state: "",
      district: "",
      zip: "",
      country: "US",
      allgroup: "0",
      isDefault: "0",
      id: "9",
    };
    server = await startScriptedServer((req, res) => {
      if (req.method === "POST") return sendJson(res, 201, { address: { companyName: "Acme", address1: "1 Main St", country: 233, isDefault: "0", id: "9" } });
      if (req.url.endsWith("/addressList")) return sendJson(res, 200, { addressLists: [], meta: { total: "0" } });
      sendJson(res, 200, { address });
    });
    useStackConfig(configOf({ "crm:apiUrl": server.url, "crm:apiToken": "k" }));
    const news = (await provider.check({}, { companyName: "Acme", address1: "1 Main St", country: "US", listId: "7" })).inputs!;
    await assert.rejects(provider.create(news), (error: Error & { id?: string }) => {
      assert.match(error.message, /^crm\.Address "Acme": the service accepted the write but did not take listId \(sent "7", service has null\)/);
      assert.equal(error.id, "9");
      return true;
    });
  });
});
