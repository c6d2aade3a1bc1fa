// crm.Account: an account (company) of the CRM service. Its declaration, its
// normalization and its provider live here; the lifecycle is crmCore's (see
// ./crud), with the service's own check of unique names and its bulk delete.

import { z } from "zod";
import type { ExportDeclaration } from "../crud/export-declaration";
import { defineKind } from "../../definition";
import { declareResource, input, takeOverById } from "../../kit/declaration";
import { isWebAddress, nameText } from "../../kit/inputs";
import { labelBy } from "../../kit/check-diff";
import type { CrmClient } from "../service/client";
import { type ServiceObject, walk } from "../service/collection";
import { crmCore, type CrmKindSpec } from "../crud";
import * as wire from "../service/wire-forms";

const declaration = declareResource({
  namespace: "crm",
  name: "Account",
  inputs: {
    name: input(
      nameText("the account's name, unique in the CRM account", 255),
      "The account's name, without leading or trailing spaces, unique within the CRM account (regardless of case).",
      { wire: wire.text() },
    ),
    accountUrl: input(
      z
        .string({ invalid_type_error: "must be a string" })
        .max(1000, "must be at most 1000 characters")
        .refine(isWebAddress, "must be an http or https URL such as https://acme.example")
        .nullish()
        .transform((url) => url ?? null),
      "The account's website, an http(s) URL; null when unset. Removing it clears the website.",
      { nullWhenUnset: true, wire: wire.nullableText() },
    ),
    adoptExisting: input(
      z.boolean({ invalid_type_error: "must be true or false" }).default(false),
      "Take over an account that already exists with this name, and that no stack manages, instead of failing; otherwise an existing account is never silently managed, changed or later deleted by this stack. Pair it with `retainOnDelete: true` to leave the account in place on destroy.",
    ),
    adoptId: takeOverById("account", "its name and website are set to the declared ones where they differ"),
  },
});

type AccountInputs = z.output<typeof declaration.inputSchema>;

/** The service's account, as far as this provider reads it. */
interface ServiceAccount extends ServiceObject {
  id: string;
  name: string;
  createdTimestamp?: string;
}

const resourceType = declaration.type;
const label = labelBy(resourceType, "name");

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
async function findCreatedAccount(client: CrmClient, name: string, attemptStarted: number): Promise<ServiceObject | undefined> {
  const [account] = await findByName(client, name);
  if (!account) return undefined;
  const created = Date.parse(account.createdTimestamp ?? "");
  if (Number.isNaN(created) || created < attemptStarted - clockSkewMs) return undefined;
  return account;
}

const kind: CrmKindSpec<typeof declaration.inputSchema> = {
  label,
  // Reads arriving together are answered from the list (see ../service/read-batcher.ts).
  path: "/accounts",
  member: "account",
  collection: "accounts",
  // Named by the name it has, else by its id as a name.
  labelWithId: (props, id) => label({ name: props.name ?? id }),
  advice: {
    duplicate: "choose another name; or, only if no stack manages that account, set adoptExisting: true to take it over with this stack",
  },
  // A take-over writes only the fields whose declared value differs.
  takeOverSendsDiffering: true,
  findCreated: (client, inputs: AccountInputs, attemptStarted) => findCreatedAccount(client, inputs.name, attemptStarted),
  // The service refuses a taken name (regardless of case): the create is sent first.
  adoption: {
    key: (inputs: AccountInputs) => inputs.name,
    describe: (inputs: AccountInputs) => `the account name "${inputs.name}"`,
    instead: "choose another name",
    find: async (client, inputs: AccountInputs) => (await findByName(client, inputs.name))[0],
    enforcedByService: { field: "name", noun: "account" },
  },
  // 100 ids keep the query string far below common URL length limits.
  bulkDelete: { path: "/accounts/bulk_delete", max: 100 },
};

// Declared once per deployment: checked by both doors (see ../../kit/unique-names.ts).
const core = crmCore(declaration, kind, { field: "name", what: "account name" });

/** What `pulumi-crm export` reads of accounts (see ../crud/export-declaration.ts). */
const exported: ExportDeclaration = {
  section: "Accounts",
  part: "data",
  lookup: "getAccount",
  path: kind.path,
  collection: kind.collection!,
  name: (account) => String(account.name),
  title: (account) => String(account.name),
};

export const account = defineKind("An account (company) in the CRM service.", declaration, core, { inputsDeclaring: core.inputsDeclaring, exported });
