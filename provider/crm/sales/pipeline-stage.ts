// crm.PipelineStage: a stage of a pipeline (the service's deal stage). Its declaration; the
// rest is plainKind's (see ../crud/plain-kind.ts).

import { z } from "zod";
import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { requiredText, serviceId, wholeNumber } from "../../kit/inputs";
import * as wire from "../service/wire-forms";

export const pipelineStage = plainKind({
  description: "A stage of a pipeline: its title, position, color and width on the deals' board.",
  name: "PipelineStage",
  noun: "dealStage",
  namedBy: "title",
  inputs: {
    title: input(requiredText("the stage's title", 255), "The stage's title.", { wire: wire.text() }),
    pipelineId: input(
      serviceId("a pipeline"),
      "The id of the pipeline (a `crm.Pipeline`'s `id`) the stage is in. A change moves the stage in place, deals and all.",
      {
        refersTo: "pipeline",
        // Sent as digits: the reference's request declares a string.
        wire: { ...wire.id({ request: "group", answer: "group" }), send: String },
      },
    ),
    order: input(
      wholeNumber(0).optional(),
      "The stage's position in its pipeline, from the left. Unset: the service puts it last, and the stack leaves its position alone.",
      {
        wire: wire.optionalNumber(),
      },
    ),
    color: input(
      z
        .string({ invalid_type_error: "must be a string" })
        .regex(/^[0-9A-Fa-f]{6}$/, 'must be a 6-digit hex color without the #, such as "32B0FC"')
        .default("3f3f3f"),
      "The stage's color: 6 hex digits without the #.",
      { wire: wire.text() },
    ),
    width: input(wholeNumber(1).default(280), "The stage's width on the deals' board, in pixels.", { wire: wire.optionalNumber() }),
    dealOrder: input(
      z
        .string({ invalid_type_error: "must be a string" })
        .regex(/^\S+ (ASC|DESC)$/, 'must be a sort option and a direction, such as "next-action DESC" or "title ASC"')
        .default("next-action DESC"),
      'How deals are sorted in the stage: an option and ASC or DESC, such as "title ASC".',
      { wire: wire.text() },
    ),
  },
  kind: () => ({ serviceAssigned: ["order"] }),
});
