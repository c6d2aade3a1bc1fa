// An account and what hangs off it: custom account fields of five types, the account's
// value for each, a note, and a contact's place at the account.
// Settings: crm:apiUrl and crm:apiToken (secret) in stack config, or the CRM_API_URL and
// CRM_API_TOKEN environment variables; and this program's `contactId`, the id of a
// contact that exists in the CRM account (contacts are not managed here).
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const config = new pulumi.Config();

const globex = new crm.Account("globex", { name: "Globex Corporation", accountUrl: "https://globex.example" });

const industry = new crm.AccountCustomField("industry", {
  fieldLabel: "Industry",
  fieldType: "dropdown",
  fieldOptions: ["Software", "Retail", "Health"],
  fieldDefault: "Software",
  isFormVisible: true,
});
const regions = new crm.AccountCustomField("regions", {
  fieldLabel: "Regions",
  fieldType: "multiselect",
  fieldOptions: ["EMEA", "APAC", "AMER"],
});
const renewal = new crm.AccountCustomField("renewal", { fieldLabel: "Renewal date", fieldType: "date", isRequired: true });
const contractValue = new crm.AccountCustomField("contract-value", {
  fieldLabel: "Contract value",
  fieldType: "currency",
  fieldDefaultCurrency: "EUR",
});
const employees = new crm.AccountCustomField("employees", { fieldLabel: "Employees", fieldType: "number", displayOrder: 5 });

const customValue = (name: string, customFieldId: pulumi.Input<string>, fieldValue: crm.AccountCustomFieldValueArgs["fieldValue"], fieldCurrency?: string) =>
  new crm.AccountCustomFieldValue(name, { accountId: globex.id, customFieldId, fieldValue, fieldCurrency });

customValue("globex-industry", industry.id, "Retail");
customValue("globex-regions", regions.id, ["EMEA", "APAC"]);
// Any of the service's date forms: 03/31/2027 and 2027-03-31 are the same value.
customValue("globex-renewal", renewal.id, "03/31/2027");
// Minor units: 1,250,000.00 EUR.
customValue("globex-contract-value", contractValue.id, 125_000_00, "EUR");
customValue("globex-employees", employees.id, 420);

new crm.AccountNote("globex-renewal-note", { accountId: globex.id, note: "Renewal talks start in January." });

const buyer = new crm.AccountContact("globex-buyer", { accountId: globex.id, contactId: config.require("contactId"), jobTitle: "Head of purchasing" });

export const accountId = globex.id;
export const industryFieldId = industry.id;
export const buyerAssociationId = buyer.id;
