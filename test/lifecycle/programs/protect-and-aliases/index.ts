// Accounts, each with a value of a custom field, a note and an address, the first account
// protected; and one account whose resource is renamed with `aliases` when the stack config
// `renamed` is true. See test/lifecycle/protect-and-aliases.test.ts.
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const config = new pulumi.Config();

const tier = new crm.AccountCustomField("tier", { fieldLabel: "Tier", fieldType: "text" });
for (let n = 1; n <= config.requireNumber("accounts"); n++) {
  const account = new crm.Account(`account-${n}`, { name: `Customer ${n}` }, { protect: n === 1 });
  new crm.AccountCustomFieldValue(`tier-${n}`, { accountId: account.id, customFieldId: tier.id, fieldValue: `gold ${n}` });
  new crm.AccountNote(`note-${n}`, { accountId: account.id, note: `Renewal of customer ${n} in March` });
  new crm.Address(`address-${n}`, { companyName: `Customer ${n}`, address1: `${n} Main Street`, city: "Chicago", state: "IL", zip: "60601", country: "US" });
}

// The same account under a new resource name: `aliases` names the old one.
if (config.getBoolean("renamed")) {
  new crm.Account("partner", { name: "Partner Co" }, { aliases: [{ name: "reseller" }] });
} else {
  new crm.Account("reseller", { name: "Partner Co" });
}
