// chat.FlowRun: an action resource that runs a chat flow for a list of contacts.
// Like pulumi-command's Command, it acts when created and again whenever its run
// inputs or `triggers` change (a replace); deleting it forgets the run, which
// cannot be undone. With waitForCompletion it follows the run until it ends. Its
// declaration, normalization and provider live here.

import { z } from "zod";
import { defineKind } from "../../definition";
import { actionKind, diffAction, forget, notImportable, recordedRead, stoppedPartWay, triggersInput, waitUntilEnded } from "../../kit/action";
import type { Created, ReadFrom, ResourceCore, Updated } from "../../kit/core";
import { log } from "../../kit/log";
import { declareResource, input, inputObject, output } from "../../kit/declaration";
import { givenText, unknownValue, withoutProvider } from "../../kit/inputs";
import { types } from "../../kit/value-types";
import { checkInputs } from "../../kit/check-diff";
import { PartlyDoneError } from "../../kit/write-errors";
import { ServiceClient } from "../../service-client";
import { chatChannel, chatService } from "../../settings";
import type * as pulumi from "@pulumi/pulumi";
import { sentOnly, wireForms } from "../../kit/wire";
import type { FlowRunOutputs } from "../generated-types";

const optionalText = (max: number) => z.string({ invalid_type_error: "must be a string" }).max(max, `must be at most ${max} characters`).optional();

const contactSchema = inputObject(
  "FlowRunContact",
  "One contact to run the flow for; every field is optional and passed to the chat service as given.",
  {
    phone: input(optionalText(30), "Phone number."),
    firstName: input(optionalText(100), "The contact's first name."),
    lastName: input(optionalText(100), "The contact's last name."),
    email: input(
      z.string({ invalid_type_error: "must be a string" }).max(254, "must be at most 254 characters").email("must be an email address").optional(),
      "The contact's email address.",
    ),
    externalId: input(z.string({ invalid_type_error: "must be a string" }).optional(), "The contact's id in another system (for example a CRM account's id)."),
    externalUrl: input(
      z.string({ invalid_type_error: "must be a string" }).max(200, "must be at most 200 characters").url("must be a URL").optional(),
      "A link to the contact elsewhere (http or https).",
    ),
    meta: input(z.unknown().optional(), "Free-form JSON data the flow can use."),
    tags: input(
      z
        .array(z.string().min(1, "must not be empty").max(100, "must be at most 100 characters"), { invalid_type_error: "must be a list of tag names" })
        .optional(),
      "Tag names to add to the contact, each 1 to 100 characters.",
    ),
  },
  "a contact",
);

type Contact = z.output<typeof contactSchema>;

/** An output of following the run: null when it was not waited for (or the service gives none); answered under `answer`. */
const seenWhenWaited = (answer: string) => ({ unset: "nullable", wire: { answer, read: (value: unknown) => value ?? null } }) as const;

const declaration = declareResource({
  namespace: "chat",
  name: "FlowRun",
  inputs: {
    flowId: input(
      givenText("the UUID of the flow to run", z.string().uuid("must be the flow's UUID, such as 2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31")),
      "The flow to run. A change runs the flow again.",
      // The run's path names it.
      { replaceOnChanges: true, wire: sentOnly({ request: false }) },
    ),
    contacts: input(
      z
        .array(contactSchema, { required_error: "is required: the contacts to run the flow for", invalid_type_error: "must be a list of contacts" })
        .min(1, "must name at least one contact"),
      "The contacts to run it for. A change runs the flow again.",
      { replaceOnChanges: true, wire: sentOnly({ request: "contact_list", send: (contacts) => (contacts as Contact[]).map(serviceContact) }) },
    ),
    hasPriority: input(
      z.boolean({ invalid_type_error: "must be true or false" }).default(false),
      "Close the contacts' other running flows and conversations first. A change runs the flow again.",
      { replaceOnChanges: true, wire: sentOnly({ request: "has_priority" }) },
    ),
    triggers: input(triggersInput, "Any values, kept in the state and never sent to the service; when they change, the flow runs again.", {
      replaceOnChanges: true,
    }),
    // No defaults: a stack made before these existed must not show a change.
    waitForCompletion: input(
      z.boolean({ invalid_type_error: "must be true or false" }).optional(),
      "Follow the run until it ends (completed, failed or canceled), logging its progress, and fail the step with the service's reason unless it completed. Unset: false. Changing it never runs the flow again.",
    ),
    timeoutSeconds: input(
      z
        .number({ invalid_type_error: "must be a number of seconds" })
        .int("must be a whole number of seconds")
        .min(1, "must be at least 1")
        .max(86_400, "must be at most 86400 (a day)")
        .optional(),
      "How long waitForCompletion waits, in seconds. Unset: 600. Changing it never runs the flow again.",
    ),
  },
  outputs: {
    executionId: output(types.string, "The flow execution's id, also the resource's id.", { wire: { answer: "id", read: String } }),
    createdOn: output(types.string, "When the service created the execution, ISO 8601.", { wire: { answer: "created_on", read: String } }),
    status: output(
      types.string,
      "With waitForCompletion, the service's word for how the run ended, e.g. COMPLETED; null when not waited for.",
      seenWhenWaited("status"),
    ),
    finishedOn: output(
      types.string,
      "With waitForCompletion, when the run ended, ISO 8601; null when not waited for.",
      seenWhenWaited("status_last_change_on"),
    ),
    statusReason: output(
      types.string,
      "With waitForCompletion, the service's reason for the run's status (why it failed or was canceled); null when it gives none.",
      seenWhenWaited("status_reason"),
    ),
  },
});

type FlowRunInputs = z.output<typeof declaration.inputSchema>;

interface FlowExecution {
  id: string;
  created_on: string;
  /** A free string on the service: RUNNING, COMPLETED, CANCELED, FAILED... */
  status: string;
  status_reason: string | null;
  status_last_change_on: string | null;
  num_contacts: number;
  completed: number;
  failed: number;
  canceled: number;
  expired: number;
}

const forms = wireForms(declaration.fields);
/** The outputs of a run as its execution shows them: all of them once it was followed, its id and creation alone when it started. */
const runOf = (execution: Partial<FlowExecution>) => forms.stateOf(execution) as Omit<RecordedRun, keyof FlowRunInputs>;
/** What the outputs say of a run that was not waited for: each output of following it null, as declared. */
const notFollowed = Object.fromEntries(declaration.fields.filter((field) => field.nullable).map((field) => [field.name, null]));
const outputFields = declaration.fields.filter((field) => field.role === "output").map((field) => field.name);

const resourceType = declaration.type;
const describe = (flowId: unknown) =>
  typeof flowId === "string" && flowId.trim() && flowId !== unknownValue ? `${resourceType} of flow ${flowId}` : resourceType;
const kind = actionKind(declaration, {
  label: (inputs) => describe(inputs.flowId),
  // A run cannot be changed after the fact: a change of what it runs (the inputs declared replaced on change) is a new run, with its own execution id.
  runOn: declaration.replaceOnChanges,
  runAgainAs: "replace",
  checkSettings: chatChannel,
});

/** A wait that ended before the run did (a timeout) goes on in the next up, on the same run. */
const waitGoesOn = (olds: Record<string, unknown>, news: Record<string, unknown>) =>
  news.waitForCompletion === true && !hasEnded(olds.status) ? `execution ${olds.executionId} was not seen to end: the next up waits for it` : undefined;

async function startRun(props: Record<string, unknown>): Promise<Created> {
  const inputs = declaration.inputSchema.parse(withoutProvider(props));
  const resource = describe(inputs.flowId);
  const client = new ServiceClient(chatService, resource);
  const channel = chatChannel(resource);
  // No recover: the service has no way to find a run again, so a run that may have
  // started is reported rather than started twice.
  const response = await client.call(
    {
      method: "POST",
      path: `/channel/${channel}/flow/${inputs.flowId}/run`,
      body: { execute_for: "LIST", ...forms.createBody(inputs) },
    },
    {
      advice: {
        unconfirmed: "the run may have started anyway: check the flow's executions before `pulumi up` starts another",
        "404": `the service knows no flow ${inputs.flowId} on channel "${channel}": check flowId and the chat:channel setting`,
      },
    },
  );
  const execution = response.body as FlowExecution;
  const run = { ...inputs, ...notFollowed, ...runOf({ id: execution.id, created_on: execution.created_on }) } as RecordedRun;
  if (!inputs.waitForCompletion) return { id: execution.id, outs: run };
  try {
    return { id: execution.id, outs: await followRun(client, channel, run) };
  } catch (error) {
    // The run started: recorded, it is waited for by the next up and never started again.
    if (error instanceof PartlyDoneError || !(error instanceof Error)) throw error;
    throw stoppedPartWay(
      error,
      execution.id,
      run,
      `Execution ${execution.id} started and is recorded, so it is not started again; run \`pulumi up\` again to keep waiting for it.`,
    );
  }
}

/**
 * Only waitForCompletion or timeoutSeconds changed, or a wait goes on: never a new
 * run. Waits for the recorded run when asked to and it has not been seen to end.
 */
async function followAgain(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Updated> {
  const inputs = declaration.inputSchema.parse(withoutProvider(news));
  const resource = describe(inputs.flowId);
  // The same run, now with the new wait settings.
  const recorded = Object.fromEntries(outputFields.flatMap((field) => (olds[field] === undefined ? [] : [[field, olds[field]]])));
  const run = { ...inputs, ...notFollowed, ...recorded } as RecordedRun;
  if (!inputs.waitForCompletion) return { outs: run };
  if (hasEnded(run.status)) {
    if (run.status !== completed) {
      log.warn(`${resource}: execution ${run.executionId} ended ${run.status} earlier and is not run again; change triggers to run the flow again`);
    }
    return { outs: run };
  }
  return { outs: await followRun(new ServiceClient(chatService, resource), chatChannel(resource), run) };
}

async function readRun(id: string, from: ReadFrom) {
  const props = "refresh" in from ? from.refresh : {};
  const resource = describe(props.flowId);
  const client = new ServiceClient(chatService, resource);
  const response = await client.call({ method: "GET", path: `/channel/${chatChannel(resource)}/flow-execution/${id}` }, { accept: [404] });
  // The run happened: a service that no longer shows it must not make the next up run it again.
  if (response.status === 404) {
    log.warn(
      `${resource}: the chat service no longer shows execution ${id}; the run is kept in the state and runs again only when its inputs or triggers change`,
    );
  }
  // The execution's status and counters are the service's to change, not configuration.
  return recordedRead(kind, id, from);
}

const core: ResourceCore = {
  declaration,
  importable: notImportable,
  check: async (_olds, news) => checkInputs(kind, news),
  diff: async (_id, olds, news) => diffAction(kind, olds, news, waitGoesOn(olds, news)),
  create: startRun,
  update: followAgain,
  read: readRun,
  // A finished or running flow execution cannot be undone; deleting the resource forgets it.
  delete: forget,
};

/** The outputs of a run: its inputs, its execution, and what following it saw. */
type RecordedRun = pulumi.Unwrap<FlowRunOutputs>;

const completed = "COMPLETED";
// The reference's execution statuses end in COMPLETED or CANCELED; the contact statuses add FAILED and EXPIRED.
const endStatuses = new Set([completed, "FAILED", "CANCELED", "CANCELLED", "EXPIRED"]);
const hasEnded = (status: unknown) => typeof status === "string" && endStatuses.has(status.toUpperCase());

const defaultTimeoutSeconds = 600;

/**
 * Polls the execution until it ends, logging its progress whenever it moves and at
 * least every 10 s. A run that ends other than COMPLETED, or outlasts the timeout,
 * fails the step while staying recorded (PartlyDoneError): it is never started again
 * by the next up, which instead goes on waiting for an unfinished one.
 */
async function followRun(client: ServiceClient, channel: string, run: RecordedRun): Promise<RecordedRun> {
  const timeoutSeconds = run.timeoutSeconds ?? defaultTimeoutSeconds;
  const path = `/channel/${channel}/flow-execution/${run.executionId}`;
  let shown: FlowExecution | undefined;
  const seen = await waitUntilEnded({
    look: async () => {
      const response = await client.call({ method: "GET", path }, { accept: [404] });
      // A run the service does not show yet is waited for like a running one.
      if (response.status !== 404) shown = response.body as FlowExecution;
      return shown;
    },
    hasEnded: (execution) => execution !== undefined && hasEnded(execution.status),
    timeoutMs: timeoutSeconds * 1000,
    outlasted: (execution) =>
      new PartlyDoneError(
        `${client.resource}: execution ${run.executionId} is ${execution ? `still ${execution.status}` : "not shown by the service"} after ${timeoutSeconds} s; it keeps running on the service: run \`pulumi up\` again to keep waiting for it (it is not started again), or raise timeoutSeconds.`,
        run.executionId,
        { ...run, status: execution?.status ?? null },
        { code: "timeout" },
      ),
    progress: (execution) => progressLine(client.resource, run.executionId, execution),
  });
  // A run seen to end was shown.
  return ended(client.resource, run, seen!);
}

/** The outputs of a run that ended; unless it completed, the failure that records them. */
function ended(resource: string, run: RecordedRun, execution: FlowExecution): RecordedRun {
  const outs = { ...run, ...runOf(execution) };
  if (execution.status.toUpperCase() === completed) return outs;
  const reason = execution.status_reason ? `: ${execution.status_reason.trim().replace(/\.+$/, "")}` : "";
  throw new PartlyDoneError(
    `${resource}: execution ${run.executionId} ended ${execution.status}${reason}; it is recorded and not run again: fix the flow, then change triggers to run it again.`,
    run.executionId,
    outs,
    { code: execution.status.toLowerCase(), detail: execution.status_reason ?? undefined },
  );
}

function progressLine(resource: string, executionId: string, execution: FlowExecution | undefined): string {
  if (!execution) return `${resource}: waiting for execution ${executionId} to appear`;
  const outcomes = (["completed", "failed", "canceled", "expired"] as const)
    .filter((outcome) => execution[outcome] > 0)
    .map((outcome) => `${execution[outcome]} ${outcome}`);
  const done = execution.completed + execution.failed + execution.canceled + execution.expired;
  return `${resource}: execution ${executionId} ${execution.status}, ${done} of ${execution.num_contacts} contacts done${outcomes.length ? ` (${outcomes.join(", ")})` : ""}`;
}

function serviceContact(contact: Contact): Record<string, unknown> {
  return {
    phone: contact.phone,
    first_name: contact.firstName,
    last_name: contact.lastName,
    email: contact.email,
    external_id: contact.externalId,
    external_url: contact.externalUrl,
    meta: contact.meta,
    tags: contact.tags?.map((name) => ({ name })),
  };
}

export const flowRun = defineKind("Runs a chat flow for a list of contacts when created, and again when its inputs or triggers change.", declaration, core);
