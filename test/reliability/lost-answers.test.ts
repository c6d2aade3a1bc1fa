// A create whose answer is lost (the service did the work, the connection dropped before
// the answer) is found afterwards, not made a second time, for every CRM object type:
// a proxy in front of the emulator drops the answer of the first POST of each test.

import assert from "node:assert/strict";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, emulatorForProvider, RunningEmulator } from "../support/emulator";
import { checked, providerCode, ResourceModule } from "../support/provider-steps";
import { RecordingProxy, startRecordingProxy } from "../support/recording-proxy";

describe("reliability: a create whose answer is lost is recovered, not repeated", function () {
  this.timeout(60_000);
  let emulator: RunningEmulator;
  let proxy: RecordingProxy;
  // The first POST after dropNextPost is carried out by the service, and its answer dropped.
  let dropNextPost = false;
  let dropped = 0;
  const ids = { account: "", contact: "", field: "" };

  before(async () => {
    emulator = await emulatorForProvider();
    proxy = await startRecordingProxy(emulator.crmUrl, (_answered, request) => {
      if (!dropNextPost || request.method !== "POST") return false;
      dropNextPost = false;
      dropped++;
      return true;
    });
    useStackConfig(configOf({ "crm:apiUrl": proxy.url, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
    const post = async (path: string, body: unknown) => (await emulatorCall(emulator, "POST", `/api/3${path}`, body)).body;
    ids.account = String((await post("/accounts", { account: { name: "Parent" } })).account.id);
    ids.contact = String((await post("/contacts", { contact: { email: "parent@example.com" } })).contact.id);
    ids.field = String((await post("/accountCustomFieldMeta", { accountCustomFieldMetum: { fieldLabel: "Parent text", fieldType: "text" } })).accountCustomFieldMetum.id);
  });
  after(async () => {
    await proxy?.close();
    await emulator?.close();
  });

  const cases: Array<{ name: string; module: string; inputs: () => Record<string, unknown>; list: string; member: string }> = [
    { name: "crm.Account", module: "account", inputs: () => ({ name: "Lost answer" }), list: "/accounts?search=Lost", member: "accounts" },
    { name: "crm.AccountCustomField", module: "account-custom-field", inputs: () => ({ fieldLabel: "Lost answer", fieldType: "text" }), list: "/accountCustomFieldMeta", member: "accountCustomFieldMeta" },
    {
      name: "crm.AccountCustomFieldValue",
      module: "account-custom-field-value",
      inputs: () => ({ accountId: ids.account, customFieldId: ids.field, fieldValue: "lost" }),
      list: "/accountCustomFieldData",
      member: "accountCustomFieldData",
    },
    { name: "crm.AccountContact", module: "account-contact", inputs: () => ({ accountId: ids.account, contactId: ids.contact }), list: "/accountContacts", member: "accountContacts" },
    { name: "crm.AccountNote", module: "account-note", inputs: () => ({ accountId: ids.account, note: "Lost answer" }), list: "/notes", member: "notes" },
    { name: "crm.Address", module: "address", inputs: () => ({ companyName: "Lost answer", address1: "1 Main St", country: "US" }), list: "/addresses", member: "addresses" },
    { name: "crm.CalendarFeed", module: "calendar-feed", inputs: () => ({ title: "Lost answer", type: "All" }), list: "/calendars", member: "calendars" },
    {
      name: "crm.Message",
      module: "message",
      inputs: () => ({ fromname: "Lost", fromemail: "lost@acme.example", reply2: "lost@acme.example", subject: "Lost answer" }),
      list: "/messages",
      member: "messages",
    },
  ];

  for (const { name, module, inputs, list, member } of cases) {
    it(name, async () => {
      const provider = require(`../../provider/crm/${module}`) as ResourceModule;
      const listed = async () => (await emulatorCall(emulator, "GET", `/api/3${list}`)).body[member] as Array<{ id: string }>;
      const before = (await listed()).map((object) => String(object.id));
      const droppedBefore = dropped;
      dropNextPost = true;
      const created = await provider.create(await checked(provider, inputs()));
      assert.equal(dropped, droppedBefore + 1, "the create's answer was dropped");
      const made = (await listed()).map((object) => String(object.id)).filter((id) => !before.includes(id));
      assert.deepEqual(made, [created.id], "exactly one object was made, and create returned it");
      await provider.delete(created.id, { ...created.outs, __provider: providerCode });
    });
  }
});
