// crm.Account: an account (company) of the CRM service. Its input schema, its
// normalization and its provider live here; the exported lifecycle functions are
// the provider, run in the Pulumi provider host (see ../dynamic.ts).

import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { moduleProvider } from "../dynamic";
import { adoptIdInput, configurationFields, isWebAddress, nameText, strictObject, withoutProvider, withoutUndefined } from "../kit/inputs";
import { checkInputs, differingFields, diffInputs, labelBy, ResourceKind } from "../kit/check-diff";
import { declaredOnce, resourceProps } from "../kit/resource-class";
import { announceAdoption, claimNaturalKey, notAdoptable, releaseNaturalKey, unrecordedObjectAdvice } from "../kit/adoption";
import { confirmWrite } from "../kit/write-errors";
import { crmService } from "../settings";
import { ServiceError } from "../transport/errors";
import { HttpResponse } from "../transport/transport";
import { bulkDeleter } from "./bulk-deletes";
import { CrmClient } from "./client";
import { Collection, getObject, ServiceObject, walk } from "./collection";
import { claimingAdoptId } from "./crud";
import { forgetListed, readObject } from "./read-batcher";

export interface AccountArgs {
  /** The account's name: 1 to 255 characters, no leading or trailing spaces, unique within the CRM account (regardless of case). Changed in place. */
  name: pulumi.Input<string>;
  /** The account's website, an http(s) URL of at most 1000 characters. Unset by default; removing it clears the website. */
  accountUrl?: pulumi.Input<string | undefined>;
  /**
   * Take over an account that already exists with this name, and that no stack
   * manages, instead of failing. Default false: an existing account is never
   * silently managed, changed or later deleted by this stack. Read only at creation;
   * changing it later changes nothing. Pair it with `retainOnDelete: true` to leave
   * the account in place on destroy.
   */
  adoptExisting?: pulumi.Input<boolean>;
  /**
   * The id of an existing account to take over instead of creating one, as
   * `pulumi-crm export` writes it: its name and website are set to the declared ones
   * where they differ. Read only at creation; removing it later changes nothing.
   */
  adoptId?: pulumi.Input<string>;
}

export const inputSchema = strictObject({
  name: nameText("the account's name, unique in the CRM account", 255),
  accountUrl: z
    .string({ invalid_type_error: "must be a string" })
    .max(1000, "must be at most 1000 characters")
    .refine(isWebAddress, "must be an http or https URL such as https://acme.example")
    .nullish()
    .transform((url) => url ?? null),
  adoptExisting: z.boolean({ invalid_type_error: "must be true or false" }).default(false),
  adoptId: adoptIdInput,
});

type AccountInputs = z.output<typeof inputSchema>;
/** The stored outputs, and what read gives back: the account as the service holds it. */
type AccountState = Pick<AccountInputs, "name" | "accountUrl">;

/** The service's account, as far as this provider reads it. */
interface ServiceAccount {
  id: string;
  name: string;
  accountUrl?: string | null;
  createdTimestamp?: string;
}

const resourceType = "crm.Account";
const kind: ResourceKind<typeof inputSchema> = {
  type: resourceType,
  schema: inputSchema,
  services: [crmService],
  label: labelBy(resourceType, "name"),
};
const describe = (name: unknown) => kind.label({ name });
/** Where accounts are read; reads arriving together are answered from the list (see ./read-batcher.ts). */
const accounts: Collection = { path: "/accounts", member: "account", collection: "accounts" };

const advice = {
  duplicate: "choose another name; or, only if no stack manages that account, set adoptExisting: true to take it over with this stack",
};

function stateFrom(account: ServiceAccount): AccountState {
  return { name: account.name, accountUrl: account.accountUrl || null };
}

function desiredInputs(props: Record<string, unknown>): AccountInputs {
  return inputSchema.parse(withoutProvider(props));
}

export { configure } from "../dynamic";

export async function check(_olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
  return checkInputs(kind, news);
}

export async function diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> {
  return diffInputs(kind, olds, news);
}

export async function create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
  const desired = desiredInputs(inputs);
  const client = new CrmClient(describe(desired.name));
  forgetListed(client, accounts);
  if (!claimNaturalKey(client, resourceType, desired.name)) {
    throw new ServiceError(
      `${client.resource}: two resources of this program declare the account name "${desired.name}" (names are unique regardless of case); give each its own name.`,
      { code: "duplicate", field: "name" },
    );
  }
  let account: ServiceAccount;
  try {
    account = desired.adoptId ? await adoptById(client, desired.adoptId, desired) : await createOrAdopt(client, desired);
  } catch (error) {
    releaseNaturalKey(client, resourceType, desired.name);
    throw error;
  }
  const state = stateFrom(account);
  confirmWrite(client.resource, String(account.id), { name: desired.name, accountUrl: desired.accountUrl }, state);
  return { id: String(account.id), outs: state };
}

/** The inputs that declare the account exactly as the service holds it, as read gives them back (for `pulumi-crm export`). */
export function inputsDeclaring(account: ServiceObject): Record<string, unknown> {
  return stateFrom(account as unknown as ServiceAccount);
}

export async function read(id: string, props: Record<string, unknown> = {}): Promise<pulumi.dynamic.ReadResult> {
  const client = new CrmClient(describe(props.name ?? id));
  const account = await readObject(client, accounts, id);
  // No id: the account is gone, and refresh drops it from the state.
  if (!account) return {};
  const state = stateFrom(account as unknown as ServiceAccount);
  return { id, props: state, inputs: state };
}

export async function update(id: string, _olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult> {
  const desired = desiredInputs(news);
  const client = new CrmClient(describe(desired.name));
  // accountUrl is sent as null to clear it.
  const wanted = { name: desired.name, accountUrl: desired.accountUrl };
  forgetListed(client, accounts);
  const response = await client.call({ method: "PUT", path: `/accounts/${id}`, body: { account: wanted } }, { advice });
  const state = stateFrom((response.body as { account: ServiceAccount }).account);
  confirmWrite(client.resource, id, wanted, state);
  return { outs: state };
}

async function remove(id: string, props: Record<string, unknown>): Promise<void> {
  const client = new CrmClient(describe(props.name ?? id));
  forgetListed(client, accounts);
  await deleteTogether(client, id);
}
export { remove as delete };

/** Accounts deleted together (a destroy) go out through the service's bulk delete; 100 ids keep the query string far below common URL length limits. */
const deleteTogether = bulkDeleter("/accounts", { path: "/accounts/bulk_delete", max: 100 });

async function createOrAdopt(client: CrmClient, desired: AccountInputs): Promise<ServiceAccount> {
  const attemptStarted = Date.now();
  try {
    const response = await client.call(
      { method: "POST", path: "/accounts", body: { account: withoutUndefined({ name: desired.name, accountUrl: desired.accountUrl ?? undefined }) } },
      { advice, recover: () => findCreatedAccount(client, desired.name, attemptStarted) },
    );
    return (response.body as { account: ServiceAccount }).account;
  } catch (error) {
    if (!(error instanceof ServiceError && error.code === "duplicate")) throw error;
    if (desired.adoptExisting) return adopt(client, desired);
    throw await nameTaken(client, desired.name, error);
  }
}

/** The service's refusal of a taken name, completed with the account that holds it and how to take it back or delete it. */
async function nameTaken(client: CrmClient, name: string, refusal: ServiceError): Promise<ServiceError> {
  const [existing] = await findByName(client, name);
  if (!existing) return refusal;
  const id = String(existing.id);
  return new ServiceError(`${refusal.message} The account that holds it is ${id}: ${unrecordedObjectAdvice(id, `${client.rootUrl}/accounts/${id}`)}.`, refusal);
}

/** Accounts whose name matches exactly; the service's search also matches parts of names. */
async function findByName(client: CrmClient, name: string): Promise<ServiceAccount[]> {
  const named = (account: ServiceAccount) => account.name === name;
  return (await walk<ServiceAccount>(client, "/accounts", "accounts", { search: name }, named)).filter(named);
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

/** adoptId: manage the account of that id, bringing its name and website in line. */
function adoptById(client: CrmClient, id: string, desired: AccountInputs): Promise<ServiceAccount> {
  return claimingAdoptId(client, resourceType, id, async () => {
    const found = await getObject(client, `/accounts/${id}`, "account");
    if (!found) throw notAdoptable(client.resource, resourceType, id);
    return takeOver(client, found as unknown as ServiceAccount, desired);
  });
}

/** Takes an existing account over, said out loud; it is written only where the declared values differ. */
async function takeOver(client: CrmClient, existing: ServiceAccount, desired: AccountInputs): Promise<ServiceAccount> {
  announceAdoption(client.resource, String(existing.id));
  const wanted = { name: desired.name, accountUrl: desired.accountUrl };
  const differing = differingFields(wanted, stateFrom(existing));
  if (!differing.length) return existing;
  // accountUrl is sent as null to clear it.
  const body = Object.fromEntries(differing.map((field) => [field, wanted[field as keyof typeof wanted]]));
  const response = await client.call({ method: "PUT", path: `/accounts/${existing.id}`, body: { account: body } }, { advice });
  return (response.body as { account: ServiceAccount }).account;
}

/** The explicit opt-in path: manage the existing account of this name, bringing its website in line. */
async function adopt(client: CrmClient, desired: AccountInputs): Promise<ServiceAccount> {
  const [existing] = await findByName(client, desired.name);
  if (!existing) {
    throw new ServiceError(
      `${client.resource}: the service reported the name as taken, but no account of exactly that name was found to adopt; check the name's spelling and case.`,
      { code: "duplicate", field: "name" },
    );
  }
  return takeOver(client, existing, desired);
}

/** An account (company) in the CRM service. */
export class Account extends pulumi.dynamic.Resource {
  /** The account's name, unique within the CRM account (compared without regard to case). */
  declare readonly name: pulumi.Output<string>;
  /** The account's website; null when unset. */
  declare readonly accountUrl: pulumi.Output<string | null>;

  constructor(name: string, args: AccountArgs, opts?: pulumi.CustomResourceOptions) {
    const props = { ...args, name: declaredOnce(resourceType, "name", "account name", args.name) };
    super(moduleProvider(module), name, resourceProps(props, configurationFields(inputSchema)), opts, "crm", "Account");
  }
}
