// crm.Tag: a tag of contacts or of templates, which automations and segments key on.
// Its declaration and what is particular to it; the rest is plainKind's (see ../crud/plain-kind.ts).

import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { nameText, oneOf, optionalText } from "../../kit/inputs";
import * as wire from "../service/wire-forms";

export const tag = plainKind({
  description: "A tag of contacts or templates.",
  name: "Tag",
  noun: "tag",
  namedBy: "tag",
  exported: { lookup: "getTag" },
  inputs: {
    tag: input(nameText("the tag's name", 255), "The tag's name, unique among the tags of its type (regardless of case).", { wire: wire.text() }),
    tagType: input(oneOf(["contact", "template"]).default("contact"), "What the tag is put on: `contact` or `template`.", { wire: wire.text() }),
    description: input(optionalText(255), 'The description. Removing it, or setting it to "", clears it.', { wire: wire.optionalText() }),
  },
  // Declared once per deployment and type: checked by both doors (see ../../kit/unique-names.ts).
  uniqueName: { field: "tag", what: "tag", within: "tagType" },
});
