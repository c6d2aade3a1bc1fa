// crm.PersonalizationVariable: a variable messages write as %TAG%, replaced by its content
// when sent. Its declaration; the rest is plainKind's (see ../crud/plain-kind.ts).

import { z } from "zod";
import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { givenText, oneOf, requiredText } from "../../kit/inputs";
import * as wire from "../service/wire-forms";

// Written in lower case without the % signs, as the service answers it: `%Promo-Code%` is `promo-code`.
const variableTag = givenText(
  "the tag messages write as %TAG%",
  z
    .string()
    .transform((tag) => tag.replace(/^%|%$/g, "").toLowerCase())
    .refine((tag) => /^[a-z0-9_-]{1,100}$/.test(tag), "must be 1 to 100 letters, digits, - or _ (messages write it between % signs)"),
);

export const personalizationVariable = plainKind({
  description: "A personalization variable: `%TAG%` in a message, replaced by its content.",
  name: "PersonalizationVariable",
  noun: "personalization",
  namedBy: "tag",
  inputs: {
    tag: input(
      variableTag,
      "What messages write between % signs: `promo-code` is `%PROMO-CODE%` in a message. Kept in lower case without the % signs: `%Promo-Code%` is `promo-code`.",
      { wire: wire.text() },
    ),
    name: input(requiredText("the variable's name", 255), "The variable's name, as the message editor lists it.", { wire: wire.text() }),
    format: input(oneOf(["html", "text"]).default("html"), "The content's format: `html` or `text`.", { wire: wire.text() }),
    content: input(requiredText("what the variable is replaced with", 65535), "What the variable is replaced with in a message.", { wire: wire.text() }),
  },
  // Its timestamps are naive ("2024-08-14 12:31:35"), in the account's unknown time zone.
  created: { member: "created_timestamp", uncertaintyMs: 14 * 3600_000 },
  exported: { title: (variable) => `${variable.tag} variable` },
});
