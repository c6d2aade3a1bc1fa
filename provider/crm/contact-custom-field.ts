// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.ContactCustomField resources require (a path never renamed); its definition is ./contacts/contact-custom-field.ts.
import { dynamicDoor } from "../dynamic/door";
import { contactCustomField } from "./contacts/contact-custom-field";
import type { ContactCustomFieldArgs, ContactCustomFieldOutputs } from "./generated-types";

export type { ContactCustomFieldArgs, ContactCustomFieldOutputs } from "./generated-types";
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
} = dynamicDoor(module, contactCustomField);
export { remove as delete };

export interface ContactCustomField extends ContactCustomFieldOutputs {}

/** A custom field of contacts, with its options and the lists it shows on. */
export class ContactCustomField extends resourceClass<ContactCustomFieldArgs>() {}
