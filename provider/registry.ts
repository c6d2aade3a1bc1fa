// Every resource of the package, once, in the order a program declares them: the export
// command and the tests that run each resource read this list. A new resource is its
// module, its test, its page in sdk-docs and a line here.

import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import * as chat from "./chat";
import * as flowRun from "./chat/flow-run";
import * as crm from "./crm";
import * as account from "./crm/account";
import * as accountContact from "./crm/account-contact";
import * as accountCustomField from "./crm/account-custom-field";
import * as accountCustomFieldValue from "./crm/account-custom-field-value";
import * as accountNote from "./crm/account-note";
import * as address from "./crm/address";
import * as branding from "./crm/branding";
import * as calendarFeed from "./crm/calendar-feed";
import * as contactSync from "./crm/contact-sync";
import * as message from "./crm/message";

/** A resource module: the provider of its dynamic resources (see ./dynamic.ts), and its input schema. */
export interface ResourceModule extends pulumi.dynamic.ResourceProvider {
  inputSchema: z.AnyZodObject;
}

interface Entry<Namespace extends string, Classes> {
  namespace: Namespace;
  /** The class's name in its namespace: a name the namespace does not export fails to compile. */
  className: keyof Classes & string;
  /** The module's file name and the page's, sdk-docs/<namespace>-<name>.md; `pulumi-crm export --kinds` takes it. */
  name: string;
  module: ResourceModule;
  /** Only of the objects `pulumi-crm export` declares: the comment over their part of the program. */
  exportSection?: string;
}

type Registered = Entry<"crm", typeof crm> | Entry<"chat", typeof chat>;

export const resources = [
  { namespace: "crm", className: "Account", name: "account", module: account, exportSection: "Accounts" },
  { namespace: "crm", className: "AccountCustomField", name: "account-custom-field", module: accountCustomField, exportSection: "Custom account fields" },
  { namespace: "crm", className: "AccountCustomFieldValue", name: "account-custom-field-value", module: accountCustomFieldValue, exportSection: "Values of the custom fields" },
  { namespace: "crm", className: "AccountNote", name: "account-note", module: accountNote, exportSection: "Notes on accounts" },
  {
    namespace: "crm",
    className: "AccountContact",
    name: "account-contact",
    module: accountContact,
    exportSection: "Contacts' places at accounts (the contacts themselves are not managed here)",
  },
  { namespace: "crm", className: "Address", name: "address", module: address, exportSection: "Addresses" },
  { namespace: "crm", className: "CalendarFeed", name: "calendar-feed", module: calendarFeed, exportSection: "Calendar feeds" },
  { namespace: "crm", className: "Message", name: "message", module: message, exportSection: "Messages" },
  {
    namespace: "crm",
    className: "Branding",
    name: "branding",
    module: branding,
    exportSection: "The branding: managed field by field; remove the fields this stack should leave alone",
  },
  { namespace: "crm", className: "ContactSync", name: "contact-sync", module: contactSync },
  { namespace: "chat", className: "FlowRun", name: "flow-run", module: flowRun },
] as const satisfies readonly Registered[];

export type RegisteredResource = (typeof resources)[number];
type TypeOf<Resource> = Resource extends { namespace: infer Namespace extends string; className: infer ClassName extends string } ? `${Namespace}.${ClassName}` : never;
/** A resource's type, as its messages name it: `crm.Account`. */
export type ResourceType = TypeOf<RegisteredResource>;

export const typeOf = <Resource extends RegisteredResource>(resource: Resource) => `${resource.namespace}.${resource.className}` as TypeOf<Resource>;
