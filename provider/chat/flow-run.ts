// chat.FlowRun: an action resource that runs a chat flow for a list of contacts.
// Like pulumi-command's Command, it acts when created and again whenever its
// inputs or `triggers` change (a replace); deleting it forgets the run, which
// cannot be undone. Its input schema, normalization and provider live here.

import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { moduleProvider } from "../dynamic";
import { checkInputs, diffFields, strictObject, withoutProvider } from "../resource-kit";
import { ServiceClient } from "../service-client";
import { chatChannel, chatService } from "../settings";

export interface FlowRunContact {
  phone?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  externalId?: string;
  /** A link to the contact elsewhere, an http(s) URL. */
  externalUrl?: string;
  /** Free-form data the flow can use. */
  meta?: unknown;
  tags?: string[];
}

export interface FlowRunArgs {
  /** The flow to run, a UUID. */
  flowId: pulumi.Input<string>;
  /** The contacts to run it for. */
  contacts: pulumi.Input<pulumi.Input<FlowRunContact>[]>;
  /** Close the contacts' other running flows and conversations first. */
  hasPriority?: pulumi.Input<boolean>;
  /** Any values; when they change, the flow runs again. */
  triggers?: pulumi.Input<unknown[]>;
}

const optionalText = (max: number) =>
  z.string({ invalid_type_error: "must be a string" }).max(max, `must be at most ${max} characters`).optional();

const contactSchema = z
  .object({
    phone: optionalText(30),
    firstName: optionalText(100),
    lastName: optionalText(100),
    email: z.string({ invalid_type_error: "must be a string" }).max(254, "must be at most 254 characters").email("must be an email address").optional(),
    externalId: z.string({ invalid_type_error: "must be a string" }).optional(),
    externalUrl: z.string({ invalid_type_error: "must be a string" }).max(200, "must be at most 200 characters").url("must be a URL").optional(),
    meta: z.unknown().optional(),
    tags: z.array(z.string().min(1, "must not be empty").max(100, "must be at most 100 characters"), { invalid_type_error: "must be a list of tag names" }).optional(),
  })
  .strict("is not a contact field; the fields are: phone, firstName, lastName, email, externalId, externalUrl, meta, tags");

const inputSchema = strictObject({
  flowId: z
    .string({ required_error: "is required: the UUID of the flow to run", invalid_type_error: "must be a string" })
    .uuid("must be the flow's UUID, such as 2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31"),
  contacts: z
    .array(contactSchema, { required_error: "is required: the contacts to run the flow for", invalid_type_error: "must be a list of contacts" })
    .min(1, "must name at least one contact"),
  hasPriority: z.boolean({ invalid_type_error: "must be true or false" }).default(false),
  triggers: z.array(z.unknown(), { invalid_type_error: "must be a list" }).default([]),
});

type FlowRunInputs = z.output<typeof inputSchema>;
const inputFields = Object.keys(inputSchema.shape) as Array<keyof FlowRunInputs>;

interface FlowExecution {
  id: string;
  created_on: string;
}

const resourceType = "chat.FlowRun";
const describe = (flowId: unknown) => (typeof flowId === "string" && flowId ? `${resourceType} of flow ${flowId}` : resourceType);

export { configure } from "../dynamic";

export async function check(_olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
  return checkInputs(describe(news.flowId), inputSchema, news);
}

export async function diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> {
  // A run cannot be changed after the fact: any change is a new run.
  return diffFields(olds, news, { updatable: [], replaceOn: inputFields });
}

export async function create(props: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
  const inputs = inputSchema.parse(withoutProvider(props));
  const resource = describe(inputs.flowId);
  const client = new ServiceClient(chatService, resource);
  // No recover: the service has no way to find a run again, so a run that may have
  // started is reported rather than started twice.
  const response = await client.call(
    {
      method: "POST",
      path: `/channel/${chatChannel(resource)}/flow/${inputs.flowId}/run`,
      body: { execute_for: "LIST", has_priority: inputs.hasPriority, contact_list: inputs.contacts.map(serviceContact) },
    },
    { advice: { unconfirmed: "the run may have started anyway: check the flow's executions before `pulumi up` starts another" } },
  );
  const execution = response.body as FlowExecution;
  return { id: execution.id, outs: { ...inputs, executionId: execution.id, createdOn: execution.created_on } };
}

export async function read(id: string, props: Record<string, unknown> = {}): Promise<pulumi.dynamic.ReadResult> {
  const resource = describe(props.flowId);
  const client = new ServiceClient(chatService, resource);
  const response = await client.call({ method: "GET", path: `/channel/${chatChannel(resource)}/flow-execution/${id}` }, { accept: [404] });
  if (response.status === 404) return {};
  // The execution's status and counters are the service's to change, not configuration.
  const state = withoutProvider(props);
  const inputs = Object.fromEntries(inputFields.map((field) => [field, state[field]]));
  return { id, props: state, inputs };
}

/** A finished or running flow execution cannot be undone; deleting the resource forgets it. */
async function forget(): Promise<void> {}
export { forget as delete };

function serviceContact(contact: z.output<typeof contactSchema>): Record<string, unknown> {
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

/** Runs a chat flow for a list of contacts when created, and again when its inputs or triggers change. */
export class FlowRun extends pulumi.dynamic.Resource {
  declare readonly flowId: pulumi.Output<string>;
  declare readonly contacts: pulumi.Output<FlowRunContact[]>;
  declare readonly hasPriority: pulumi.Output<boolean>;
  declare readonly triggers: pulumi.Output<unknown[]>;
  /** The flow execution's id, also the resource's id. */
  declare readonly executionId: pulumi.Output<string>;
  declare readonly createdOn: pulumi.Output<string>;

  constructor(name: string, args: FlowRunArgs, opts?: pulumi.CustomResourceOptions) {
    const props = { ...args, hasPriority: args.hasPriority, triggers: args.triggers, executionId: undefined, createdOn: undefined };
    super(moduleProvider(module), name, props, opts, "chat", "FlowRun");
  }
}
