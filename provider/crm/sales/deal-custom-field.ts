// crm.DealCustomField: the definition of a custom deal field (the service's dealCustomFieldMetum),
// the twin of crm.AccountCustomField, made by the same machinery (../crud/custom-field-definition.ts).

import { customFieldDefinition } from "../crud/custom-field-definition";

export const dealCustomField = customFieldDefinition({
  description: "A custom field of the CRM account's deals: label, type, options, default.",
  name: "DealCustomField",
  subject: "deal",
  pages: "deal pages",
  profiles: "deal profiles",
  section: "Custom deal fields",
});
