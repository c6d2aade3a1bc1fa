import { accountsModule } from "./resources/accounts";
import { notesModule } from "./resources/notes";
import { contactsModule } from "./resources/contacts";
import { contactMembersModule } from "./resources/contactMembers";
import { contactAutomationsModule } from "./resources/contactAutomations";
import { emailActivitiesModule } from "./resources/emailActivities";
import { accountContactsModule } from "./resources/accountContacts";
import { customFieldsModule } from "./resources/customFields";
import { addressesModule } from "./resources/addresses";
import { brandingsModule } from "./resources/brandings";
import { accountSwitchesModule } from "./resources/accountSwitches";
import { trackingNamesModule } from "./resources/trackingNames";
import { calendarsModule } from "./resources/calendars";
import { messagesModule } from "./resources/messages";
import { listsModule } from "./resources/lists";
import { tagsModule } from "./resources/tags";
import { fieldsModule } from "./resources/fields";
import { personalizationsModule } from "./resources/personalizations";
import { savedResponsesModule } from "./resources/savedResponses";
import { webhooksModule } from "./resources/webhooks";
import { dealTasktypesModule } from "./resources/dealTasktypes";
import { taskOutcomesModule } from "./resources/taskOutcomes";
import { dealRolesModule } from "./resources/dealRoles";
import { connectionsModule } from "./resources/connections";
import { groupMembersModule } from "./resources/groupMembers";
import { configsModule } from "./resources/configs";
import { dealCustomFieldMetaModule } from "./resources/dealCustomFieldMeta";
import { dealGroupsModule } from "./resources/dealGroups";
import { groupsModule } from "./resources/groups";
import { listGroupsModule } from "./resources/listGroups";
import { usersModule } from "./resources/users";
import { readOnlyModule } from "./resources/readOnly";
import { bulkImportModule } from "./resources/bulkImport";
import { customObjectsModule } from "./resources/customObjects";
import type { TablesOfModules } from "./module";

/**
 * The CRM account: every module (resources/), in the order the service lists their routes.
 * A new kind is its file in resources/ and its line here.
 */
export const CRM_MODULES = [
  accountsModule,
  notesModule,
  contactsModule,
  contactMembersModule,
  contactAutomationsModule,
  emailActivitiesModule,
  accountContactsModule,
  customFieldsModule,
  addressesModule,
  brandingsModule,
  accountSwitchesModule,
  trackingNamesModule,
  calendarsModule,
  messagesModule,
  listsModule,
  tagsModule,
  fieldsModule,
  groupMembersModule,
  personalizationsModule,
  savedResponsesModule,
  webhooksModule,
  dealTasktypesModule,
  taskOutcomesModule,
  dealRolesModule,
  dealCustomFieldMetaModule,
  dealGroupsModule,
  groupsModule,
  listGroupsModule,
  usersModule,
  configsModule,
  connectionsModule,
  readOnlyModule,
  bulkImportModule,
  customObjectsModule,
] as const;

/** The account's tables: every module's, by name. */
export type CrmTables = TablesOfModules<typeof CRM_MODULES>;
