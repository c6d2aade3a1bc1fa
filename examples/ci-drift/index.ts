// The program CI watches: an account and a custom field of accounts, with the account's
// value of it. See .github/workflows: a daily drift check per stack, a preview per pull request.
// Settings: crm:apiUrl and crm:apiToken (secret) in each stack's configuration.
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const config = new pulumi.Config();

const account = new crm.Account("acme", {
  name: config.get("accountName") ?? "Acme Inc",
  accountUrl: "https://acme.example",
});

const segment = new crm.AccountCustomField("segment", {
  fieldLabel: "Segment",
  fieldType: "dropdown",
  fieldOptions: ["SMB", "Mid-market", "Enterprise"],
});

new crm.AccountCustomFieldValue("acme-segment", { accountId: account.id, customFieldId: segment.id, fieldValue: "Enterprise" });

export const accountId = account.id;
export const segmentFieldId = segment.id;
