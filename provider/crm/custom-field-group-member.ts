// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.CustomFieldGroupMember resources require (a path never renamed); its definition is ./contacts/custom-field-group-member.ts.
import { dynamicDoor } from "../dynamic/door";
import { customFieldGroupMember } from "./contacts/custom-field-group-member";
import type { CustomFieldGroupMemberArgs, CustomFieldGroupMemberOutputs } from "./generated-types";

export type { CustomFieldGroupMemberArgs, CustomFieldGroupMemberOutputs } from "./generated-types";
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
} = dynamicDoor(module, customFieldGroupMember);
export { remove as delete };

export interface CustomFieldGroupMember extends CustomFieldGroupMemberOutputs {}

/**
 * A contact custom field's place in a field group of the account, at a position among the group's
 * fields.
 */
export class CustomFieldGroupMember extends resourceClass<CustomFieldGroupMemberArgs>() {}
