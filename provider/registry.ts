// Every resource of the package, once, in the order a program declares them: the list of
// definitions (./definition.ts). Both doors, the export command, `npm run generate` (the door
// modules at provider/<namespace>/<name>.ts, the namespaces' indexes, the schema, the SDKs and
// the docs' lists of kinds) and the tests that run each resource read it. A new resource is its
// definition in its area's folder, its test, its page in sdk-docs and a line here; the export
// reads the objects of each resource whose definition declares them (`exported`, see
// ./crm/crud/export-declaration.ts), in this order, so an object comes after those it refers to.

import type { Definition } from "./definition";
import { flowRun } from "./chat/flows/flow-run";
import { account } from "./crm/accounts/account";
import { accountContact } from "./crm/accounts/account-contact";
import { accountCustomField } from "./crm/accounts/account-custom-field";
import { accountCustomFieldValue } from "./crm/accounts/account-custom-field-value";
import { accountNote } from "./crm/accounts/account-note";
import { address } from "./crm/campaigns/address";
import { branding } from "./crm/campaigns/branding";
import { calendarFeed } from "./crm/sales/calendar-feed";
import { contactCustomField } from "./crm/contacts/contact-custom-field";
import { contactSync } from "./crm/contacts/contact-sync";
import { customObjectSchema } from "./crm/contacts/custom-object-schema";
import { dealCustomField } from "./crm/sales/deal-custom-field";
import { list } from "./crm/contacts/list";
import { message } from "./crm/campaigns/message";
import { pipeline } from "./crm/sales/pipeline";
import { pipelineStage } from "./crm/sales/pipeline-stage";
import { personalizationVariable } from "./crm/contacts/personalization-variable";
import { savedResponse } from "./crm/sales/saved-response";
import { tag } from "./crm/contacts/tag";
import { trackedEvent } from "./crm/tracking/tracked-event";
import { taskType } from "./crm/sales/task-type";
import { siteTracking } from "./crm/tracking/site-tracking";
import { siteTrackingDomain } from "./crm/tracking/site-tracking-domain";
import { eventTracking } from "./crm/tracking/event-tracking";
import { userGroup } from "./crm/team/user-group";
import { user } from "./crm/team/user";
import { webhook } from "./crm/integrations/webhook";
import { connection } from "./crm/integrations/connection";
import { customFieldGroupMember } from "./crm/contacts/custom-field-group-member";
import { dealRole } from "./crm/sales/deal-role";
import { taskOutcome } from "./crm/sales/task-outcome";
import { listGroupPermission } from "./crm/team/list-group-permission";

interface Entry<Namespace extends string> {
  namespace: Namespace;
  /** The class's name in its namespace: its declaration's name. */
  className: string;
  /**
   * The file name of its dynamic door module (provider/<namespace>/<name>.ts, a path deployed stacks
   * require: never renamed) and of its page, sdk-docs/<namespace>-<name>.md; `pulumi-crm export --kinds` takes it.
   */
  name: string;
  definition: Definition;
}

type Registered = Entry<"crm"> | Entry<"chat">;

export const resources = [
  { namespace: "crm", className: "Account", name: "account", definition: account },
  { namespace: "crm", className: "AccountCustomField", name: "account-custom-field", definition: accountCustomField },
  { namespace: "crm", className: "AccountCustomFieldValue", name: "account-custom-field-value", definition: accountCustomFieldValue },
  { namespace: "crm", className: "AccountNote", name: "account-note", definition: accountNote },
  { namespace: "crm", className: "AccountContact", name: "account-contact", definition: accountContact },
  { namespace: "crm", className: "List", name: "list", definition: list },
  { namespace: "crm", className: "Tag", name: "tag", definition: tag },
  { namespace: "crm", className: "ContactCustomField", name: "contact-custom-field", definition: contactCustomField },
  { namespace: "crm", className: "CustomFieldGroupMember", name: "custom-field-group-member", definition: customFieldGroupMember },
  { namespace: "crm", className: "PersonalizationVariable", name: "personalization-variable", definition: personalizationVariable },
  { namespace: "crm", className: "SavedResponse", name: "saved-response", definition: savedResponse },
  { namespace: "crm", className: "Webhook", name: "webhook", definition: webhook },
  { namespace: "crm", className: "Connection", name: "connection", definition: connection },
  // The sales side, before the addresses that refer to a user group.
  { namespace: "crm", className: "TaskType", name: "task-type", definition: taskType },
  { namespace: "crm", className: "DealRole", name: "deal-role", definition: dealRole },
  { namespace: "crm", className: "TaskOutcome", name: "task-outcome", definition: taskOutcome },
  { namespace: "crm", className: "DealCustomField", name: "deal-custom-field", definition: dealCustomField },
  { namespace: "crm", className: "UserGroup", name: "user-group", definition: userGroup },
  { namespace: "crm", className: "ListGroupPermission", name: "list-group-permission", definition: listGroupPermission },
  { namespace: "crm", className: "User", name: "user", definition: user },
  // After the users and groups a pipeline refers to.
  { namespace: "crm", className: "Pipeline", name: "pipeline", definition: pipeline },
  { namespace: "crm", className: "PipelineStage", name: "pipeline-stage", definition: pipelineStage },
  { namespace: "crm", className: "Address", name: "address", definition: address },
  { namespace: "crm", className: "CalendarFeed", name: "calendar-feed", definition: calendarFeed },
  { namespace: "crm", className: "Message", name: "message", definition: message },
  { namespace: "crm", className: "Branding", name: "branding", definition: branding },
  { namespace: "crm", className: "SiteTracking", name: "site-tracking", definition: siteTracking },
  { namespace: "crm", className: "SiteTrackingDomain", name: "site-tracking-domain", definition: siteTrackingDomain },
  { namespace: "crm", className: "EventTracking", name: "event-tracking", definition: eventTracking },
  { namespace: "crm", className: "TrackedEvent", name: "tracked-event", definition: trackedEvent },
  { namespace: "crm", className: "CustomObjectSchema", name: "custom-object-schema", definition: customObjectSchema },
  { namespace: "crm", className: "ContactSync", name: "contact-sync", definition: contactSync },
  { namespace: "chat", className: "FlowRun", name: "flow-run", definition: flowRun },
] as const satisfies readonly Registered[];

export type RegisteredResource = (typeof resources)[number];
type TypeOf<Resource> = Resource extends { namespace: infer Namespace extends string; className: infer ClassName extends string }
  ? `${Namespace}.${ClassName}`
  : never;
/** A resource's type, as its messages name it: `crm.Account`. */
export type ResourceType = TypeOf<RegisteredResource>;

export const typeOf = <Resource extends RegisteredResource>(resource: Resource) => `${resource.namespace}.${resource.className}` as TypeOf<Resource>;
