// Accounts (companies) looked up rather than managed: those another stack or a person
// manages, with the counters crm.Account leaves out of its outputs.

import { z } from "zod";
import { strictObject } from "../../kit/inputs";
import { walk } from "../service/collection";
import { numberOf, textOf, timestampOf } from "../service/normalize";
import { exactlyOne, idOrName, type LookupOptions, notFound, outputForm, startLookup } from "./kit";

/** An account (company) of the CRM service, as a lookup sees it. */
export interface AccountInfo {
  /** The account's id. */
  id: string;
  /** Unique in the CRM account, regardless of case. */
  name: string;
  /** The account's website; null when unset. */
  accountUrl: string | null;
  /** When it was created, ISO 8601. */
  createdTimestamp: string | null;
  /** When it was last changed, ISO 8601. */
  updatedTimestamp: string | null;
  /** Contacts associated with the account. */
  contactCount: number;
  /** Deals of the account. */
  dealCount: number;
}

export interface GetAccountsArgs {
  /** Only accounts whose name contains this text (the service's search). */
  search?: string;
}

export interface GetAccountsResult {
  /** The accounts found. */
  accounts: AccountInfo[];
}

/** Names one account: by its id, or by its name (names are unique regardless of case). */
export type GetAccountArgs =
  | {
      /** The account's id. */
      id: string;
    }
  | {
      /** The account's name, regardless of case. */
      name: string;
    };

const listArgs = strictObject({ search: z.string({ invalid_type_error: "must be a string" }).optional() }, "the arguments of getAccounts");

// Lists carry contactCount and dealCount only when asked to count them; otherwise 0.
const withCounts = { count_deals: "true" };

function accountOf(account: Record<string, unknown>): AccountInfo {
  return {
    id: String(account.id),
    name: String(account.name ?? ""),
    accountUrl: textOf(account.accountUrl),
    createdTimestamp: timestampOf(account.createdTimestamp),
    updatedTimestamp: timestampOf(account.updatedTimestamp),
    contactCount: numberOf(account.contactCount) ?? 0,
    dealCount: numberOf(account.dealCount) ?? 0,
  };
}

/** Every account of the CRM account, or those whose name contains `search`. */
export async function getAccounts(args: GetAccountsArgs = {}, opts?: LookupOptions): Promise<GetAccountsResult> {
  const lookup = startLookup("getAccounts", listArgs, args, opts);
  const query = { search: lookup.args.search, ...withCounts };
  const accounts = await walk<Record<string, unknown>>(lookup.client, "/accounts", "accounts", query, undefined, lookup.bound("give a search"));
  return { accounts: accounts.map(accountOf) };
}

/** The account with this id or name, with its contact and deal counts; an error when there is none. */
export async function getAccount(args: GetAccountArgs, opts?: LookupOptions): Promise<AccountInfo> {
  const lookup = startLookup("getAccount", idOrName("account"), args, opts);
  const { client, args: key } = lookup;
  let name = key.name;
  if (key.id !== undefined) {
    // A single account carries no counters: its name finds it in the list, which does.
    const response = await client.call({ method: "GET", path: `/accounts/${key.id}` }, { accept: [404] });
    if (response.status === 404) throw notFound(client.resource, "account", key);
    name = String((response.body as { account: Record<string, unknown> }).account.name);
  }
  const wanted = (account: Record<string, unknown>) =>
    key.id !== undefined ? String(account.id) === key.id : String(account.name).toLowerCase() === name!.toLowerCase();
  // The search matches parts of names too: the walk ends at the account wanted.
  const found = await walk<Record<string, unknown>>(client, "/accounts", "accounts", { search: name, ...withCounts }, wanted, lookup.bound("look it up by id"));
  return exactlyOne(client.resource, "account", key, found.filter(wanted).map(accountOf));
}

/** getAccounts taking Outputs: the result is an Output. */
export const getAccountsOutput = outputForm(getAccounts);

/** getAccount taking Outputs: the result is an Output. */
export const getAccountOutput = outputForm(getAccount);
