import type { CollectionRow } from "./collection";
import { Table, type Row, type TableSnapshot } from "./store";

/** The CRM account's data model. Timestamps are epoch milliseconds, formatted on the way out. */

export interface Timestamps {
  createdMs: number;
  updatedMs: number;
}

export interface AccountRow extends Row, Timestamps {
  name: string;
  accountUrl: string | null;
}

export interface ContactRow extends Row, Timestamps {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
}

export interface AccountContactRow extends Row, Timestamps {
  account: string;
  contact: string;
  jobTitle: string;
}

export interface FieldMetaRow extends Row, Timestamps {
  fieldLabel: string;
  fieldType: string;
  fieldOptions: string[] | null;
  fieldDefault: string | string[] | number | null;
  fieldDefaultCurrency: string | null;
  isFormVisible: 0 | 1;
  isRequired: 0 | 1;
  displayOrder: number;
}

export interface FieldDataRow extends Row, Timestamps {
  accountId: string;
  customFieldId: string;
  /** A string ("||a||b||" for multi-value fields), or an integer number of cents for currency. */
  fieldValue: string | number;
  fieldCurrency: string | null;
}

export interface AddressRow extends Row, Timestamps {
  companyName: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  district: string;
  zip: string;
  /** 2-character country code. */
  country: string;
  allgroup: string;
  isDefault: 0 | 1;
}

/** An address associated with a user group (addressGroups) or a list (addressLists). */
export interface AddressAssociationRow extends Row {
  addressId: string;
  /** The group id or the list id. */
  targetId: string;
}

/** An account-wide on/off switch (resources/accountSwitches.ts): site tracking, event tracking. */
export interface AccountSwitchRow extends Row {
  name: string;
  enabled: 0 | 1;
}

/** A tracking name (resources/trackingNames.ts): an allowed domain, a tracked event. */
export interface NameRow extends Row {
  name: string;
}

export interface BrandingRow extends Row {
  groupid: string;
  siteName: string;
  siteLogo: string;
  siteLogoSmall: string;
  headerTextValue: string;
  headerHtmlValue: string;
  footerTextValue: string;
  footerHtmlValue: string;
  copyright: 0 | 1;
  version: 0 | 1;
  license: 0 | 1;
  links: 0 | 1;
  help: string;
  adminTemplateHtm: string;
  adminTemplateCss: string;
  publicTemplateHtm: string;
  publicTemplateCss: string;
  favicon: string | null;
}

export interface ImportBatchRow extends Row {
  status: "queued" | "completed";
  /** When the batch was accepted; absent in state files written before it was kept. */
  queuedMs?: number;
  contacts: unknown[];
  /** Ids of the contacts written, then emails (or row numbers) of the rows skipped. */
  success: string[];
  failure: string[];
}

export interface SchemaRow extends Row {
  slug: string;
  visibility: string;
  labels: { singular: string; plural: string };
  description: string;
  createdTimestamp: string;
  updatedTimestamp: string;
  fields: SchemaField[];
  icons: { default: string };
  relationships: Array<{ id: string; labels: { singular: string; plural: string }; description: string; namespace: string; hasMany: boolean }>;
}

/** A field of a schema; a deleted one stays, marked, its id not yet free again (the reference's field DELETE). */
export interface SchemaField {
  id: string;
  labels: { singular: string; plural: string };
  type: string;
  required: boolean;
  scale?: number;
  options?: Array<{ id: string; value: string }>;
  status?: "marked_for_deletion";
}

export interface RecordRow extends Row {
  externalId: string | null;
  schemaId: string;
  fields: Array<{ id: string; value: unknown }>;
  relationships: Record<string, string[]>;
  createdTimestamp: string;
  updatedTimestamp: string;
}

/** The key account names are compared by: the service's collation ignores case. */
export function accountNameKey(account: { name: string }): string {
  return account.name.toLowerCase();
}

/** The key of what belongs to one contact. */
function ofContact(row: CollectionRow): string {
  return String(row.contact);
}

export function createTables() {
  return {
    // Account names are unique regardless of case: indexed so a create need not scan every account.
    accounts: new Table<AccountRow>({ keyOf: accountNameKey }),
    notes: new Table<CollectionRow>(),
    contacts: new Table<ContactRow>(),
    accountContacts: new Table<AccountContactRow>(),
    fieldMeta: new Table<FieldMetaRow>(),
    fieldData: new Table<FieldDataRow>(),
    addresses: new Table<AddressRow>(),
    addressGroups: new Table<AddressAssociationRow>(),
    addressLists: new Table<AddressAssociationRow>(),
    brandings: new Table<BrandingRow>(),
    accountSwitches: new Table<AccountSwitchRow>(),
    siteTrackingDomains: new Table<NameRow>(),
    eventTrackingEvents: new Table<NameRow>(),
    calendars: new Table<CollectionRow>(),
    messages: new Table<CollectionRow>(),
    // The contacts' side of an account (resources/lists.ts, tags.ts, fields.ts, personalizations.ts, savedResponses.ts, webhooks.ts, contactMembers.ts).
    lists: new Table<CollectionRow>(),
    tags: new Table<CollectionRow>(),
    fields: new Table<CollectionRow>(),
    fieldOptions: new Table<CollectionRow>(),
    fieldRels: new Table<CollectionRow>(),
    personalizations: new Table<CollectionRow>(),
    savedResponses: new Table<CollectionRow>(),
    webhooks: new Table<CollectionRow>(),
    // A contact's tags, lists and values are indexed by the contact: every contact a list answers reads its values.
    contactTags: new Table<CollectionRow>({ keyOf: ofContact }),
    contactLists: new Table<CollectionRow>({ keyOf: ofContact }),
    fieldValues: new Table<CollectionRow>({ keyOf: ofContact }),
    // A contact's enrolments in automations (resources/contactAutomations.ts), read with every contact read alone.
    contactAutomations: new Table<CollectionRow>({ keyOf: ofContact }),
    // The sales side (resources/dealTasktypes.ts, dealGroups.ts, groups.ts, users.ts, dealCustomFieldMeta.ts).
    dealGroups: new Table<CollectionRow>(),
    dealStages: new Table<CollectionRow>(),
    groups: new Table<CollectionRow>(),
    // Which user groups may use a list (resources/listGroups.ts).
    listGroups: new Table<CollectionRow>(),
    users: new Table<CollectionRow>(),
    dealTasktypes: new Table<CollectionRow>(),
    dealFieldMeta: new Table<FieldMetaRow>(),
    importBatches: new Table<ImportBatchRow>(),
    schemas: new Table<SchemaRow>(),
    records: new Table<RecordRow>(),
  };
}

export type CrmTables = ReturnType<typeof createTables>;

export type CrmSnapshot = { [name in keyof CrmTables]?: TableSnapshot<Row> };

export function snapshotTables(tables: CrmTables): CrmSnapshot {
  const snapshot: CrmSnapshot = {};
  for (const name of Object.keys(tables) as Array<keyof CrmTables>) snapshot[name] = tables[name].snapshot();
  return snapshot;
}

/** Tables missing from an older snapshot stay empty rather than failing the start. */
export function restoreTables(tables: CrmTables, snapshot: CrmSnapshot): void {
  for (const name of Object.keys(tables) as Array<keyof CrmTables>) {
    const saved = snapshot[name];
    if (saved) (tables[name] as Table<Row>).restore(saved);
    else tables[name].clear();
  }
}
