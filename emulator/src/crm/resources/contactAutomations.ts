import { forbidden } from "../api";
import { equals } from "../collections";
import { collection, id, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Document } from "../kinds";
import type { Route } from "../router";
import { crmModule, table } from "../module";
import { ofContact } from "./contactMembers";
import { readOnlyRecords } from "./readOnly";

export const contactAutomationsModule = crmModule({
  // Indexed by the contact: a contact read alone reads its enrolments.
  tables: { contactAutomations: table<CollectionRow>({ keyOf: ofContact }) },
  routes: contactAutomationRoutes,
});

/** An enrolment in progress; the emulator runs no automation, so none moves on to 2 (ended). */
const IN_PROGRESS = "1";

/** The create's refusal of an enrolment it cannot make: the reference's only error example of POST /contactAutomations. */
const cannotCreate = () => forbidden("Could not create SubscriberSeries");

/**
 * Contacts' enrolments in automations (/contactAutomations; the service's class is
 * SubscriberSeries): added, listed, read and removed. An unknown contact or automation, or a
 * contact already in the automation, is refused with the reference's 403; the documents do
 * not say which enrolments the service refuses, so these are the plausible ones.
 */
function contactAutomationRoutes(crm: CrmContext): Route[] {
  const { contacts, contactAutomations } = crm.tables;
  const { automations } = crm.shared(readOnlyRecords);
  return collection<CollectionRow>(crm, {
    singular: "contactAutomation",
    plural: "contactAutomations",
    record: "SubscriberSeries",
    table: contactAutomations,
    createStatus: 201,
    // The reference has no update of an enrolment.
    operations: ["create", "list", "read", "delete"],
    fields: {
      contact: { form: id, required: "The contact field is required." },
      automation: { form: id, required: "The automation field is required." },
    },
    // Nothing runs, so an enrolment stays at the start of its automation, as the reference's reads write one.
    constants: {
      startid: "0",
      status: IN_PROGRESS,
      batchid: null,
      // Not removed yet: an empty date as the service writes one (REAL-WORLD.md).
      remdate: "0000-00-00 00:00:00",
      timespan: "0",
      lastblock: "0",
      lastlogid: "0",
      completedElements: "0",
      totalElements: "0",
      completed: 0,
      completeValue: 0,
    },
    timestamps: { adddate: "created", lastdate: "updated" },
    links: {
      automation: (row, req) =>
        crm.kinds.relatedOne(
          req,
          "automations",
          automations.find((a) => a.id === row.automation),
        ),
      contact: (row, req) => crm.kinds.relatedOne(req, "contacts", contacts.get(String(row.contact))),
      contactGoals: null,
      // Only the reference's newest example (a contact's enrolments) shows it.
      automationLogs: null,
    },
    list: {
      // The reference lists no filters; these are the enrolment's own columns, as the service's table names them.
      filters: { seriesid: equals("automation"), subscriberid: equals("contact"), status: (_row, value) => value === IN_PROGRESS },
      // orders[lastdate]=DESC is how the service's own contact links order enrolments.
      orderValue: (row, field) => ({ adddate: row.createdMs, lastdate: row.updatedMs, seriesid: row.automation })[field] ?? row[field],
      meta: () => ({ showcase_stats: [] }),
    },
    hooks: {
      check(draft) {
        if (!contacts.get(String(draft.contact)) || !automations.some((a) => a.id === draft.automation)) throw cannotCreate();
        if (contactAutomations.withKey(String(draft.contact)).some((row) => row.automation === draft.automation)) throw cannotCreate();
      },
      members: (row) => ({ seriesid: row.automation }),
      // The reference's create answer: the contact beside a shorter enrolment, its counters as numbers.
      written(document, row, _attrs, req) {
        const { contact, seriesid, lastblock, completedElements, totalElements, links, id: enrolmentId, automation } = document.contactAutomation as Document;
        const counters = { startid: 0, status: Number(IN_PROGRESS), lastblock, completedElements, totalElements, completed: 0, completeValue: 0 };
        return {
          contacts: [crm.kinds.get("contacts").present(contacts.get(String(row.contact))!, req, "list")],
          contactAutomation: { contact, seriesid, ...counters, links, id: enrolmentId, automation },
        };
      },
    },
  }).routes;
}
