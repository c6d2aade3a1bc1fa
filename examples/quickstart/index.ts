// The quickstart: two accounts of the CRM service, managed as code.
// Settings: crm:apiUrl and crm:apiToken (secret) in stack config, or the
// CRM_API_URL and CRM_API_TOKEN environment variables.
import { crm } from "pulumi-crm";

const acme = new crm.Account("acme", {
  name: "Acme Inc",
  accountUrl: "https://acme.example",
});

const globex = new crm.Account("globex", {
  name: "Globex Corporation",
});

export const acmeAccountId = acme.id;
export const globexAccountId = globex.id;
