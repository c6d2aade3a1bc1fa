// One scenario per `scenario` setting of the stack, each what a new user hit:
// - lookup: an account looked up by the name of an account the same program creates, and a
//   listing that depends on it through `dependsOn`; a note on the account found;
// - options: a dropdown field's value outside its options;
// - blank: a calendar feed whose title is only spaces;
// - accounts: `count` accounts, each with a value of one shared field (for errors per resource).
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const config = new pulumi.Config();
const scenario = config.require("scenario");
const name = config.get("accountName") ?? "Acme Lookups";

const outputs: Record<string, pulumi.Input<unknown>> = {};

if (scenario === "lookup") {
  const acme = new crm.Account("acme", { name, accountUrl: "https://acme.example" });
  const found = crm.getAccountOutput({ name: acme.name });
  const listed = crm.getAccountsOutput({ search: name }, { dependsOn: acme });
  new crm.AccountNote("note", { accountId: found.id, note: "Found by lookup." });
  Object.assign(outputs, { acmeId: acme.id, foundId: found.id, foundUrl: found.accountUrl, listedCount: listed.accounts.apply((accounts) => accounts.length) });
} else if (scenario === "options") {
  const tier = new crm.AccountCustomField("tier", { fieldLabel: "Tier", fieldType: "dropdown", fieldOptions: ["Gold", "Silver", "Bronze"] });
  const acme = new crm.Account("acme", { name });
  new crm.AccountCustomFieldValue("acme-tier", {
    accountId: acme.id,
    customFieldId: tier.id,
    fieldValue: config.get("tier") ?? "Platinum",
    fieldOptions: tier.fieldOptions,
  });
} else if (scenario === "blank") {
  new crm.CalendarFeed("feed", { title: "   ", type: "All" });
} else if (scenario === "accounts") {
  const seats = new crm.AccountCustomField("seats", { fieldLabel: "Seats", fieldType: "number" });
  for (let i = 1; i <= config.requireNumber("count"); i++) {
    const account = new crm.Account(`account-${i}`, { name: `${name} ${i}` });
    new crm.AccountCustomFieldValue(`account-${i}-seats`, { accountId: account.id, customFieldId: seats.id, fieldValue: i });
  }
}

export const result = outputs;
