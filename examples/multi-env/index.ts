// One program for every environment: the stack's configuration (Pulumi.<stack>.yaml)
// decides what differs between dev, staging and prod -- the names, which custom fields
// the account gets, and which chat flows run on a release. The code never tests the
// stack's name.
// Settings: crm:apiUrl, crm:apiToken (secret); for flows, chat:apiUrl, chat:apiToken (secret).
import * as pulumi from "@pulumi/pulumi";
import { chat, crm } from "pulumi-crm";

const config = new pulumi.Config();

/** Put in front of every name and label, so that environments sharing one CRM account never collide. */
const prefix = config.get("namePrefix") ?? "";
const release = config.require("release");

/** The custom fields an environment may have, each with the account's value. */
const fieldCatalog: Record<string, { field: crm.AccountCustomFieldArgs; value: crm.AccountCustomFieldValueArgs["fieldValue"] }> = {
  industry: { field: { fieldLabel: "Industry", fieldType: "dropdown", fieldOptions: ["Software", "Retail", "Health"] }, value: "Software" },
  tier: { field: { fieldLabel: "Tier", fieldType: "dropdown", fieldOptions: ["Free", "Pro", "Enterprise"] }, value: "Enterprise" },
  renewal: { field: { fieldLabel: "Renewal date", fieldType: "date" }, value: "2027-03-31" },
  seats: { field: { fieldLabel: "Seats", fieldType: "number" }, value: 250 },
};

/** The chat flows an environment may run on each release. */
const flowCatalog: Record<string, string> = {
  welcome: "2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31",
  "order-follow-up": "bf5d0ee7-5586-408e-9d5a-a4fd63f166d4",
};

/** A list-valued setting whose every entry must be a key of `catalog`. */
function choose(key: string, catalog: Record<string, unknown>): string[] {
  const chosen = config.getObject<string[]>(key) ?? [];
  const unknown = chosen.filter((name) => !(name in catalog));
  if (unknown.length) throw new Error(`${key}: ${unknown.join(", ")} unknown; choose from ${Object.keys(catalog).join(", ")}`);
  return chosen;
}

const account = new crm.Account("account", {
  name: `${prefix}${config.get("accountName") ?? "Acme Inc"}`,
  accountUrl: config.get("accountUrl"),
});

const fields = choose("customFields", fieldCatalog).map((name) => {
  const { field, value } = fieldCatalog[name];
  const created = new crm.AccountCustomField(name, { ...field, fieldLabel: `${prefix}${field.fieldLabel}` });
  new crm.AccountCustomFieldValue(`${name}-value`, { accountId: account.id, customFieldId: created.id, fieldValue: value });
  return created;
});

// Who the flows message: test addresses outside prod.
const flowContacts = config.requireObject<Array<{ email: string; firstName?: string }>>("flowContacts");
const runs = choose("flows", flowCatalog).map(
  (name) =>
    new chat.FlowRun(`${name}-run`, {
      flowId: flowCatalog[name],
      contacts: flowContacts,
      triggers: [release],
      waitForCompletion: true,
      timeoutSeconds: 300,
    }),
);

export const accountId = account.id;
export const accountName = account.name;
export const customFieldLabels = fields.map((field) => field.fieldLabel);
export const flowRunIds = runs.map((run) => run.executionId);
