// What `pulumi-crm export` reads: every object of the chosen kinds, turned into the
// inputs of its resource by that resource's own normalization (inputsDeclaring), so
// that the exported values are exactly what the resource reads back.

import * as account from "../crm/account";
import * as accountContact from "../crm/account-contact";
import * as customField from "../crm/account-custom-field";
import * as customFieldValue from "../crm/account-custom-field-value";
import * as accountNote from "../crm/account-note";
import * as address from "../crm/address";
import * as branding from "../crm/branding";
import * as calendarFeed from "../crm/calendar-feed";
import { CrmClient } from "../crm/client";
import { ServiceObject, walk } from "../crm/collection";
import * as message from "../crm/message";
import { idOf, textOf } from "../crm/normalize";
import { RegisteredResource, resources } from "../registry";

/** The resources whose objects `pulumi-crm export` declares, in the order a program declares them. */
export const exportedResources = resources.filter((resource): resource is Extract<RegisteredResource, { exportSection: string }> => "exportSection" in resource);
/** The kinds, named as their documentation pages (sdk-docs/crm-<kind>.md). */
export type ExportKind = (typeof exportedResources)[number]["name"];
export const exportKinds: readonly ExportKind[] = exportedResources.map((resource) => resource.name);

/** One object of the account, as its resource declares it. */
export interface ExportedObject {
  kind: ExportKind;
  /** The service's id: the resource's adoptId. */
  id: string;
  /** What its names are made from, e.g. `Acme Corp` or `Acme Corp note`. */
  title: string;
  /** The inputs that declare it as the service holds it. */
  inputs: Record<string, unknown>;
  /** Inputs that hold the id of an object of another kind: written as a reference when that object is exported too. */
  refersTo: Partial<Record<string, ExportKind>>;
}

export interface ExportOptions {
  kinds: ReadonlySet<ExportKind>;
  /**
   * Keeps the objects whose own name holds this text, regardless of case: accounts,
   * fields, addresses (company name), calendar feeds (title), messages (subject, else
   * sender) and the branding (site name). Values, notes and contact associations
   * follow their account.
   */
  nameFilter?: string;
  /** Told one line per collection read. */
  progress(line: string): void;
}

/** The kinds that need the accounts read: the accounts themselves, and those that follow their account. */
const accountKinds: readonly ExportKind[] = ["account", "account-custom-field-value", "account-note", "account-contact"];

/** Reads the account's objects of the chosen kinds, in declaration order. */
export async function readAccount(options: ExportOptions): Promise<ExportedObject[]> {
  const wanted = (kind: ExportKind) => options.kinds.has(kind);
  const named = (name: string) => !options.nameFilter || name.toLowerCase().includes(options.nameFilter.toLowerCase());
  const exported: ExportedObject[] = [];
  /** Every object of a collection, and those `keep` exports, with a progress line saying how many. */
  const read = async (
    kind: ExportKind,
    path: string,
    member: string,
    keep: (object: ServiceObject, client: CrmClient) => ExportedObject | undefined | Promise<ExportedObject | undefined>,
  ) => {
    const client = new CrmClient(`pulumi-crm export (${path})`);
    const objects = await walk<ServiceObject>(client, path, member, {});
    const before = exported.length;
    for (const object of wanted(kind) ? objects : []) {
      const declared = await keep(object, client);
      if (declared) exported.push(declared);
    }
    options.progress(`${member}: ${objects.length} read, ${exported.length - before} exported`);
    return objects;
  };
  const exportedAs = (kind: ExportKind, id: unknown, title: string, inputs: Record<string, unknown> | undefined, refersTo: ExportedObject["refersTo"] = {}) =>
    inputs && { kind, id: String(id), title, inputs, refersTo };

  // Names of the accounts kept, by id: values, notes and contact associations follow them.
  const accountNames = new Map<string, string>();
  if (accountKinds.some(wanted)) {
    const accounts = await read("account", "/accounts", "accounts", (object) =>
      named(String(object.name)) ? exportedAs("account", object.id, String(object.name), account.inputsDeclaring(object)) : undefined,
    );
    for (const object of accounts) if (named(String(object.name))) accountNames.set(String(object.id), String(object.name));
  }
  const ofAccount = { accountId: "account" } as const;

  const fields = new Map<string, ServiceObject>();
  if (wanted("account-custom-field") || wanted("account-custom-field-value")) {
    const definitions = await read("account-custom-field", "/accountCustomFieldMeta", "accountCustomFieldMeta", (object) =>
      named(String(object.fieldLabel)) ? exportedAs("account-custom-field", object.id, `${object.fieldLabel} field`, customField.inputsDeclaring(object)) : undefined,
    );
    for (const definition of definitions) fields.set(String(definition.id), definition);
  }
  if (wanted("account-custom-field-value")) {
    await read("account-custom-field-value", "/accountCustomFieldData", "accountCustomFieldData", (object) => {
      // The value's form depends on its field's type, as it does for the resource.
      const field = fields.get(idOf(object.customFieldId ?? object.accountCustomFieldMetumId) ?? "");
      const inputs = field && customFieldValue.inputsDeclaring({ ...object, fieldType: field.fieldType });
      const accountName = accountNames.get(String(inputs?.accountId));
      if (!field || accountName === undefined) return undefined;
      return exportedAs("account-custom-field-value", object.id, `${accountName} ${field.fieldLabel}`, inputs, { ...ofAccount, customFieldId: "account-custom-field" });
    });
  }
  if (wanted("account-note")) {
    await read("account-note", "/notes", "notes", (object) => {
      const inputs = accountNote.inputsDeclaring(object);
      const accountName = accountNames.get(String(inputs?.accountId));
      return accountName === undefined ? undefined : exportedAs("account-note", object.id, `${accountName} note`, inputs, ofAccount);
    });
  }
  if (wanted("account-contact")) {
    await read("account-contact", "/accountContacts", "accountContacts", (object) => {
      const inputs = accountContact.inputsDeclaring(object);
      const accountName = accountNames.get(String(inputs?.accountId));
      return accountName === undefined ? undefined : exportedAs("account-contact", object.id, `${accountName} contact ${inputs?.contactId}`, inputs, ofAccount);
    });
  }
  if (wanted("address")) {
    await read("address", "/addresses", "addresses", async (object, client) => {
      if (!named(String(object.companyName))) return undefined;
      // The group and list, which the service keeps behind the address's own links.
      const inputs = address.inputsDeclaring({ ...object, ...(await address.associationsOf(client, String(object.id))) });
      return exportedAs("address", object.id, `${object.companyName} address`, inputs);
    });
  }
  if (wanted("calendar-feed")) {
    await read("calendar-feed", "/calendars", "calendars", (object) =>
      named(String(object.title)) ? exportedAs("calendar-feed", object.id, `${object.title} feed`, calendarFeed.inputsDeclaring(object)) : undefined,
    );
  }
  if (wanted("message")) {
    await read("message", "/messages", "messages", (object) => {
      const name = textOf(object.subject) ?? String(object.fromname);
      return named(name) ? exportedAs("message", object.id, `${name} message`, message.inputsDeclaring(object)) : undefined;
    });
  }
  if (wanted("branding")) {
    await read("branding", "/brandings", "brandings", (object) =>
      named(String(object.siteName)) ? exportedAs("branding", object.id, "branding", branding.inputsDeclaring(object)) : undefined,
    );
  }
  return exported;
}
