// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.Message resources require (a path never renamed); its definition is ./campaigns/message.ts.
import { dynamicDoor } from "../dynamic/door";
import { message } from "./campaigns/message";
import type { MessageArgs, MessageOutputs } from "./generated-types";

export type { MessageArgs, MessageOutputs } from "./generated-types";
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
} = dynamicDoor(module, message);
export { remove as delete };

export interface Message extends MessageOutputs {}

/** An email message: its sender, reply address, subject and preheader. */
export class Message extends resourceClass<MessageArgs>() {}
