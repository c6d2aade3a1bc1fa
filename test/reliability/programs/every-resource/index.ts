// `copies` (stack config) of each CRM object type and the account's branding, as a user
// declares them; `contactIds` (comma-separated, one per copy) names contacts that exist
// before the stack. See test/reliability/fault-soak.test.ts.
import * as pulumi from "@pulumi/pulumi";
import { chat, crm } from "pulumi-crm";

const config = new pulumi.Config();
const copies = config.requireNumber("copies");
const contactIds = config.require("contactIds").split(",");

for (let n = 1; n <= copies; n++) {
  const account = new crm.Account(`account-${n}`, { name: `Soak account ${n}`, accountUrl: `https://soak-${n}.example` });
  const field = new crm.AccountCustomField(`field-${n}`, { fieldLabel: `Soak field ${n}`, fieldType: "text" });
  new crm.AccountCustomFieldValue(`value-${n}`, { accountId: account.id, customFieldId: field.id, fieldValue: `value ${n}` });
  new crm.AccountNote(`note-${n}`, { accountId: account.id, note: `Soak note ${n}` });
  new crm.AccountContact(`buyer-${n}`, { accountId: account.id, contactId: contactIds[n - 1], jobTitle: `Buyer ${n}` });
  new crm.Address(`address-${n}`, { companyName: `Soak company ${n}`, address1: `${n} Main Street`, city: "Chicago", country: "US" });
  new crm.CalendarFeed(`feed-${n}`, { title: `Soak feed ${n}`, type: "All" });
  new crm.Message(`message-${n}`, { fromname: "Soak", fromemail: "soak@acme.example", reply2: "help@acme.example", subject: `Soak message ${n}` });
}

new crm.Branding("branding", { siteName: "Soak Marketing" });
