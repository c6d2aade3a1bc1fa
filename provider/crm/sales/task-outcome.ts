// crm.TaskOutcome: an outcome a sales task can end with, and how it went (the reference's
// /taskOutcomes, whose update and delete the reference writes at a misspelt /taskOutccomes/{id};
// they are sent where the kind's read is). The rest is plainKind's (see ../crud/plain-kind.ts).

import { z } from "zod";
import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { nameText, oneOf } from "../../kit/inputs";
import * as wire from "../service/wire-forms";

const sentiments: [string, ...string[]] = ["Positive", "Neutral", "Negative"];

export const taskOutcome = plainKind({
  description: "An outcome a sales task can end with, such as Interested, with its sentiment; unique by title.",
  name: "TaskOutcome",
  noun: "taskOutcome",
  namedBy: "title",
  inputs: {
    title: input(nameText("the outcome's title", 255), "The outcome's title, such as `Interested`, unique among the outcomes.", { wire: wire.text() }),
    sentiment: input(oneOf(sentiments), "How the outcome went: `Positive`, `Neutral` or `Negative`.", {
      // Sent as the reference's request names them, answered in capitals (POSITIVE).
      wire: { read: (value) => sentiments.find((sentiment) => sentiment.toUpperCase() === String(value).toUpperCase()) ?? String(value) },
    }),
    disabled: input(
      z.boolean({ invalid_type_error: "must be true or false" }).default(false),
      "Whether the outcome is disabled: kept, but offered for no new task.",
      {
        // The reference's request takes the digit as a string.
        wire: { ...wire.flag(), send: (value) => (value ? "1" : "0") },
      },
    ),
  },
  created: { member: "created_utc_timestamp" },
  // Declared once per deployment: the service keeps titles unique.
  uniqueName: { field: "title", what: "task outcome" },
  kind: () => ({ bareBody: true }),
});
