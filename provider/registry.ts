// Every resource of the package, once, in the order a program declares them: the export
// command and the tests that run each resource read this list. A new resource is its
// module, its test, its page in sdk-docs and a line here; the export reads the objects of
// each resource whose module declares them (`exported`, see ./crm/export-declaration.ts),
// in this order, so an object comes after those it refers to.

import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { ServiceObject } from "./crm/service/collection";
import type { ExportDeclaration } from "./crm/export-declaration";
import type { ResourceCore } from "./kit/core";
import type { AnyResourceDeclaration } from "./kit/declaration";
import type * as chat from "./chat";
import * as flowRun from "./chat/flow-run";
import type * as crm from "./crm";
import * as account from "./crm/account";
import * as accountContact from "./crm/account-contact";
import * as accountCustomField from "./crm/account-custom-field";
import * as accountCustomFieldValue from "./crm/account-custom-field-value";
import * as accountNote from "./crm/account-note";
import * as address from "./crm/address";
import * as branding from "./crm/branding";
import * as calendarFeed from "./crm/calendar-feed";
import * as contactCustomField from "./crm/contact-custom-field";
import * as contactSync from "./crm/contact-sync";
import * as customObjectSchema from "./crm/custom-object-schema";
import * as dealCustomField from "./crm/deal-custom-field";
import * as list from "./crm/list";
import * as message from "./crm/message";
import * as pipeline from "./crm/pipeline";
import * as pipelineStage from "./crm/pipeline-stage";
import * as personalizationVariable from "./crm/personalization-variable";
import * as savedResponse from "./crm/saved-response";
import * as tag from "./crm/tag";
import * as trackedEvent from "./crm/tracked-event";
import * as taskType from "./crm/task-type";
import * as siteTracking from "./crm/site-tracking";
import * as siteTrackingDomain from "./crm/site-tracking-domain";
import * as eventTracking from "./crm/event-tracking";
import * as userGroup from "./crm/user-group";
import * as user from "./crm/user";
import * as webhook from "./crm/webhook";

/**
 * A resource module: its provider core (see ./kit/core.ts), which both doors serve; the
 * provider functions of its dynamic resources made of it (see ./dynamic.ts); its
 * declaration (see ./kit/declaration.ts) and the input schema made of it; and, for a
 * resource whose objects `pulumi-crm export` declares, what the export reads (`exported`)
 * and the inputs declaring an object as the service holds it.
 */
export type ResourceModule = pulumi.dynamic.ResourceProvider & { core: ResourceCore; inputSchema: z.AnyZodObject; declaration: AnyResourceDeclaration } & (
    | { exported?: undefined }
    | { exported: ExportDeclaration; inputsDeclaring(object: ServiceObject): Record<string, unknown> | undefined }
  );

interface Entry<Namespace extends string, Classes> {
  namespace: Namespace;
  /** The class's name in its namespace: a name the namespace does not export fails to compile. */
  className: keyof Classes & string;
  /** The module's file name and the page's, sdk-docs/<namespace>-<name>.md; `pulumi-crm export --kinds` takes it. */
  name: string;
  module: ResourceModule;
}

type Registered = Entry<"crm", typeof crm> | Entry<"chat", typeof chat>;

export const resources = [
  { namespace: "crm", className: "Account", name: "account", module: account },
  { namespace: "crm", className: "AccountCustomField", name: "account-custom-field", module: accountCustomField },
  { namespace: "crm", className: "AccountCustomFieldValue", name: "account-custom-field-value", module: accountCustomFieldValue },
  { namespace: "crm", className: "AccountNote", name: "account-note", module: accountNote },
  { namespace: "crm", className: "AccountContact", name: "account-contact", module: accountContact },
  { namespace: "crm", className: "List", name: "list", module: list },
  { namespace: "crm", className: "Tag", name: "tag", module: tag },
  { namespace: "crm", className: "ContactCustomField", name: "contact-custom-field", module: contactCustomField },
  { namespace: "crm", className: "PersonalizationVariable", name: "personalization-variable", module: personalizationVariable },
  { namespace: "crm", className: "SavedResponse", name: "saved-response", module: savedResponse },
  { namespace: "crm", className: "Webhook", name: "webhook", module: webhook },
  // The sales side, before the addresses that refer to a user group.
  { namespace: "crm", className: "TaskType", name: "task-type", module: taskType },
  { namespace: "crm", className: "DealCustomField", name: "deal-custom-field", module: dealCustomField },
  { namespace: "crm", className: "UserGroup", name: "user-group", module: userGroup },
  { namespace: "crm", className: "User", name: "user", module: user },
  // After the users and groups a pipeline refers to.
  { namespace: "crm", className: "Pipeline", name: "pipeline", module: pipeline },
  { namespace: "crm", className: "PipelineStage", name: "pipeline-stage", module: pipelineStage },
  { namespace: "crm", className: "Address", name: "address", module: address },
  { namespace: "crm", className: "CalendarFeed", name: "calendar-feed", module: calendarFeed },
  { namespace: "crm", className: "Message", name: "message", module: message },
  { namespace: "crm", className: "Branding", name: "branding", module: branding },
  { namespace: "crm", className: "SiteTracking", name: "site-tracking", module: siteTracking },
  { namespace: "crm", className: "SiteTrackingDomain", name: "site-tracking-domain", module: siteTrackingDomain },
  { namespace: "crm", className: "EventTracking", name: "event-tracking", module: eventTracking },
  { namespace: "crm", className: "TrackedEvent", name: "tracked-event", module: trackedEvent },
  { namespace: "crm", className: "CustomObjectSchema", name: "custom-object-schema", module: customObjectSchema },
  { namespace: "crm", className: "ContactSync", name: "contact-sync", module: contactSync },
  { namespace: "chat", className: "FlowRun", name: "flow-run", module: flowRun },
] as const satisfies readonly Registered[];

export type RegisteredResource = (typeof resources)[number];
type TypeOf<Resource> = Resource extends { namespace: infer Namespace extends string; className: infer ClassName extends string }
  ? `${Namespace}.${ClassName}`
  : never;
/** A resource's type, as its messages name it: `crm.Account`. */
export type ResourceType = TypeOf<RegisteredResource>;

export const typeOf = <Resource extends RegisteredResource>(resource: Resource) => `${resource.namespace}.${resource.className}` as TypeOf<Resource>;
