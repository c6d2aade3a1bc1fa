// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.Address resources require (a path never renamed); its definition is ./campaigns/address.ts.
import { dynamicDoor } from "../dynamic/door";
import { address } from "./campaigns/address";
import type { AddressArgs, AddressOutputs } from "./generated-types";

export type { AddressArgs, AddressOutputs } from "./generated-types";
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
} = dynamicDoor(module, address);
export { remove as delete };

export interface Address extends AddressOutputs {}

/** A physical mailing address of the account; every campaign needs one. */
export class Address extends resourceClass<AddressArgs>() {}
