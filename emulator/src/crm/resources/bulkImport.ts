import { randomUUID } from "node:crypto";
import { ApiError, fieldError, isObject, ok, orNoResult, unprocessable, type Attributes } from "../api";
import { requirePermission, type CrmContext } from "../context";
import type { Route } from "../router";
import type { Row } from "../store";
import { isoTimestamp } from "../time";
import { contactMembers } from "./contactMembers";
import { isEmail, findContactByEmail, upsertContact } from "./contacts";
import { crmModule, table } from "../module";

export interface ImportBatchRow extends Row {
  status: "queued" | "completed";
  /** When the batch was accepted; absent in state files written before it was kept. */
  queuedMs?: number;
  contacts: unknown[];
  /** Ids of the contacts written, then emails (or row numbers) of the rows skipped. */
  success: string[];
  failure: string[];
}

export const bulkImportModule = crmModule({
  tables: { importBatches: table<ImportBatchRow>() },
  routes: (crm) => crm.shared(bulkImport).routes,
  restored: (crm) => crm.shared(bulkImport).resumeQueued(),
});

export const MAX_IMPORT_CONTACTS = 250;
const DEFAULT_CONTACT_LIMIT = 100_000;
/** Delay before a batch writes its rows, so a read right after the answer does not see them. */
const DEFAULT_IMPORT_DELAY_MS = 200;

/** The reference's 400: the payload refused whole, nothing queued. */
function notQueued(failureReasons: unknown[]): ApiError {
  const message = "JSON payload did not pass validation. Please fix failure Reasons and retry. The import was not queued for processing.";
  return new ApiError({ status: 400, body: { success: 0, message, failureReasons } });
}

interface BulkImport {
  routes: Route[];
  /** Schedules batches still queued, e.g. after a restart restored them. */
  resumeQueued(): void;
}

/**
 * Bulk contact sync (POST /import/bulk_import): up to 250 contacts upserted by email in the
 * background, with their custom fields, tags and list subscriptions. Rows that cannot be
 * written are skipped and reported by GET /import/info; a payload without contacts is refused.
 */
function bulkImport(crm: CrmContext): BulkImport {
  const { importBatches, contacts, lists } = crm.tables;
  const { settings } = crm;
  // Where a row's fields, tags and list subscriptions are written.
  const members = crm.shared(contactMembers);

  const schedule = (batch: ImportBatchRow): void => crm.later(settings.bulkImportDelayMs ?? DEFAULT_IMPORT_DELAY_MS, () => run(batch));

  /** Writes one row, its custom fields, tags (added, never removed) and list subscriptions; false when the row cannot be written. */
  const write = (row: Attributes, email: string, batch: ImportBatchRow): boolean => {
    const values = members.checkFieldValues(row.fields, "fields");
    const [subscribe, unsubscribe] = [listIdsOf(row.subscribe), listIdsOf(row.unsubscribe)];
    if ([...subscribe, ...unsubscribe].some((listId) => !lists.get(listId))) return false;
    const { contact } = upsertContact(crm, { ...row, email });
    members.setFieldValues(contact, values);
    members.addTags(contact, Array.isArray(row.tags) ? row.tags.filter((tag): tag is string => typeof tag === "string") : []);
    members.setListStatus(contact, subscribe, "1");
    members.setListStatus(contact, unsubscribe, "2");
    batch.success.push(contact.id);
    return true;
  };

  const run = (batch: ImportBatchRow): void => {
    batch.contacts.forEach((row, index) => {
      const email = emailOf(row);
      const written = isObject(row) && isEmail(email) && writeOrRefuse(() => write(row, email, batch));
      if (!written) batch.failure.push(email || `#${index}`);
    });
    batch.status = "completed";
  };

  const routes: Route[] = [
    {
      method: "POST",
      pattern: "/import/bulk_import",
      handle: (req) => {
        requirePermission(crm, req.token, "pg_subscriber_add");
        const rows = isObject(req.body) ? req.body.contacts : undefined;
        // REAL-WORLD.md (high): an empty payload is refused, as the reference refuses a payload (400). The reason's words are the emulator's.
        if (!Array.isArray(rows) || rows.length === 0) throw notQueued(["At least one contact is required in the contacts array."]);
        if (rows.length > MAX_IMPORT_CONTACTS) {
          throw unprocessable(fieldError("field_invalid", "contacts", `At most ${MAX_IMPORT_CONTACTS} contacts may be sent at once; got ${rows.length}.`));
        }
        if (settings.bulkImportRefusesInvalidEmails) {
          // The reference's example names the row (by its place in contacts, here from 0) and gives this reason; it shows no other.
          const failureReason = "Field‘ email’ incorrect format";
          const invalid = rows.flatMap((row, index) => (isEmail(emailOf(row)) ? [] : [{ contact: index, failureReason }]));
          if (invalid.length > 0) throw notQueued(invalid);
        }
        const contactLimit = settings.contactLimit ?? DEFAULT_CONTACT_LIMIT;
        const newEmails = new Set(rows.map((row) => emailOf(row).toLowerCase()).filter((email) => isEmail(email) && !findContactByEmail(crm, email)));
        if (contacts.size + newEmails.size > contactLimit) {
          throw unprocessable(
            fieldError("field_invalid", "contacts", `The account's contact limit (${contactLimit}) would be exceeded: it holds ${contacts.size} contacts.`),
          );
        }
        const batch = importBatches.put({ id: randomUUID(), status: "queued", queuedMs: crm.now(), contacts: rows, success: [], failure: [] });
        schedule(batch);
        // REAL-WORLD.md (high): {success, queued_contacts, batchId}; the reference: 200.
        return ok({ success: 1, queued_contacts: rows.length, batchId: batch.id, message: "Contact import queued" });
      },
    },
    {
      method: "GET",
      pattern: "/import/bulk_import",
      // The reference's status list: batches and their contacts per day, still queued or done.
      handle: () =>
        ok({
          outstanding: countsByDay(importBatches.where((b) => b.status === "queued")),
          recentlyCompleted: countsByDay(importBatches.where((b) => b.status === "completed")),
        }),
    },
    {
      method: "GET",
      pattern: "/import/info",
      handle: (req) => {
        const batchId = req.query.get("batchId");
        if (!batchId) throw new ApiError({ status: 400, body: { success: 0, message: "'batchId' is a required field." } });
        const batch = orNoResult(importBatches.get(batchId), "Batch", batchId);
        return ok({ status: batch.status, success: batch.success, failure: batch.failure });
      },
    },
  ];

  return {
    routes,
    resumeQueued: () => {
      for (const batch of importBatches.where((b) => b.status === "queued")) schedule(batch);
    },
  };
}

/** A row's email, trimmed; "" when it has none. */
function emailOf(row: unknown): string {
  return isObject(row) && typeof row.email === "string" ? row.email.trim() : "";
}

/** The list ids of a row's subscribe or unsubscribe: [{listid}]. */
function listIdsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map((item) => String(isObject(item) ? item.listid : item)) : [];
}

/** A row's write, a refusal (a field that is not the account's) counting as not written. */
function writeOrRefuse(write: () => boolean): boolean {
  try {
    return write();
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

/** {forDate, batches, contacts} per day of the account's calendar, counts as digit strings as the reference shows them. */
function countsByDay(batches: ImportBatchRow[]): Array<{ forDate: string; batches: string; contacts: string }> {
  const days = new Map<string, { batches: number; contacts: number }>();
  for (const batch of batches) {
    // Batches restored from a state file older than queuedMs count on the epoch's day.
    const day = isoTimestamp(batch.queuedMs ?? 0).slice(0, 10);
    const counts = days.get(day) ?? { batches: 0, contacts: 0 };
    counts.batches += 1;
    counts.contacts += batch.contacts.length;
    days.set(day, counts);
  }
  return [...days]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([forDate, counts]) => ({ forDate, batches: String(counts.batches), contacts: String(counts.contacts) }));
}
