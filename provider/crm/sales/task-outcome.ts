// crm.TaskOutcome: an outcome a sales task can end with, and how it went (the reference's
// /taskOutcomes). The service makes, lists and reads outcomes, and neither changes nor deletes
// one: every change replaces it, and a delete leaves it in the account, saying so. The rest is
// plainKind's (see ../crud/plain-kind.ts).

import { z } from "zod";
import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { oneOf, requiredText } from "../../kit/inputs";
import * as wire from "../service/wire-forms";

const sentiments: [string, ...string[]] = ["Positive", "Neutral", "Negative"];
const replaces = { replaceOnChanges: true };

export const taskOutcome = plainKind({
  description: "An outcome a sales task can end with, such as Interested, and its sentiment; the service can neither change nor delete one.",
  name: "TaskOutcome",
  noun: "taskOutcome",
  namedBy: "title",
  inputs: {
    title: input(requiredText("the outcome's title", 255), "The outcome's title, such as `Interested`.", { ...replaces, wire: wire.text() }),
    sentiment: input(oneOf(sentiments), "How the outcome went: `Positive`, `Neutral` or `Negative`.", {
      ...replaces,
      // Sent as the reference's request names them, answered in capitals (POSITIVE).
      wire: { read: (value) => sentiments.find((sentiment) => sentiment.toUpperCase() === String(value).toUpperCase()) ?? String(value) },
    }),
    disabled: input(z.boolean({ invalid_type_error: "must be true or false" }).default(false), "Whether the outcome is disabled, no longer offered.", {
      ...replaces,
      // The reference's request takes the digits as a string.
      wire: { ...wire.flag(), send: (value) => (value ? "1" : "0") },
    }),
  },
  created: { member: "created_utc_timestamp" },
  undeletable: "delete or disable it in the account's deal settings",
  kind: () => ({ bareBody: true }),
});
