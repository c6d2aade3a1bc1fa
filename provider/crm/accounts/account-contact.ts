// crm.AccountContact: a contact's association with an account, with the contact's job
// title there. A contact belongs to one account at most; the lifecycle is
// crmCore's (see ../crud).

import type { z } from "zod";
import { defineKind } from "../../definition";
import type { ExportDeclaration } from "../crud/export-declaration";
import { declareResource, input, takeOverById } from "../../kit/declaration";
import { optionalText, serviceId } from "../../kit/inputs";
import { labelByIds } from "../../kit/check-diff";
import { unrecordedObjectAdvice } from "../../kit/adoption";
import { ServiceError } from "../../transport/errors";
import type { CrmClient } from "../service/client";
import { type ServiceObject, walk } from "../service/collection";
import { crmCore, type CrmKindSpec } from "../crud";
import * as wire from "../service/wire-forms";
import { idOf } from "../service/normalize";

const declaration = declareResource({
  namespace: "crm",
  name: "AccountContact",
  inputs: {
    accountId: input(
      serviceId("the account, such as a crm.Account's id"),
      "The account's id, e.g. a crm.Account's `id`. A change moves the association, since a contact cannot be in two accounts even for a moment.",
      // The update names account and contact too, as the reference requires.
      { refersTo: "account", wire: wire.id({ request: "account" }) },
    ),
    contactId: input(serviceId("the contact"), "The contact's id.", { wire: wire.id({ request: "contact" }) }),
    jobTitle: input(optionalText(255), 'The contact\'s job title at the account. Removing it, or setting it to "", clears it.', {
      wire: { ...wire.optionalText(), clearsOnlyHeld: true },
    }),
    adoptId: takeOverById("association", "its account, contact and job title are set to the declared ones where they differ"),
  },
});

type AssociationInputs = z.output<typeof declaration.inputSchema>;

const resourceType = declaration.type;

/** The contact's associations (at most one), matched here too in case the filter is ignored. */
async function associationsOf(client: CrmClient, contactId: string, query: Record<string, string> = {}): Promise<ServiceObject[]> {
  const ofContact = (association: ServiceObject) => idOf(association.contact) === contactId;
  const found = await walk<ServiceObject>(client, "/accountContacts", "accountContacts", { "filters[contact]": contactId, ...query }, ofContact);
  return found.filter(ofContact);
}

/** The service's 422 field_invalid for a contact that is in an account already, told with that account. */
async function explainFailure(client: CrmClient, inputs: AssociationInputs, error: ServiceError): Promise<Error | undefined> {
  if (error.status !== 422 || error.code !== "field_invalid") return undefined;
  const [held] = await associationsOf(client, inputs.contactId);
  if (!held) return undefined;
  if (idOf(held.account) === inputs.accountId) {
    const id = String(held.id);
    return new ServiceError(
      `${client.resource}: contact ${inputs.contactId} already belongs to this account (association ${id}); ${unrecordedObjectAdvice(id, `${client.rootUrl}/accountContacts/${id}`)}.`,
      { status: 422, code: "duplicate", field: "contactId" },
    );
  }
  return new ServiceError(
    `${client.resource}: contact ${inputs.contactId} already belongs to account ${idOf(held.account)} (association ${held.id}), and a contact can belong to one account only; ` +
      "remove that association (or change accountId on the resource that manages it) first, or associate another contact.",
    { status: 422, code: "field_invalid", field: "contactId" },
  );
}

const kind: CrmKindSpec<typeof declaration.inputSchema> = {
  label: labelByIds(resourceType, ["contactId", "accountId"], ([contact, account]) => `(contact ${contact}, account ${account})`),
  path: "/accountContacts",
  member: "accountContact",
  collection: "accountContacts",
  findCreated: async (client: CrmClient, inputs: AssociationInputs) =>
    (await associationsOf(client, inputs.contactId, { "filters[account]": inputs.accountId })).find(
      (association) => idOf(association.account) === inputs.accountId,
    ),
  explainFailure,
};

// Deleting an account deletes its associations in the service: delete takes a 404 as done.
const core = crmCore(declaration, kind);

/** What `pulumi-crm export` reads of the associations (see ../crud/export-declaration.ts): each follows its account. */
const exported: ExportDeclaration = {
  section: "Contacts' places at accounts (the contacts themselves are not managed here)",
  part: "data",
  path: kind.path,
  collection: kind.collection!,
  refersTo: declaration.refersTo,
  follows: "accountId",
  title: (_association, inputs, names) => `${names.accountId} contact ${inputs.contactId}`,
};

export const accountContact = defineKind("A contact's association with an account.", declaration, core, { inputsDeclaring: core.inputsDeclaring, exported });
