// crm.SavedResponse: a saved response, an email the sales team sends again and again.
// Its declaration; the rest is plainKind's (see ../crud/plain-kind.ts).

import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { requiredText } from "../../kit/inputs";
import * as wire from "../service/wire-forms";

export const savedResponse = plainKind({
  description: "A saved response: an email's subject and body, kept under a title.",
  name: "SavedResponse",
  noun: "savedResponse",
  namedBy: "title",
  inputs: {
    title: input(requiredText("the saved response's title", 255), "The title the sales team picks the response by.", { wire: wire.text() }),
    subject: input(requiredText("the email's subject", 255), "The email's subject.", { wire: wire.text() }),
    body: input(requiredText("the email's body", 65535), "The email's body.", { wire: wire.text() }),
  },
});
