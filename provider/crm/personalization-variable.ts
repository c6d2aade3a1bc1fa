// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.PersonalizationVariable resources require (a path never renamed); its definition is ./contacts/personalization-variable.ts.
import { dynamicDoor } from "../dynamic/door";
import { personalizationVariable } from "./contacts/personalization-variable";
import type { PersonalizationVariableArgs, PersonalizationVariableOutputs } from "./generated-types";

export type { PersonalizationVariableArgs, PersonalizationVariableOutputs } from "./generated-types";
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
} = dynamicDoor(module, personalizationVariable);
export { remove as delete };

export interface PersonalizationVariable extends PersonalizationVariableOutputs {}

/** A personalization variable: `%TAG%` in a message, replaced by its content. */
export class PersonalizationVariable extends resourceClass<PersonalizationVariableArgs>() {}
