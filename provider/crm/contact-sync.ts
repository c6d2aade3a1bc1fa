// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.ContactSync resources require (a path never renamed); its definition is ./contacts/contact-sync.ts.
import { dynamicDoor } from "../dynamic/door";
import { contactSync } from "./contacts/contact-sync";
import type { ContactSyncArgs, ContactSyncOutputs } from "./generated-types";

export type { ContactSyncArgs, ContactSyncOutputs } from "./generated-types";
export const {
  declaration,
  inputSchema,
  core,
  exported,
  inputsDeclaring,
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
  configure,
  resourceClass,
} = dynamicDoor(module, contactSync);
export { remove as delete };

export interface ContactSync extends ContactSyncOutputs {}

/**
 * Upserts contacts through the service's bulk import when created, and again when its contacts or
 * triggers change, reporting how each row went.
 */
export class ContactSync extends resourceClass<ContactSyncArgs>() {}
