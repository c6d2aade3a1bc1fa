// What a new user tries, one scenario at a time (config `scenario`); see
// test/lifecycle/new-user.test.ts. Type-checked when the engine runs it, against
// the installed package's declarations.
import * as pulumi from "@pulumi/pulumi";
import { chat, crm } from "pulumi-crm";

const config = new pulumi.Config();
const flowId = "2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31";

switch (config.require("scenario")) {
  case "misspelt-argument": {
    // Not an object literal, so TypeScript lets the misspelt accountURL through.
    const args = { name: "Typo Co", accountURL: "https://typo.example" };
    new crm.Account("typo", args);
    break;
  }
  case "nested-unknowns": {
    const child = new crm.Account("child", { name: "Child Co" });
    new chat.FlowRun("welcome", {
      flowId,
      contacts: [child.id.apply((id) => ({ firstName: "Ada", externalId: id })), { firstName: "Grace", externalId: child.id, tags: [child.name] }],
    });
    break;
  }
  case "long-value": {
    // A name pasted whole.
    new crm.Account("pasted", { name: "Pasted".repeat(175) });
    break;
  }
  case "nested-mistake": {
    // A contact's email given as a number.
    new chat.FlowRun("nested-mistake", { flowId, contacts: [{ firstName: "Ada", email: 5 as never }] });
    break;
  }
  case "same-name": {
    new crm.Account("first", { name: "Twin Co" });
    new crm.Account("second", { name: "twin co" });
    break;
  }
  case "same-label-later": {
    // Known only through Outputs, as names built from config or other values are.
    new crm.AccountCustomField("tier", { fieldLabel: pulumi.output("Tier"), fieldType: "text" });
    new crm.AccountCustomField("tier-again", { fieldLabel: pulumi.secret("TIER"), fieldType: "text" });
    break;
  }
  case "adopt-toggle": {
    // Several accounts, so that what `up --refresh` shows of one changed out of band stands out.
    const adoptExisting = config.getBoolean("adoptExisting") ?? false;
    for (const name of ["Toggle Co", "Toggle Two", "Toggle Three"]) new crm.Account(name.toLowerCase().replace(" ", "-"), { name, adoptExisting });
    break;
  }
}
