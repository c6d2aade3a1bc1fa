// A mixed stack of `count` accounts (stack config), as a user declares one: three
// custom account fields and each account's value of each, and an address and a
// message per 10 accounts. Run by `npm run bench` (bench/stack.ts).
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const count = new pulumi.Config().requireNumber("count");
const tier = new crm.AccountCustomField("tier", { fieldLabel: "Bench tier", fieldType: "dropdown", fieldOptions: ["gold", "silver"] });
const since = new crm.AccountCustomField("since", { fieldLabel: "Bench since", fieldType: "date" });
const seats = new crm.AccountCustomField("seats", { fieldLabel: "Bench seats", fieldType: "number" });
for (let n = 1; n <= count; n++) {
  const account = new crm.Account(`account-${n}`, { name: `Bench account ${n}` });
  new crm.AccountCustomFieldValue(`account-${n}-tier`, { accountId: account.id, customFieldId: tier.id, fieldValue: n % 2 ? "gold" : "silver" });
  new crm.AccountCustomFieldValue(`account-${n}-since`, { accountId: account.id, customFieldId: since.id, fieldValue: "2027-03-31" });
  new crm.AccountCustomFieldValue(`account-${n}-seats`, { accountId: account.id, customFieldId: seats.id, fieldValue: n });
  if (n % 10 === 1) {
    new crm.Address(`address-${n}`, { companyName: `Bench account ${n}`, address1: `${n} Main Street`, city: "Berlin", country: "de" });
    new crm.Message(`message-${n}`, { fromname: "Bench", fromemail: "bench@example.com", reply2: "bench@example.com", subject: `Welcome ${n}` });
  }
}
