// crm.TaskType: a type of the tasks the sales team puts on deals and contacts (call, email,
// meeting). Its declaration; the rest is plainKind's (see ../crud/plain-kind.ts).

import { z } from "zod";
import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { nameText } from "../../kit/inputs";
import * as wire from "../service/wire-forms";

export const taskType = plainKind({
  description: "A type of task (call, email, meeting): its title, and whether it is disabled.",
  name: "TaskType",
  noun: "dealTasktype",
  namedBy: "title",
  inputs: {
    title: input(nameText("the task type's title", 255), "The task type's title, unique among the task types.", { wire: wire.text() }),
    // The service's status: "0" active, "1" disabled (the reference's request takes the strings).
    disabled: input(
      z.boolean({ invalid_type_error: "must be true or false" }).default(false),
      "Whether the task type is disabled: kept, but offered for no new task.",
      {
        wire: { ...wire.flag({ request: "status", answer: "status" }), send: (disabled) => (disabled ? "1" : "0") },
      },
    ),
  },
  // Declared once per deployment: the service refuses a second task type of a title.
  uniqueName: { field: "title", what: "task type" },
  builtIns: { field: "title", names: ["Call", "Email", "Lunch", "Meeting"], what: "the task types every account comes with" },
});
