// crm.Account: an account (company) of the CRM service. Its input schema, its
// normalization and its provider live here; the exported lifecycle functions are
// the provider, run in the Pulumi provider host (see ../dynamic.ts).

import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { moduleProvider } from "../dynamic";
import { checkInputs, diffFields, strictObject, withoutProvider } from "../resource-kit";
import { ServiceError } from "../transport/errors";
import { HttpResponse } from "../transport/transport";
import { CrmClient } from "./client";

export interface AccountArgs {
  /** The account's name, unique within the CRM account. */
  name: pulumi.Input<string>;
  /** The account's website, an http(s) URL. */
  accountUrl?: pulumi.Input<string | undefined>;
  /**
   * Take over an account that already exists with this name instead of failing.
   * Off by default: without it, an existing account is never silently managed,
   * changed or later deleted by this stack.
   */
  adoptExisting?: pulumi.Input<boolean>;
}

const inputSchema = strictObject({
  name: z
    .string({ required_error: "is required: the account's name, unique in the CRM account", invalid_type_error: "must be a string" })
    .min(1, "must not be empty")
    .max(255, "must be at most 255 characters")
    .refine((name) => name === name.trim(), "must not start or end with spaces"),
  accountUrl: z
    .string({ invalid_type_error: "must be a string" })
    .max(1000, "must be at most 1000 characters")
    .refine(isWebAddress, "must be an http or https URL such as https://acme.example")
    .nullish()
    .transform((url) => url ?? null),
  adoptExisting: z.boolean({ invalid_type_error: "must be true or false" }).default(false),
});

/** The stored form: normalized inputs, which are also the outputs. */
type AccountState = z.output<typeof inputSchema>;

/** The service's account, as far as this provider reads it. */
interface ServiceAccount {
  id: string;
  name: string;
  accountUrl?: string | null;
  createdTimestamp?: string;
}

const resourceType = "crm.Account";
/** How messages name the resource: by the account name when there is one. */
const describe = (name: unknown) => (typeof name === "string" && name ? `${resourceType} "${name}"` : resourceType);

const advice = {
  duplicate:
    "an account with this name already exists: choose another name, or set adoptExisting: true to manage the existing account with this stack",
};

function stateFrom(account: ServiceAccount, adoptExisting: boolean): AccountState {
  return { name: account.name, accountUrl: account.accountUrl || null, adoptExisting };
}

function desiredState(props: Record<string, unknown>): AccountState {
  return inputSchema.parse(withoutProvider(props));
}

export { configure } from "../dynamic";

export async function check(_olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
  return checkInputs(describe(news.name), inputSchema, news);
}

export async function diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> {
  // adoptExisting only matters when the account is created.
  return diffFields(olds, news, { updatable: ["name", "accountUrl"] });
}

export async function create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
  const desired = desiredState(inputs);
  const client = new CrmClient(describe(desired.name));
  const attemptStarted = Date.now();
  try {
    const response = await client.call(
      { method: "POST", path: "/accounts", body: { account: { name: desired.name, accountUrl: desired.accountUrl } } },
      { advice, recover: () => findCreatedAccount(client, desired.name, attemptStarted) },
    );
    const account = (response.body as { account: ServiceAccount }).account;
    return { id: String(account.id), outs: stateFrom(account, desired.adoptExisting) };
  } catch (error) {
    if (!(error instanceof ServiceError && error.code === "duplicate" && desired.adoptExisting)) throw error;
    return adopt(client, desired);
  }
}

export async function read(id: string, props: Record<string, unknown> = {}): Promise<pulumi.dynamic.ReadResult> {
  const client = new CrmClient(describe(props.name ?? id));
  const response = await client.call({ method: "GET", path: `/accounts/${id}` }, { accept: [404] });
  // No id: the account is gone, and refresh drops it from the state.
  if (response.status === 404) return {};
  const state = stateFrom((response.body as { account: ServiceAccount }).account, Boolean(props.adoptExisting));
  return { id, props: state, inputs: state };
}

export async function update(id: string, _olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult> {
  const desired = desiredState(news);
  const client = new CrmClient(describe(desired.name));
  const response = await client.call(
    { method: "PUT", path: `/accounts/${id}`, body: { account: { name: desired.name, accountUrl: desired.accountUrl } } },
    { advice },
  );
  return { outs: stateFrom((response.body as { account: ServiceAccount }).account, desired.adoptExisting) };
}

async function remove(id: string, props: Record<string, unknown>): Promise<void> {
  const client = new CrmClient(describe(props.name ?? id));
  // Already gone is what delete wants.
  await client.call({ method: "DELETE", path: `/accounts/${id}` }, { accept: [404] });
}
export { remove as delete };

/** Accounts whose name matches exactly; the service's search also matches parts of names. */
function findByName(client: CrmClient, name: string): Promise<ServiceAccount[]> {
  return client
    .walk<ServiceAccount>("/accounts", "accounts", { search: name }, (account) => account.name === name)
    .then((accounts) => accounts.filter((account) => account.name === name));
}

// Clocks of this machine and the service may differ by this much.
const clockSkewMs = 60_000;

/**
 * After a create that may have reached the service: the account this call made,
 * if it exists. An account of that name created before the call is someone else's
 * and is left to the duplicate error that a resent create then gets.
 */
async function findCreatedAccount(
  client: CrmClient,
  name: string,
  attemptStarted: number,
): Promise<HttpResponse | undefined> {
  const [account] = await findByName(client, name);
  if (!account) return undefined;
  const created = Date.parse(account.createdTimestamp ?? "");
  if (Number.isNaN(created) || created < attemptStarted - clockSkewMs) return undefined;
  return { status: 201, body: { account } };
}

/** The explicit opt-in path: manage the existing account of this name, bringing its website in line. */
async function adopt(client: CrmClient, desired: AccountState): Promise<pulumi.dynamic.CreateResult> {
  const [existing] = await findByName(client, desired.name);
  if (!existing) {
    throw new ServiceError(
      `${client.resource}: the service reported the name as taken, but no account of exactly that name was found to adopt; check the name's spelling and case.`,
      { code: "duplicate", field: "name" },
    );
  }
  const response = await client.call(
    { method: "PUT", path: `/accounts/${existing.id}`, body: { account: { accountUrl: desired.accountUrl } } },
    { advice },
  );
  return { id: String(existing.id), outs: stateFrom((response.body as { account: ServiceAccount }).account, true) };
}

function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/** An account (company) in the CRM service. */
export class Account extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly accountUrl: pulumi.Output<string | null>;
  declare readonly adoptExisting: pulumi.Output<boolean>;

  constructor(name: string, args: AccountArgs, opts?: pulumi.CustomResourceOptions) {
    // Every output is named here, set or not, so that each becomes an output property.
    const props = { name: args.name, accountUrl: args.accountUrl, adoptExisting: args.adoptExisting };
    super(moduleProvider(module), name, props, opts, "crm", "Account");
  }
}
