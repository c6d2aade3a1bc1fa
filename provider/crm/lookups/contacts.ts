// A contact by email or id, e.g. to associate a contact known by its email address
// with an account.

import { z } from "zod";
import { serviceId, strictObject } from "../../kit/inputs";
import { textOf, timestampOf } from "../service/normalize";
import { exactlyOne, type LookupOptions, notFound, outputForm, startLookup } from "./kit";

/** A contact of the CRM service. */
export interface ContactInfo {
  /** The contact's id. */
  id: string;
  /** The contact's email address. */
  email: string;
  /** The contact's first name; null when unset. */
  firstName: string | null;
  /** The contact's last name; null when unset. */
  lastName: string | null;
  /** The contact's phone number; null when unset. */
  phone: string | null;
  /** When it was created, ISO 8601. */
  cdate: string | null;
  /** When it was last updated, ISO 8601. */
  udate: string | null;
}

/** Names one contact: by its email address (regardless of case) or by its id. */
export type GetContactArgs =
  | {
      /** The contact's email address, regardless of case. */
      email: string;
    }
  | {
      /** The contact's id. */
      id: string;
    };

const args = strictObject(
  {
    email: z.string({ invalid_type_error: "must be a string" }).min(1, "must not be empty").optional(),
    id: serviceId("the contact").optional(),
  },
  "the arguments of a contact lookup",
).refine((key) => (key.email === undefined) !== (key.id === undefined), "give either the email or the id of the contact, not both");

function contactOf(contact: Record<string, unknown>): ContactInfo {
  return {
    id: String(contact.id),
    email: String(contact.email ?? ""),
    firstName: textOf(contact.firstName),
    lastName: textOf(contact.lastName),
    phone: textOf(contact.phone),
    cdate: timestampOf(contact.cdate),
    udate: timestampOf(contact.udate),
  };
}

/** The contact with this email address or id; an error when there is none. */
export async function getContact(key: GetContactArgs, opts?: LookupOptions): Promise<ContactInfo> {
  const lookup = startLookup("getContact", args, key, opts);
  const { client, args: wanted } = lookup;
  if (wanted.id !== undefined) {
    const response = await client.call({ method: "GET", path: `/contacts/${wanted.id}` }, { accept: [404] });
    if (response.status === 404) throw notFound(client.resource, "contact", wanted);
    return contactOf((response.body as { contact: Record<string, unknown> }).contact);
  }
  const email = wanted.email!.trim().toLowerCase();
  const response = await client.call({ method: "GET", path: "/contacts", query: { email } });
  const listed = ((response.body as { contacts?: Array<Record<string, unknown>> }).contacts ?? []).map(contactOf);
  return exactlyOne(
    client.resource,
    "contact",
    { email },
    listed.filter((contact) => contact.email.toLowerCase() === email),
  );
}

/** getContact taking Outputs: the result is an Output. */
export const getContactOutput = outputForm(getContact);
