// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.Webhook resources require (a path never renamed); its definition is ./integrations/webhook.ts.
import { dynamicDoor } from "../dynamic/door";
import { webhook } from "./integrations/webhook";
import type { WebhookArgs, WebhookOutputs } from "./generated-types";

export type { WebhookArgs, WebhookOutputs } from "./generated-types";
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
} = dynamicDoor(module, webhook);
export { remove as delete };

export interface Webhook extends WebhookOutputs {}

/** A webhook: a URL the service POSTs to when its events happen. */
export class Webhook extends resourceClass<WebhookArgs>() {}
