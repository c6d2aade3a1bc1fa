// crm.ContactSync: an action resource that upserts a list of contacts (matched by
// email) through the service's bulk import, in batches of at most 250, and reports
// each row's outcome. It syncs when created and again when its contacts or triggers
// change (an update); deleting it deletes no contact. Its declaration and its
// provider live here.

import { randomUUID } from "node:crypto";
import { z } from "zod";
import { defineKind } from "../../definition";
import { actionKind, diffAction, forget, notImportable, recordedRead, runsAgain, stoppedPartWay, triggersInput, waitUntilEnded } from "../../kit/action";
import type { Created, ResourceCore, Updated } from "../../kit/core";
import { log } from "../../kit/log";
import { declareResource, input, inputObject, output, outputObject } from "../../kit/declaration";
import { givenText, serviceId, withoutProvider } from "../../kit/inputs";
import { types } from "../../kit/value-types";
import { checkInputs } from "../../kit/check-diff";
import { CrmClient } from "../service/client";
import type * as pulumi from "@pulumi/pulumi";
import { numberOf } from "../service/normalize";
import { PulumiCrmError } from "../../transport/errors";
import type { ContactSyncOutputs } from "../generated-types";

const text = (max: number) => z.string({ invalid_type_error: "must be a string" }).max(max, `must be at most ${max} characters`).optional();
const listIds = z.array(serviceId("a list"), { invalid_type_error: "must be a list of list ids" }).optional();

const contactSchema = inputObject(
  "ContactSyncContact",
  "One contact to sync: its email address and the fields the bulk import takes.",
  {
    // The service judges the address itself, row by row: one it refuses is reported in failures, not a reason to sync nothing.
    email: input(
      givenText("the contact's email address", z.string().trim().max(254, "must be at most 254 characters")),
      "The contact's email address: the service updates the contact with this address (regardless of case), or creates one.",
    ),
    firstName: input(text(255), "The contact's first name."),
    lastName: input(text(255), "The contact's last name."),
    phone: input(text(255), "The contact's phone number."),
    accountName: input(text(255), "The name of the contact's account (company)."),
    tags: input(
      z
        .array(z.string().min(1, "must not be empty").max(255, "must be at most 255 characters"), { invalid_type_error: "must be a list of tag names" })
        .optional(),
      "Tags to add to the contact, each 1 to 255 characters; a sync never removes tags.",
    ),
    fields: input(
      z
        .array(
          inputObject(
            "ContactSyncCustomFieldValue",
            "A custom field value of a synced contact.",
            {
              id: input(serviceId("a custom field"), "The custom field's id."),
              value: input(z.string({ invalid_type_error: "must be a string" }), "Its value; the values of a multi-value field are separated by `||`."),
            },
            "a custom field value",
          ),
          { invalid_type_error: "must be a list of {id, value}" },
        )
        .optional(),
      "Custom field values: the field's id and its value.",
    ),
    subscribe: input(listIds, "Ids of the lists to subscribe the contact to."),
    unsubscribe: input(listIds, "Ids of the lists to unsubscribe the contact from."),
  },
  "a contact",
);

const declaration = declareResource({
  namespace: "crm",
  name: "ContactSync",
  inputs: {
    contacts: input(
      z
        .array(contactSchema, { required_error: "is required: the contacts to sync", invalid_type_error: "must be a list of contacts" })
        .min(1, "must name at least one contact")
        .superRefine((contacts, context) => {
          const first = new Map<string, number>();
          contacts.forEach((contact, index) => {
            const key = contact.email.toLowerCase();
            const earlier = first.get(key);
            if (earlier === undefined) first.set(key, index);
            else
              context.addIssue({ code: z.ZodIssueCode.custom, path: [index, "email"], message: `is also contact ${earlier}'s: each address may appear once` });
          });
        }),
      "The contacts, each email address once. A change syncs every contact again.",
    ),
    triggers: input(triggersInput, "Any values, kept in the state and never sent to the service; when they change, every contact is synced again."),
  },
  outputs: {
    created: output(types.integer, "Rows of the last sync that made a new contact."),
    updated: output(types.integer, "Rows of the last sync that updated the contact with that address."),
    failed: output(types.integer, "Rows the service skipped; each is in failures."),
    failures: output(
      types.list(
        outputObject("ContactSyncFailure", "A row the service skipped.", {
          email: output(types.string, "The row's email address."),
          reason: output(
            types.string,
            "The likely reason: `not a valid email address`, or that the service could not write it (a field it refused, or a contact the API token cannot access); the service names the rows it skipped, not why.",
          ),
        }),
      ),
      "The rows the service skipped: their email address and the likely reason.",
    ),
    unconfirmed: output(types.integer, "Rows queued whose outcome could not be read (the service's answer was lost); never sent again."),
    pending: output(types.integer, "Rows not sent yet because the sync stopped; the next `pulumi up` sends them."),
    batchIds: output(types.list(types.string), "The service's ids of the import batches queued, in order."),
  },
});

type ContactSyncInputs = z.output<typeof declaration.inputSchema>;
type SyncContact = z.output<typeof contactSchema>;

/** The outputs: the inputs and what the last sync did (see the declaration), as a sync tallies them. */
type SyncState = ContactSyncInputs & {
  -readonly [Output in Exclude<keyof ContactSyncOutputs, keyof ContactSyncInputs>]: pulumi.Unwrap<ContactSyncOutputs[Output]>;
};

/** The report of a sync before it sends anything: every count 0, every list empty. */
const emptyReport = Object.fromEntries(
  declaration.fields.filter((field) => field.role === "output").map((field) => [field.name, field.type.kind === "list" ? [] : 0]),
);

const resourceType = declaration.type;
const describe = (contacts: unknown) => (Array.isArray(contacts) ? `${resourceType} of ${contacts.length} contacts` : resourceType);
const kind = actionKind(declaration, {
  label: (inputs) => describe(inputs.contacts),
  // The sync's outputs are a report of the last one, kept by the next: it syncs again in place.
  runOn: ["contacts"],
  runAgainAs: "update",
});

/** The service's limit on contacts per bulk import. */
const batchSize = 250;
/** How long a batch may stay queued before the sync stops following it. */
const batchTimeoutMs = 30 * 60_000;

const advice = {
  "422":
    "the account's contact limit would be exceeded, and the service wrote nothing of this batch: raise the account's contact limit, or sync fewer new contacts",
  "403": "check that the API token's user has the pg_subscriber_add permission, which a bulk import needs",
  unconfirmed: "the service's count of import batches shows this batch was not queued: run `pulumi up` again to send it",
};

/** A sync that stopped part way is finished by the next up. */
const stoppedSync = (olds: Record<string, unknown>) => {
  const pending = numberOf(olds.pending) ?? 0;
  return pending > 0 ? `${pending} of its contacts were not sent: the next up sends them` : undefined;
};

async function startSync(props: Record<string, unknown>): Promise<Created> {
  const inputs = declaration.inputSchema.parse(withoutProvider(props));
  const id = randomUUID();
  return { id, outs: await sync(id, inputs, freshState(inputs)) };
}

/** New contacts or triggers sync every contact again; the same ones only send the rows a stopped sync left. */
async function syncAgain(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Updated> {
  const inputs = declaration.inputSchema.parse(withoutProvider(news));
  const state = runsAgain(kind, olds, inputs) ? freshState(inputs) : (withoutProvider(olds) as unknown as SyncState);
  return { outs: await sync(id, inputs, state) };
}

const core: ResourceCore = {
  declaration,
  importable: notImportable,
  check: async (_olds, news) => checkInputs(kind, news),
  diff: async (_id, olds, news) => diffAction(kind, olds, news, stoppedSync(olds)),
  create: startSync,
  update: syncAgain,
  // Refresh reads nothing: the contacts are the service's to change afterwards, and the sync's report is history.
  read: async (id, from) => recordedRead(kind, id, from),
  // A sync cannot be undone: deleting the resource deletes no contact.
  delete: forget,
};

function freshState(inputs: ContactSyncInputs): SyncState {
  return { ...inputs, ...structuredClone(emptyReport), pending: inputs.contacts.length } as SyncState;
}

/**
 * Sends the rows still pending, one batch at a time, following each batch until the
 * service reports its rows. A failure once rows were queued stops the sync with its
 * state recorded (PartlyDoneError), so that the next up sends only what is left.
 */
async function sync(id: string, inputs: ContactSyncInputs, state: SyncState): Promise<SyncState> {
  const client = new CrmClient(describe(inputs.contacts));
  const total = inputs.contacts.length;
  // A copy: the state given is the one recorded until this sync says otherwise.
  const progress: SyncState = { ...structuredClone(state), ...inputs };
  if (progress.pending === 0) return progress;
  const stopped = (error: unknown) => {
    if (progress.pending === total || !(error instanceof Error)) return error;
    const queued = total - progress.pending;
    return stoppedPartWay(
      error,
      id,
      { ...progress },
      `${queued} of ${total} rows were queued before it stopped and are not sent again; run \`pulumi up\` again to send the other ${progress.pending}.`,
    );
  };
  try {
    // Rows whose contact id is above the newest one before the sync made a new contact.
    const newestBefore = await newestContactId(client);
    for (let start = total - progress.pending; start < total; start += batchSize) {
      const rows = inputs.contacts.slice(start, start + batchSize);
      const where = `rows ${start + 1}-${start + rows.length} of ${total}`;
      const batchId = await queueBatch(client, rows);
      progress.pending -= rows.length;
      if (batchId === null) {
        progress.unconfirmed += rows.length;
        log.warn(
          `${client.resource}: ${where} were queued, but the service's answer, with the batch id, was lost: they are not sent again, and their outcome is unknown`,
        );
        continue;
      }
      progress.batchIds.push(batchId);
      log.info(`${client.resource}: ${where} queued as batch ${batchId}`);
      try {
        tally(progress, rows, await followBatch(client, batchId), newestBefore);
      } catch (error) {
        progress.unconfirmed += rows.length;
        throw error;
      }
    }
  } catch (error) {
    throw stopped(error);
  }
  if (progress.failed > 0) {
    const examples = progress.failures.slice(0, 5).map((failure) => `${failure.email} (${failure.reason})`);
    log.warn(
      `${client.resource}: the service skipped ${progress.failed} of ${total} rows: ${examples.join(", ")}${progress.failed > examples.length ? ", ..." : ""}; see the failures output`,
    );
  }
  return progress;
}

/** The id of the newest contact of the account; 0 when it has none. */
async function newestContactId(client: CrmClient): Promise<number> {
  const response = await client.call({ method: "GET", path: "/contacts", query: { "orders[id]": "DESC", limit: 1 } });
  const [newest] = (response.body as { contacts?: Array<{ id: unknown }> }).contacts ?? [];
  return numberOf(newest?.id) ?? 0;
}

/**
 * Queues one batch; its id, or null when the service queued it but the answer was
 * lost. The service cannot be asked for a batch without its id, but it counts the
 * batches queued: a POST that may have reached it (a reset, a timeout, a 5xx) is sent
 * again only when that count shows it was not queued, so no batch is queued twice.
 */
async function queueBatch(client: CrmClient, rows: SyncContact[]): Promise<string | null> {
  const queuedBefore = await queuedBatchCount(client);
  const response = await client.call(
    { method: "POST", path: "/import/bulk_import", body: { contacts: rows.map(serviceRow) } },
    {
      advice,
      recover: async () => {
        const queuedNow = await queuedBatchCount(client).catch(() => undefined);
        // Without both counts nothing tells: the batch is taken as queued rather than risk a second one.
        const mayBeQueued = queuedBefore === undefined || queuedNow === undefined || queuedNow > queuedBefore;
        return mayBeQueued ? { status: 202, body: {} } : undefined;
      },
    },
  );
  const batchId = (response.body as { batchId?: unknown }).batchId;
  return typeof batchId === "string" && batchId !== "" ? batchId : null;
}

/** Batches the service holds, queued or recently done (GET /import/bulk_import); undefined when it does not say. */
async function queuedBatchCount(client: CrmClient): Promise<number | undefined> {
  const response = await client.call({ method: "GET", path: "/import/bulk_import" }, { accept: [404] });
  const body = response.body as Record<string, unknown> | undefined;
  if (response.status === 404 || !Array.isArray(body?.outstanding) || !Array.isArray(body?.recentlyCompleted)) return undefined;
  return [...body.outstanding, ...body.recentlyCompleted].reduce((sum: number, day) => sum + (numberOf((day as { batches?: unknown }).batches) ?? 0), 0);
}

interface BatchReport {
  /** Ids of the contacts written. */
  success: string[];
  /** The rows skipped, by their email address. */
  failure: string[];
}

/** Polls GET /import/info until the batch is completed. */
async function followBatch(client: CrmClient, batchId: string): Promise<BatchReport> {
  const info = await waitUntilEnded({
    look: async () =>
      (await client.call({ method: "GET", path: "/import/info", query: { batchId } })).body as { status?: unknown; success?: unknown; failure?: unknown },
    hasEnded: (seen) => seen.status === "completed",
    timeoutMs: batchTimeoutMs,
    outlasted: (seen) =>
      new PulumiCrmError(
        `${client.resource}: batch ${batchId} was still ${String(seen.status)} after ${batchTimeoutMs / 60_000} minutes; its rows' outcome is unknown.`,
      ),
    // A batch is never done as it is queued.
    lookAfterFirstInterval: true,
  });
  const strings = (list: unknown) => (Array.isArray(list) ? list.map(String) : []);
  return { success: strings(info.success), failure: strings(info.failure) };
}

function tally(progress: SyncState, rows: SyncContact[], report: BatchReport, newestBefore: number): void {
  for (const contactId of report.success) {
    if ((numberOf(contactId) ?? 0) > newestBefore) progress.created += 1;
    else progress.updated += 1;
  }
  const byEmail = new Map(rows.map((row) => [row.email.toLowerCase(), row.email]));
  for (const skipped of report.failure) {
    const email = byEmail.get(skipped.trim().toLowerCase()) ?? skipped;
    progress.failures.push({ email, reason: skipReason(email) });
  }
  progress.failed += report.failure.length;
  // Rows the report leaves out are neither written nor skipped as far as anyone can tell.
  progress.unconfirmed += Math.max(0, rows.length - report.success.length - report.failure.length);
}

const plausibleEmail = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The service names the rows it skipped, not why: the likely reason. */
function skipReason(email: string): string {
  return plausibleEmail.test(email)
    ? "the service could not write it: a field it refused, or a contact the API token cannot access"
    : "not a valid email address";
}

/** A contact as the bulk import takes it: snake_case, custom fields as {id, value}, lists as {listid}. */
function serviceRow(contact: SyncContact): Record<string, unknown> {
  return {
    email: contact.email,
    first_name: contact.firstName,
    last_name: contact.lastName,
    phone: contact.phone,
    customer_acct_name: contact.accountName,
    tags: contact.tags,
    fields: contact.fields?.map((field) => ({ id: Number(field.id), value: field.value })),
    subscribe: contact.subscribe?.map((listid) => ({ listid })),
    unsubscribe: contact.unsubscribe?.map((listid) => ({ listid })),
  };
}

export const contactSync = defineKind(
  "Upserts contacts through the service's bulk import when created, and again when its contacts or triggers change, reporting how each row went.",
  declaration,
  core,
);
