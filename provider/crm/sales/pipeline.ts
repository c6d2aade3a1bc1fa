// crm.Pipeline: a pipeline deals move through (the service's deal group). The service makes
// a new pipeline with three default stages; the resource removes them as it creates the
// pipeline, so that its stages are the crm.PipelineStage resources a program declares. Its
// declaration and that removal; the rest is plainKind's (see ../crud/plain-kind.ts).

import { z } from "zod";
import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { givenText, idSet, nameText } from "../../kit/inputs";
import type { CrmClient } from "../service/client";
import { deleteObject } from "../service/collection";
import * as wire from "../service/wire-forms";

/** The service's autoassign, 0 to 2, by name. */
const autoAssignments: Record<string, string> = { off: "0", roundRobin: "1", byValue: "2" };
const autoAssignNames = Object.keys(autoAssignments) as [string, ...string[]];
const autoAssignOf = (value: unknown) => autoAssignNames.find((name) => autoAssignments[name] === String(value));

/** Ids the service lists at one of the pipeline's links (`dealGroupUsers`: `user` of each). */
async function linked(client: CrmClient, id: string, link: string, member: string): Promise<string[] | undefined> {
  const rows = ((await client.call({ method: "GET", path: `/dealGroups/${id}/${link}` })).body as Record<string, Array<Record<string, unknown>>>)[link] ?? [];
  const ids = rows.map((row) => String(row[member])).sort((a, b) => Number(a) - Number(b));
  return ids.length ? ids : undefined;
}
const usersAndGroups = async (client: CrmClient, id: string) => ({
  userIds: await linked(client, id, "dealGroupUsers", "user"),
  userGroupIds: await linked(client, id, "dealGroupGroups", "group"),
});

/** A set of ids sent as the service's list of digits, answered behind a link (see usersAndGroups), cleared with an empty list. */
const idList = (request: string, answer: string) => ({ request, answer, read: (ids: unknown) => ids ?? undefined, clearWith: [] });

const flagInput = (byDefault: boolean) => z.boolean({ invalid_type_error: "must be true or false" }).default(byDefault);

export const pipeline = plainKind({
  description: "A pipeline deals move through; its stages are crm.PipelineStage resources.",
  name: "Pipeline",
  noun: "dealGroup",
  namedBy: "title",
  inputs: {
    title: input(nameText("the pipeline's title", 255), "The pipeline's title.", { wire: wire.text() }),
    currency: input(
      givenText("a 3-letter currency code, such as usd", z.string().regex(/^[a-z]{3}$/, "must be a 3-letter currency code in lower case, such as usd")),
      "The 3-letter code, in lower case, of the currency new deals of the pipeline get.",
      { wire: wire.text() },
    ),
    allUserGroups: input(flagInput(true), "Whether every user group may manage the pipeline.", {
      wire: wire.flag({ request: "allgroups", answer: "allgroups" }, "0/1"),
    }),
    allUsers: input(flagInput(false), "Whether new deals are assigned to any user (when `autoAssign` is not `off`).", {
      wire: wire.flag({ request: "allusers", answer: "allusers" }, "0/1"),
    }),
    autoAssign: input(
      z.enum(autoAssignNames, { errorMap: () => ({ message: `must be one of ${autoAssignNames.join(", ")}` }) }).default("roundRobin"),
      "How new deals are assigned: `off`, `roundRobin`, or `byValue` (distributed by the deals' values).",
      {
        wire: { request: "autoassign", answer: "autoassign", read: autoAssignOf, send: (name) => Number(autoAssignments[name as string]) },
      },
    ),
    userIds: input(idSet("a user"), "The ids of the users (`crm.User` ids) new deals are assigned to when `allUsers` is false; kept sorted.", {
      refersTo: "user",
      wire: idList("users", "userIds"),
    }),
    userGroupIds: input(
      idSet("a user group"),
      "The ids of the user groups (`crm.UserGroup` ids) that may manage the pipeline when `allUserGroups` is false; kept sorted.",
      {
        refersTo: "user-group",
        wire: idList("groups", "userGroupIds"),
      },
    ),
  },
  // Its users and groups are read from its links, as the export reads them.
  exported: { related: (client, pipeline) => usersAndGroups(client, String(pipeline.id)), lookup: "getPipeline" },
  kind: () => ({
    readRelated: (client, id) => usersAndGroups(client, id),
    relatedForImport: usersAndGroups,
    // The default stages are the service's, not the program's: removed before the create is confirmed.
    afterCreate: async (client, id) => {
      const { dealGroup } = (await client.call({ method: "GET", path: `/dealGroups/${id}` })).body as { dealGroup: { stages?: unknown[] } };
      for (const stage of dealGroup.stages ?? []) await deleteObject(client, `/dealStages/${stage}`);
    },
  }),
});
