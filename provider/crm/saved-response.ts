// crm.SavedResponse: a saved response, an email the sales team sends again and again.
// Its declaration; the rest is crmModule's (see ./crud/module.ts).

import { crmModule } from "./crud/module";
import { input } from "../kit/declaration";
import { requiredText } from "../kit/inputs";
import type { SavedResponseArgs, SavedResponseOutputs } from "./generated-types";
import * as wire from "./service/wire-forms";

export type { SavedResponseArgs, SavedResponseOutputs } from "./generated-types";

export const {
  declaration,
  inputSchema,
  core,
  inputsDeclaring,
  exported,
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
  configure,
  resourceClass,
} = crmModule(module, {
  name: "SavedResponse",
  noun: "savedResponse",
  namedBy: "title",
  inputs: {
    title: input(requiredText("the saved response's title", 255), "The title the sales team picks the response by.", { wire: wire.text() }),
    subject: input(requiredText("the email's subject", 255), "The email's subject.", { wire: wire.text() }),
    body: input(requiredText("the email's body", 65535), "The email's body.", { wire: wire.text() }),
  },
});
export { remove as delete };

export interface SavedResponse extends SavedResponseOutputs {}

/** A saved response: an email's subject and body, kept under a title. */
export class SavedResponse extends resourceClass<SavedResponseArgs>() {}
