// chat.FlowRun: an action resource that runs a chat flow for a list of contacts.
// Like pulumi-command's Command, it acts when created and again whenever its
// inputs or `triggers` change (a replace); deleting it forgets the run, which
// cannot be undone. Its input schema, normalization and provider live here.

import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { moduleProvider } from "../dynamic";
import { checkInputs, diffInputs, ResourceKind, resourceProps, strictObject, unknownValue, withoutProvider } from "../resource-kit";
import { ServiceClient } from "../service-client";
import { chatChannel, chatService } from "../settings";

/** One contact to run the flow for; every field is optional and passed to the chat service as given. */
export interface FlowRunContact {
  /** Phone number, at most 30 characters. */
  phone?: pulumi.Input<string>;
  /** At most 100 characters. */
  firstName?: pulumi.Input<string>;
  /** At most 100 characters. */
  lastName?: pulumi.Input<string>;
  /** An email address, at most 254 characters. */
  email?: pulumi.Input<string>;
  /** The contact's id in another system (for example a CRM account's id). */
  externalId?: pulumi.Input<string>;
  /** A link to the contact elsewhere: an http(s) URL of at most 200 characters. */
  externalUrl?: pulumi.Input<string>;
  /** Free-form JSON data the flow can use. */
  meta?: pulumi.Input<unknown>;
  /** Tag names to add to the contact, each 1 to 100 characters. */
  tags?: pulumi.Input<pulumi.Input<string>[]>;
}

export interface FlowRunArgs {
  /** The flow to run, a UUID. A change runs the flow again. */
  flowId: pulumi.Input<string>;
  /** The contacts to run it for, at least one. A change runs the flow again. */
  contacts: pulumi.Input<pulumi.Input<FlowRunContact>[]>;
  /** Close the contacts' other running flows and conversations first. Default false. */
  hasPriority?: pulumi.Input<boolean>;
  /** Any values; when they change, the flow runs again. Default []. */
  triggers?: pulumi.Input<unknown[]>;
}

const optionalText = (max: number) =>
  z.string({ invalid_type_error: "must be a string" }).max(max, `must be at most ${max} characters`).optional();

const contactSchema = strictObject(
  {
    phone: optionalText(30),
    firstName: optionalText(100),
    lastName: optionalText(100),
    email: z.string({ invalid_type_error: "must be a string" }).max(254, "must be at most 254 characters").email("must be an email address").optional(),
    externalId: z.string({ invalid_type_error: "must be a string" }).optional(),
    externalUrl: z.string({ invalid_type_error: "must be a string" }).max(200, "must be at most 200 characters").url("must be a URL").optional(),
    meta: z.unknown().optional(),
    tags: z.array(z.string().min(1, "must not be empty").max(100, "must be at most 100 characters"), { invalid_type_error: "must be a list of tag names" }).optional(),
  },
  "a contact",
);

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
const describe = (flowId: unknown) =>
  typeof flowId === "string" && flowId && flowId !== unknownValue ? `${resourceType} of flow ${flowId}` : resourceType;
const kind: ResourceKind<typeof inputSchema> = {
  type: resourceType,
  schema: inputSchema,
  services: [chatService],
  label: (inputs) => describe(inputs.flowId),
  // A run cannot be changed after the fact: any change is a new run.
  updatable: [],
  replaceOn: inputFields,
  checkSettings: chatChannel,
};

export { configure } from "../dynamic";

export async function check(_olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
  return checkInputs(kind, news);
}

export async function diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> {
  return diffInputs(kind, olds, news);
}

export async function create(props: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
  const inputs = inputSchema.parse(withoutProvider(props));
  const resource = describe(inputs.flowId);
  const client = new ServiceClient(chatService, resource);
  const channel = chatChannel(resource);
  // No recover: the service has no way to find a run again, so a run that may have
  // started is reported rather than started twice.
  const response = await client.call(
    {
      method: "POST",
      path: `/channel/${channel}/flow/${inputs.flowId}/run`,
      body: { execute_for: "LIST", has_priority: inputs.hasPriority, contact_list: inputs.contacts.map(serviceContact) },
    },
    {
      advice: {
        unconfirmed: "the run may have started anyway: check the flow's executions before `pulumi up` starts another",
        "404": `the service knows no flow ${inputs.flowId} on channel "${channel}": check flowId and the chat:channel setting`,
      },
    },
  );
  const execution = response.body as FlowExecution;
  return { id: execution.id, outs: { ...inputs, executionId: execution.id, createdOn: execution.created_on } };
}

export async function read(id: string, props: Record<string, unknown> = {}): Promise<pulumi.dynamic.ReadResult> {
  const resource = describe(props.flowId);
  const client = new ServiceClient(chatService, resource);
  const response = await client.call({ method: "GET", path: `/channel/${chatChannel(resource)}/flow-execution/${id}` }, { accept: [404] });
  // The run happened: a service that no longer shows it must not make the next up run it again.
  if (response.status === 404) {
    void pulumi.log.warn(`${resource}: the chat service no longer shows execution ${id}; the run is kept in the state and runs again only when its inputs or triggers change`);
  }
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
  /** The flow that ran. */
  declare readonly flowId: pulumi.Output<string>;
  /** The contacts it ran for, as declared. */
  declare readonly contacts: pulumi.Output<FlowRunContact[]>;
  /** Whether the run closed the contacts' other flows and conversations first. */
  declare readonly hasPriority: pulumi.Output<boolean>;
  /** The values whose change runs the flow again. */
  declare readonly triggers: pulumi.Output<unknown[]>;
  /** The flow execution's id, also the resource's id. */
  declare readonly executionId: pulumi.Output<string>;
  /** When the service created the execution, ISO 8601. */
  declare readonly createdOn: pulumi.Output<string>;

  constructor(name: string, args: FlowRunArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = ["flowId", "contacts", "hasPriority", "triggers", "executionId", "createdOn"];
    super(moduleProvider(module), name, resourceProps(args, outputs), opts, "chat", "FlowRun");
  }
}
