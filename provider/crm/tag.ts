// crm.Tag: a tag of contacts or of templates, which automations and segments key on.
// Its declaration and what is particular to it; the rest is crmModule's (see ./crud/module.ts).

import { crmModule } from "./crud/module";
import { input } from "../kit/declaration";
import { nameText, oneOf, optionalText } from "../kit/inputs";
import type { TagArgs, TagOutputs } from "./generated-types";
import * as wire from "./service/wire-forms";

export type { TagArgs, TagOutputs } from "./generated-types";

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
  name: "Tag",
  noun: "tag",
  namedBy: "tag",
  exported: { lookup: "getTag" },
  inputs: {
    tag: input(nameText("the tag's name", 255), "The tag's name, unique among the tags of its type (regardless of case).", { wire: wire.text() }),
    tagType: input(oneOf(["contact", "template"]).default("contact"), "What the tag is put on: `contact` or `template`.", { wire: wire.text() }),
    description: input(optionalText(255), 'The description. Removing it, or setting it to "", clears it.', { wire: wire.optionalText() }),
  },
  // Declared once per deployment and type: checked by both doors (see ../kit/unique-names.ts).
  uniqueName: { field: "tag", what: "tag", within: "tagType" },
});
export { remove as delete };

export interface Tag extends TagOutputs {}

/** A tag of contacts or templates. */
export class Tag extends resourceClass<TagArgs>() {}
