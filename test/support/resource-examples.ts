// A valid input of every registered resource, and how the service lists what it makes:
// the tests that run every resource (hostile inputs, lost answers, coalesced reads, the
// service tally) take their cases from here. A resource missing here fails to compile.

import { BUILT_IN_FLOWS } from "../../emulator/src/chat";
import { inputSchema as userGroupInputs } from "../../provider/crm/user-group";
import { resources, type ResourceType } from "../../provider/registry";
import { emulatorCall, type RunningEmulator } from "../../scripts/harness/emulator";
import { dynamicProviderOf } from "./provider-steps";

/** Ids of objects the dependent resources point at. */
export interface Parents {
  account: string;
  contact: string;
  /** A contact custom field of type text. */
  contactField: string;
  /** A custom account field of type text. */
  textField: string;
  /** A pipeline of deals, without stages. */
  pipeline: string;
  /** A user group. */
  userGroup: string;
  /** A list. */
  list: string;
}

export interface ResourceExample {
  /** A valid input: the n-th (from 1) of several that exist side by side, each pointing at its own parents; optional fields vary with n. */
  inputs(parents: Parents, n: number): Record<string, unknown>;
  /** Text fields whose generated values still make a valid input more often than not. */
  textFields: string[];
  /**
   * How a written input is read back: `create` (then deleted), `update` of one object (the
   * account's one branding, which a deployment takes over once), or not at all (actions).
   */
  roundTrip: "create" | "update" | false;
  /** The service has no delete of it: a delete leaves the object (see plainKind's `undeletable`), so the same input is written once. */
  undeletable?: true;
  /**
   * Of the objects a create makes: where the service lists them, each one's natural key as listed, and its id
   * where that is not its `id` (a name-keyed object's name).
   */
  collection?: { path: string; member: string; key(object: any): string; id?(object: any): string };
}

/** A listed object's id, as its resource's id (see ResourceExample.collection). */
export const listedId = (collection: NonNullable<ResourceExample["collection"]>, object: any): string =>
  collection.id ? collection.id(object) : String(object.id);

export const resourceExamples = {
  "crm.Account": {
    inputs: (_parents, n) => ({ name: `Acme ${n}`, accountUrl: n % 2 ? "https://acme.example" : undefined }),
    textFields: ["name"],
    roundTrip: "create",
    collection: { path: "/accounts", member: "accounts", key: (o) => o.name },
  },
  "crm.AccountCustomField": {
    inputs: (_parents, n) => ({
      fieldLabel: `Tier ${n}`,
      fieldType: "dropdown",
      fieldOptions: ["Gold", "Silver"],
      fieldDefault: "Gold",
      isRequired: n % 2 === 1,
    }),
    textFields: ["fieldLabel"],
    roundTrip: "create",
    collection: { path: "/accountCustomFieldMeta", member: "accountCustomFieldMeta", key: (o) => o.fieldLabel },
  },
  "crm.AccountCustomFieldValue": {
    inputs: (parents, n) => ({ accountId: parents.account, customFieldId: parents.textField, fieldValue: `gold ${n}` }),
    textFields: ["fieldValue"],
    roundTrip: "create",
    collection: { path: "/accountCustomFieldData", member: "accountCustomFieldData", key: (o) => `${o.customerAccountId ?? o.accountId}/${o.customFieldId}` },
  },
  "crm.AccountNote": {
    inputs: (parents, n) => ({ accountId: parents.account, note: `Renewal in March ${n}` }),
    textFields: ["note"],
    roundTrip: "create",
    collection: { path: "/notes", member: "notes", key: (o) => o.note },
  },
  "crm.AccountContact": {
    inputs: (parents, n) => ({ accountId: parents.account, contactId: parents.contact, jobTitle: `Buyer ${n}` }),
    textFields: ["jobTitle"],
    roundTrip: "create",
    collection: { path: "/accountContacts", member: "accountContacts", key: (o) => `${o.account}/${o.contact}` },
  },
  "crm.Address": {
    // Even ones in the service's lower-case country and with a user group association.
    inputs: (_parents, n) => ({
      companyName: `Acme ${n}`,
      address1: `${n} Main St`,
      city: "Chicago",
      state: "IL",
      zip: "60601",
      ...(n % 2 ? { country: "US" } : { country: "de", groupId: "3" }),
    }),
    textFields: ["companyName", "address1", "city", "state", "zip"],
    roundTrip: "create",
    collection: { path: "/addresses", member: "addresses", key: (o) => o.companyName },
  },
  "crm.CalendarFeed": {
    inputs: (_parents, n) => ({ title: `Tasks ${n}`, type: "Deals", notification: n % 2 === 1 }),
    textFields: ["title"],
    roundTrip: "create",
    collection: { path: "/calendars", member: "calendars", key: (o) => o.title },
  },
  "crm.Message": {
    inputs: (_parents, n) => ({
      fromname: "Acme News",
      fromemail: "news@acme.example",
      reply2: "help@acme.example",
      subject: `Hi %FIRSTNAME% ${n}`,
      preheaderText: "News",
    }),
    textFields: ["fromname", "subject", "preheaderText"],
    roundTrip: "create",
    // The seed has no list of messages; the reference's GET /messages.
    collection: { path: "/messages", member: "messages", key: (o) => o.subject },
  },
  "crm.List": {
    inputs: (_parents, n) => ({
      name: `News ${n}`,
      stringid: `news-${n}`,
      senderUrl: "https://acme.example",
      senderReminder: "You signed up on acme.example.",
      sendLastBroadcast: n % 2 === 1,
    }),
    textFields: ["name", "senderReminder"],
    roundTrip: "create",
    collection: { path: "/lists", member: "lists", key: (o) => o.name },
  },
  "crm.Tag": {
    inputs: (_parents, n) => ({ tag: `VIP ${n}`, tagType: n % 2 ? "contact" : "template", description: n % 2 ? "Top customers" : undefined }),
    textFields: ["tag", "description"],
    roundTrip: "create",
    collection: { path: "/tags", member: "tags", key: (o) => o.tag },
  },
  "crm.ContactCustomField": {
    inputs: (_parents, n) =>
      n % 2
        ? { title: `Plan ${n}`, type: "dropdown", options: ["Free", "Pro"], defaultValue: "Free" }
        : { title: `Notes ${n}`, type: "text", description: "Free text" },
    textFields: ["title", "description"],
    roundTrip: "create",
    collection: { path: "/fields", member: "fields", key: (o) => o.title },
  },
  "crm.CustomFieldGroupMember": {
    // Group 1: the field group every account comes with, the one the reference's examples use.
    inputs: (parents, n) => ({ fieldId: parents.contactField, groupId: "1", ...(n % 2 ? {} : { order: n }) }),
    textFields: [],
    roundTrip: "create",
  },
  "crm.PersonalizationVariable": {
    inputs: (_parents, n) => ({ tag: `promo-${n}`, name: `Promo ${n}`, format: n % 2 ? "text" : "html", content: "SPRING24" }),
    textFields: ["name", "content"],
    roundTrip: "create",
    collection: { path: "/personalizations", member: "personalizations", key: (o) => o.tag },
  },
  "crm.SavedResponse": {
    inputs: (_parents, n) => ({ title: `Follow-up ${n}`, subject: "Thanks, %FIRSTNAME%", body: "Here are the slides." }),
    textFields: ["title", "subject", "body"],
    roundTrip: "create",
    collection: { path: "/savedResponses", member: "savedResponses", key: (o) => o.title },
  },
  "crm.Connection": {
    inputs: (_parents, n) => ({
      service: "shopify",
      externalId: `store-${n}.myshopify.com`,
      name: `Store ${n}, Inc.`,
      logoUrl: `https://store-${n}.example/logo.png`,
      linkUrl: `https://store-${n}.example/admin/apps/crm`,
    }),
    textFields: ["service", "externalId", "name"],
    roundTrip: "create",
    collection: { path: "/connections", member: "connections", key: (o) => o.externalid },
  },
  "crm.DealRole": {
    inputs: (_parents, n) => ({ title: `Role ${n}` }),
    textFields: ["title"],
    roundTrip: "create",
    collection: { path: "/dealRoles", member: "dealRoles", key: (o) => o.title },
  },
  "crm.TaskOutcome": {
    inputs: (_parents, n) => ({ title: `Outcome ${n}`, sentiment: ["Positive", "Neutral", "Negative"][n % 3], disabled: n % 2 === 0 }),
    textFields: ["title"],
    roundTrip: "create",
    collection: { path: "/taskOutcomes", member: "taskOutcomes", key: (o) => o.title },
  },
  "crm.Webhook": {
    inputs: (_parents, n) => ({
      name: `Hook ${n}`,
      url: `https://hooks.acme.example/${n}`,
      events: ["subscribe", "unsubscribe"],
      sources: n % 2 ? ["public"] : ["api", "system"],
    }),
    textFields: ["name"],
    roundTrip: "create",
    collection: { path: "/webhooks", member: "webhooks", key: (o) => o.name },
  },
  "crm.TaskType": {
    inputs: (_parents, n) => ({ title: `Demo call ${n}`, disabled: n % 2 === 0 }),
    textFields: ["title"],
    roundTrip: "create",
    collection: { path: "/dealTasktypes", member: "dealTasktypes", key: (o) => o.title },
  },
  "crm.DealCustomField": {
    inputs: (_parents, n) => ({
      fieldLabel: `Lead source ${n}`,
      fieldType: "dropdown",
      fieldOptions: ["Web", "Referral"],
      fieldDefault: "Web",
      isFormVisible: n % 2 === 1,
    }),
    textFields: ["fieldLabel"],
    roundTrip: "create",
    collection: { path: "/dealCustomFieldMeta", member: "dealCustomFieldMeta", key: (o) => o.fieldLabel },
  },
  "crm.Pipeline": {
    inputs: (_parents, n) => ({ title: `Sales ${n}`, currency: n % 2 ? "usd" : "eur", autoAssign: n % 2 ? "roundRobin" : "off", allUsers: n % 2 === 0 }),
    textFields: ["title"],
    roundTrip: "create",
    collection: { path: "/dealGroups", member: "dealGroups", key: (o) => o.title },
  },
  "crm.PipelineStage": {
    inputs: (parents, n) => ({
      title: `Qualified ${n}`,
      pipelineId: parents.pipeline,
      order: n % 2 ? n : undefined,
      color: n % 2 ? "32B0FC" : undefined,
      width: n % 2 ? 300 : undefined,
    }),
    textFields: ["title"],
    roundTrip: "create",
    collection: { path: "/dealStages", member: "dealStages", key: (o) => o.title },
  },
  "crm.UserGroup": {
    inputs: (_parents, n) => ({
      title: `Sales reps ${n}`,
      description: n % 2 ? "The sales team" : undefined,
      permissions: everyPermission({ contactAdd: true, contactEdit: n % 2 === 1, deal: true }),
    }),
    textFields: ["title", "description"],
    roundTrip: "create",
    collection: { path: "/groups", member: "groups", key: (o) => o.title },
  },
  "crm.ListGroupPermission": {
    // Each n its own list and group: a pair is held once.
    inputs: (parents) => ({ listId: parents.list, groupId: parents.userGroup }),
    textFields: [],
    roundTrip: "create",
    undeletable: true,
  },
  "crm.User": {
    inputs: (parents, n) => ({
      username: `rep${n}`,
      email: `rep${n}@acme.example`,
      firstName: "Ada",
      lastName: `Rep ${n}`,
      groupId: parents.userGroup,
      ...(n % 2 ? {} : { password: `correct horse ${n}` }),
    }),
    textFields: ["firstName", "lastName"],
    roundTrip: "create",
    collection: { path: "/users", member: "users", key: (o) => o.username },
  },
  "crm.Branding": { inputs: () => ({ siteName: "Acme", headerTextValue: "Acme Inc" }), textFields: ["siteName", "headerTextValue"], roundTrip: "update" },
  "crm.SiteTracking": { inputs: () => ({ enabled: false }), textFields: [], roundTrip: "update" },
  "crm.SiteTrackingDomain": {
    inputs: (_parents, n) => ({ name: `shop${n}.acme.example` }),
    textFields: [],
    roundTrip: "create",
    collection: { path: "/siteTrackingDomains", member: "siteTrackingDomains", key: (o) => o.name, id: (o) => o.name },
  },
  "crm.EventTracking": { inputs: () => ({ enabled: false }), textFields: [], roundTrip: "update" },
  "crm.TrackedEvent": {
    inputs: (_parents, n) => ({ name: `Signed up ${n}` }),
    textFields: ["name"],
    roundTrip: "create",
    collection: { path: "/eventTrackingEvents", member: "eventTrackingEvents", key: (o) => o.name, id: (o) => o.name },
  },
  "crm.CustomObjectSchema": {
    inputs: (_parents, n) => ({
      slug: `subscription-${n}`,
      labels: { singular: `Subscription ${n}`, plural: `Subscriptions ${n}` },
      description: n % 2 ? "Software subscriptions" : undefined,
      // In the form the check gives (sorted by id, defaults spelt out), as an import declares it.
      fields: [
        { id: "plan", labels: { singular: "Plan", plural: "Plans" }, type: "dropdown", required: n % 2 === 1, options: ["Basic", "Pro"] },
        { id: "seats", labels: { singular: "Seats", plural: "Seats" }, type: "number", required: false, scale: 0 },
      ],
      relationships: n % 2 ? [{ id: "owner", labels: { singular: "Owner", plural: "Owners" }, namespace: "contacts", hasMany: false }] : [],
    }),
    textFields: ["description"],
    roundTrip: "create",
    collection: { path: "/customObjects/schemas", member: "schemas", key: (o) => o.slug },
  },
  "crm.ContactSync": { inputs: (_parents, n) => ({ contacts: [{ email: `ada${n}@example.com`, firstName: "Ada" }] }), textFields: [], roundTrip: false },
  "chat.FlowRun": { inputs: () => ({ flowId: BUILT_IN_FLOWS[0].id, contacts: [{ phone: "+15550100", firstName: "Ada" }] }), textFields: [], roundTrip: false },
} satisfies Record<ResourceType, ResourceExample>;

/** A list made on the emulator through its HTTP API, for resources that refer to one: its id. */
export async function makeList(emulator: RunningEmulator, stringid: string): Promise<string> {
  const list = { name: stringid, stringid, sender_url: "https://acme.example", sender_reminder: "You signed up." };
  return String((await emulatorCall(emulator, "POST", "/api/3/lists", { list })).body.list.id);
}

/** A user group's permissions, every one spelt out as a read (an import) declares them. */
function everyPermission(granted: Record<string, boolean>): Record<string, boolean> {
  return userGroupInputs.shape.permissions.parse(granted);
}

/** The n-th set of parents, made on the emulator through its HTTP API. */
export async function makeParents(emulator: RunningEmulator, n = 1): Promise<Parents> {
  const post = async (path: string, body: unknown) => (await emulatorCall(emulator, "POST", `/api/3${path}`, body)).body;
  return {
    account: String((await post("/accounts", { account: { name: `Parent ${n}` } })).account.id),
    contact: String((await post("/contacts", { contact: { email: `parent${n}@example.com` } })).contact.id),
    contactField: String((await post("/fields", { field: { title: `Parent field ${n}`, type: "text" } })).field.id),
    textField: String(
      (await post("/accountCustomFieldMeta", { accountCustomFieldMetum: { fieldLabel: `Parent text ${n}`, fieldType: "text" } })).accountCustomFieldMetum.id,
    ),
    pipeline: await pipelineWithoutStages(emulator, `Parent pipeline ${n}`),
    userGroup: String((await post("/groups", { group: { title: `Parent group ${n}` } })).group.id),
    list: await makeList(emulator, `parent-list-${n}`),
  };
}

/** A pipeline made through the emulator's API, its default stages deleted (as crm.Pipeline does). */
export async function pipelineWithoutStages(emulator: RunningEmulator, title: string): Promise<string> {
  const { dealGroup } = (await emulatorCall(emulator, "POST", "/api/3/dealGroups", { dealGroup: { title, currency: "usd" } })).body;
  for (const stage of dealGroup.stages) await emulatorCall(emulator, "DELETE", `/api/3/dealStages/${stage}`);
  return String(dealGroup.id);
}

/** An object made by its resource module: its id, the inputs it was made with, and the outputs its create read. */
export interface MadeObject {
  id: string;
  inputs: Record<string, unknown>;
  outs: Record<string, unknown>;
}

/**
 * An object of each crm resource, made by its module with its example's first inputs (the
 * modules pointed at `emulator` by emulatorForProvider), by class name.
 */
export async function makeEveryCrmObject(emulator: RunningEmulator): Promise<Map<string, MadeObject>> {
  const parents = await makeParents(emulator);
  const made = new Map<string, MadeObject>();
  for (const resource of resources.filter((entry) => entry.namespace === "crm")) {
    // JSON's way: an input left undefined is left out.
    const inputs = JSON.parse(JSON.stringify(resourceExamples[`crm.${resource.className}`].inputs(parents, 1)));
    const { id, outs } = await dynamicProviderOf(resource).create(inputs);
    made.set(resource.className, { id, inputs, outs: outs ?? {} });
  }
  return made;
}
