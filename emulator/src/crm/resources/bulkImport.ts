import { randomUUID } from "node:crypto";
import { ApiError, fieldError, isObject, ok, orNoResult, unprocessable, type Attributes } from "../api";
import { requirePermission, type CrmContext } from "../context";
import type { Route } from "../router";
import type { ImportBatchRow } from "../state";
import { isoTimestamp } from "../time";
import type { ContactMembers } from "./contactMembers";
import { isEmail, findContactByEmail, upsertContact } from "./contacts";

export const MAX_IMPORT_CONTACTS = 250;
export const DEFAULT_CONTACT_LIMIT = 100_000;
export const DEFAULT_IMPORT_DELAY_MS = 200;

/** The reference's 400: the payload refused whole, nothing queued. */
function notQueued(failureReasons: unknown[]): ApiError {
  const message = "JSON payload did not pass validation. Please fix failure Reasons and retry. The import was not queued for processing.";
  return new ApiError({ status: 400, body: { success: 0, message, failureReasons } });
}

export interface BulkImportOptions {
  contactLimit?: number;
  /** Delay before a batch writes its rows, so a read right after the answer does not see them. */
  delayMs?: number;
  /** Whether a row without a valid email refuses the whole request (the reference) rather than being skipped (the seed). */
  refusesInvalidEmails?: boolean;
  onBackgroundChange?: () => void;
  /** Where a row's fields, tags and list subscriptions are written. */
  members: ContactMembers;
}

export interface BulkImport {
  routes: Route[];
  setContactLimit(limit: number): void;
  /** Schedules batches still queued, e.g. after a restart restored them. */
  resumeQueued(): void;
  /** Cancels scheduled batches (reset, shutdown). */
  stop(): void;
}

/**
 * Bulk contact sync (POST /import/bulk_import): up to 250 contacts upserted by email in the
 * background, with their custom fields, tags and list subscriptions. Rows that cannot be
 * written are skipped and reported by GET /import/info; a payload without contacts is refused.
 */
export function bulkImport(crm: CrmContext, options: BulkImportOptions): BulkImport {
  const { importBatches, contacts, lists } = crm.tables;
  const { members } = options;
  const delayMs = options.delayMs ?? DEFAULT_IMPORT_DELAY_MS;
  let contactLimit = options.contactLimit ?? DEFAULT_CONTACT_LIMIT;
  const timers = new Set<NodeJS.Timeout>();

  const schedule = (batch: ImportBatchRow): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run(batch);
      options.onBackgroundChange?.();
    }, delayMs);
    timer.unref();
    timers.add(timer);
  };

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
        if (options.refusesInvalidEmails) {
          // The reference's example names the row (by its place in contacts, here from 0) and gives this reason; it shows no other.
          const failureReason = "Field‘ email’ incorrect format";
          const invalid = rows.flatMap((row, index) => (isEmail(emailOf(row)) ? [] : [{ contact: index, failureReason }]));
          if (invalid.length > 0) throw notQueued(invalid);
        }
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
    setContactLimit: (limit) => {
      contactLimit = limit;
    },
    resumeQueued: () => {
      for (const batch of importBatches.where((b) => b.status === "queued")) schedule(batch);
    },
    stop: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
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
