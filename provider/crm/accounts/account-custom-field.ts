// crm.AccountCustomField: the definition of a custom account field (the service's
// accountCustomFieldMetum). Made by the custom-field definition machinery it shares with
// crm.DealCustomField (../crud/custom-field-definition.ts); the lifecycle, adoption by label included,
// is crmCore's (see ../crud).

import { customFieldDefinition } from "../crud/custom-field-definition";

export const accountCustomField = customFieldDefinition({
  description: "A custom field of the CRM account's accounts (companies); its values are crm.AccountCustomFieldValue resources.",
  name: "AccountCustomField",
  subject: "account",
  pages: "account pages",
  profiles: "account profiles",
  section: "Custom account fields",
});
