// The dynamic classes' half of the cases test/plugin/both-doors.test.ts runs through both doors,
// one scenario per stack configuration (`scenario`); the same resources, by the same names, as
// the YAML programs the test writes for the plugin.
import * as pulumi from "@pulumi/pulumi";
import { chat, crm } from "pulumi-crm";

const config = new pulumi.Config();

switch (config.require("scenario")) {
  case "actions": {
    // More contacts than a batch, and a run that outlasts its wait.
    const contacts = Array.from({ length: 300 }, (_, n) => ({ email: `person${n}@example.com` }));
    new crm.ContactSync("sync", { contacts });
    new chat.FlowRun("welcome", { flowId: config.require("flowId"), contacts: [{ phone: "+15550100" }], waitForCompletion: true, timeoutSeconds: 1 });
    break;
  }
  case "adopt":
    new crm.Account("adopted", { name: "Adopted Co", adoptId: config.require("adoptId") });
    break;
  case "duplicates":
    new crm.Account("first", { name: "Dup Co" });
    new crm.Account("second", { name: "DUP co" });
    break;
  case "replace":
    new crm.AccountCustomField("tier", { fieldLabel: "Tier", fieldType: config.require("fieldType") as crm.AccountCustomFieldArgs["fieldType"] });
    break;
  case "one-account":
    new crm.Account("only", { name: "Only Co" });
    break;
}
