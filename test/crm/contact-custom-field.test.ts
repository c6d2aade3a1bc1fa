import assert from "node:assert/strict";
import * as provider from "../../provider/crm/contact-custom-field";
import { DeclaredNames } from "../../provider/kit/unique-names";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, emulatorForProvider, type RunningEmulator } from "../../scripts/harness/emulator";
import { type RecordingProxy, startRecordingProxy } from "../support/recording-proxy";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";
import { makeList } from "../support/resource-examples";

const plan = { title: "Plan", type: "dropdown", options: ["Free", "Pro", "Enterprise"], defaultValue: "Free" };

/** A field's option values and its lists (relid 0: every list), as the service holds them. */
const held = async (emulator: RunningEmulator, id: string) => {
  const field = (await emulatorCall(emulator, "GET", `/api/3/fields/${id}`)).body;
  return {
    options: field.fieldOptions.map((option: { value: string }) => option.value),
    lists: field.fieldRels.map((rel: { relid: unknown }) => String(rel.relid)),
  };
};

describeResource(
  {
    type: "crm.ContactCustomField",
    provider,
    beforeEach: async (service) => {
      await emptyAccount(service);
      return { news: await makeList(service.emulator, "news"), offers: await makeList(service.emulator, "offers") };
    },
    adoption: {
      existing: async ({ emulator }) => {
        const field = { title: "Notes", type: "textarea", descript: "Free text" };
        const id = String((await emulatorCall(emulator, "POST", "/api/3/fields", { field })).body.field.id);
        await emulatorCall(emulator, "POST", "/api/3/fieldRels", { fieldRel: { field: Number(id), relid: 0 } });
        return { id, inputs: { title: "Notes", type: "textarea", description: "Free text" } };
      },
      changes: { description: "Anything worth knowing" },
      updateRoute: "PUT /api/3/fields/:id",
    },
    badInputs: [
      [
        { title: "Plan", type: "select" },
        "type",
        /^crm\.ContactCustomField "Plan": type must be one of text, textarea, date, datetime, dropdown, listbox, radio, checkbox, hidden/,
      ],
      [{ title: "Notes", type: "text", options: ["a"] }, "options", /options is allowed only for a field of type dropdown, listbox, radio, checkbox, not text/],
      [{ title: "Plan", type: "dropdown" }, "options", /options is required for a field of type dropdown: the values to choose from/],
      [{ ...plan, defaultValue: "Gold" }, "defaultValue", /defaultValue must be one of the options: Free, Pro, Enterprise/],
      [{ ...plan, options: ["Free", "Free"] }, "options", /options must not hold an option twice/],
      [{ ...plan, listIds: ["news"] }, "listIds.0", /listIds\[0\] must be the id of a list/],
      [{ type: "text" }, "title", /title is required/],
    ],
    roundTrip: {
      inputs: (parents) => [
        plan,
        { title: "Notes", type: "text", description: "Free text" },
        { title: "Topics", type: "checkbox", options: ["Tips", "Offers"], listIds: [parents.offers, parents.news] },
      ],
      readInputs: (inputs) => ({ ...inputs, ...(inputs.listIds ? { listIds: [...(inputs.listIds as string[])].sort((a, b) => Number(a) - Number(b)) } : {}) }),
      created: (created) => assert.match(String(created.outs.perstag), /^[A-Z_]+$/),
    },
  },
  (service) => {
    it("moves the field between lists in place, and replaces it (the old one first) on a change of type or an option removed", async () => {
      const { news, offers } = service.parents;
      const created = await provider.create(await checked(provider, { ...plan, listIds: [news] }));
      assert.deepEqual(created.outs.listIds, [news]);
      const moved = await checked(provider, { ...plan, listIds: [offers] });
      assert.deepEqual((await provider.diff(created.id, created.outs, moved)).replaces, []);
      const { outs } = await provider.update(created.id, created.outs, moved);
      assert.deepEqual([outs.listIds, (await held(service.emulator, created.id)).lists], [[offers], [offers]]);
      const everywhere = (await provider.update(created.id, outs, await checked(provider, plan))).outs;
      assert.deepEqual([everywhere.listIds, (await held(service.emulator, created.id)).lists], [undefined, ["0"]]);
      const fewer = await provider.diff(created.id, everywhere, await checked(provider, { ...plan, options: ["Free", "Pro"] }));
      assert.deepEqual([fewer.replaces, fewer.deleteBeforeReplace], [["options"], true]);
      assert.deepEqual((await provider.diff(created.id, everywhere, await checked(provider, { title: "Plan", type: "text" }))).replaces, ["type", "options"]);
    });

    it("adds options appended at the end in place, after those the service holds", async () => {
      const created = await provider.create(await checked(provider, { ...plan, options: ["Free"] }));
      const more = await checked(provider, plan);
      const diff = await provider.diff(created.id, created.outs, more);
      assert.deepEqual([diff.changes, diff.replaces], [true, []]);
      const { outs } = await provider.update(created.id, created.outs, more);
      assert.deepEqual(outs.options, plan.options);
      const options = (await emulatorCall(service.emulator, "GET", `/api/3/fields/${created.id}`)).body.fieldOptions;
      assert.deepEqual(
        options.map((option: { value: string; orderid: number }) => [option.value, Number(option.orderid)]),
        [
          ["Free", 1],
          ["Pro", 2],
          ["Enterprise", 3],
        ],
      );
    });

    it("finishes in place a field made without its options (a create cut short), adding only those the service lacks", async () => {
      const id = String(
        (await emulatorCall(service.emulator, "POST", "/api/3/fields", { field: { title: "Plan", type: "dropdown", defval: "Free" } })).body.field.id,
      );
      await emulatorCall(service.emulator, "POST", "/api/3/fieldRels", { fieldRel: { field: Number(id), relid: 0 } });
      // What the create recorded: the field read back before its options were added.
      const recorded = (await provider.read(id, {}))!.props!;
      assert.equal(recorded.options, undefined);
      // The bulk call's answer was lost after it took the first option.
      await emulatorCall(service.emulator, "POST", "/api/3/fieldOption/bulk", {
        fieldOptions: [{ field: Number(id), value: "Free", label: "Free", orderid: 1 }],
      });
      const wanted = await checked(provider, plan);
      assert.deepEqual((await provider.diff(id, recorded, wanted)).replaces, []);
      assert.deepEqual((await provider.update(id, recorded, wanted)).outs.options, plan.options);
      const values = (await emulatorCall(service.emulator, "GET", `/api/3/fields/${id}`)).body.fieldOptions.map((option: { value: string }) => option.value);
      assert.deepEqual(values, plan.options);
    });

    it("finds an option removed behind its back", async () => {
      const created = await provider.create(await checked(provider, plan));
      const field = (await emulatorCall(service.emulator, "GET", `/api/3/fields/${created.id}`)).body;
      const pro = field.fieldOptions.find((option: { value: string }) => option.value === "Pro");
      await emulatorCall(service.emulator, "DELETE", `/api/3/fieldOptions/${pro.id}`);
      const drifted = await provider.read(created.id, created.outs);
      assert.deepEqual(drifted.props?.options, ["Free", "Enterprise"]);
      assert.deepEqual((await provider.diff(created.id, drifted.props!, await checked(provider, plan))).replaces, ["options"]);
    });

    it("refuses a title declared twice (regardless of case)", () => {
      const names = new DeclaredNames();
      names.claim(provider.core, { title: "Plan" }, "first");
      assert.match(names.claim(provider.core, { title: "PLAN" }, "second")!.message, /two resources of this program declare the contact field title "PLAN"/);
    });

    it("a title the service finds taken names the field holding it and adoptId", async () => {
      const held = String((await emulatorCall(service.emulator, "POST", "/api/3/fields", { field: { title: "Region", type: "text" } })).body.field.id);
      await assert.rejects(
        provider.create(await checked(provider, { title: "REGION", type: "textarea" })),
        new RegExp(`the contact field title "REGION" is taken by the existing crm\\.ContactCustomField ${held} .* adoptId: "${held}"`),
      );
    });
  },
);

describe("crm.ContactCustomField, its options' and lists' answers lost", () => {
  let emulator: RunningEmulator;
  let proxy: RecordingProxy;
  // The answers dropped after the service did the work: each path's first POST.
  const dropOnce = new Set<string>();

  before(async () => {
    emulator = await emulatorForProvider();
    proxy = await startRecordingProxy(emulator.crmUrl, (_answered, request) => request.method === "POST" && dropOnce.delete(request.path));
    useStackConfig(configOf({ "crm:apiUrl": proxy.url, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
  });
  after(async () => {
    await proxy?.close();
    await emulator?.close();
  });

  const posts = (path: string) => proxy.requests.filter((request) => request.method === "POST" && request.path === path).length;

  it("a create finds its options and its list made, and sends neither again", async () => {
    dropOnce.add("/api/3/fieldOption/bulk").add("/api/3/fieldRels");
    const created = await provider.create(await checked(provider, plan));
    assert.deepEqual(await held(emulator, created.id), { options: plan.options, lists: ["0"] });
    assert.deepEqual(created.outs.options, plan.options);
    assert.deepEqual([posts("/api/3/fieldOption/bulk"), posts("/api/3/fieldRels"), dropOnce.size], [1, 1, 0]);
  });

  it("an update finds its appended options made, and does not add them twice", async () => {
    const created = await provider.create(await checked(provider, { title: "Size", type: "radio", options: ["S"] }));
    const before = posts("/api/3/fieldOption/bulk");
    dropOnce.add("/api/3/fieldOption/bulk");
    const { outs } = await provider.update(created.id, created.outs, await checked(provider, { title: "Size", type: "radio", options: ["S", "M", "L"] }));
    assert.deepEqual(
      [outs.options, (await held(emulator, created.id)).options],
      [
        ["S", "M", "L"],
        ["S", "M", "L"],
      ],
    );
    assert.equal(posts("/api/3/fieldOption/bulk"), before + 1);
  });
});
