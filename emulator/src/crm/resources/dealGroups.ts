import { attributesOf, fieldError, unprocessable, type CrmRequest } from "../api";
import { equals, matches } from "../collections";
import { collection, flag, id, integer, texts, type CollectionRow, type Form } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { crmModule, table } from "../module";

export const dealGroupsModule = crmModule({ tables: { dealGroups: table<CollectionRow>(), dealStages: table<CollectionRow>() }, routes: dealGroupRoutes });

/** The stages a new pipeline comes with: the reference's answer to POST /dealGroups. */
const DEFAULT_STAGES = [
  { title: "To Contact", color: "18D499" },
  { title: "In Contact", color: "32B0FC" },
  { title: "Follow Up", color: "E6CE4B" },
];

/**
 * Pipelines (/dealGroups) and their stages (/dealStages). A pipeline is made with the
 * three default stages and answered with its stages' ids (`stages`) and the stages
 * beside it (`dealStages`); deleting it deletes its stages. A stage names its pipeline
 * in `group`, which an update may change; its order is the pipeline's highest + 1 when
 * not sent.
 */
/** Taken from requests, answered behind the pipeline's links. */
const behindLinks: Form = { read: texts.read, answer: () => undefined };

/** The pipeline's users or groups as the service lists them at its links: an association each, numbered after the pipeline. */
const associations = (pipeline: CollectionRow, member: "users" | "groups", name: "user" | "group") =>
  (pipeline[member] as string[]).map((target, index) => ({ dealGroup: pipeline.id, id: String(Number(pipeline.id) * 1000 + index + 1), [name]: target }));

function dealGroupRoutes(crm: CrmContext): Route[] {
  const { dealGroups, dealStages } = crm.tables;
  const stagesOf = (pipelineId: string) =>
    dealStages.where((stage) => stage.group === pipelineId).sort((a, b) => Number(a.order) - Number(b.order) || Number(a.id) - Number(b.id));
  const presentStages = (rows: CollectionRow[], req: CrmRequest) => ({
    dealStages: rows.flatMap((row) => stagesOf(row.id)).map((stage) => crm.kinds.get("dealStages").present(stage, req, "list")),
  });

  const stages = collection<CollectionRow>(crm, {
    singular: "dealStage",
    plural: "dealStages",
    record: "DealStage",
    table: dealStages,
    createStatus: 200,
    fields: {
      title: { required: "The title field is required." },
      group: { form: id, required: "The group field is required." },
      order: { form: integer, default: (draft) => Math.max(0, ...stagesOf(String(draft.group)).map((stage) => Number(stage.order))) + 1 },
      dealOrder: { default: "next-action DESC" },
      cardRegion1: { default: "title" },
      cardRegion2: { default: "next-action" },
      cardRegion3: { allowed: ["show-avatar", "hide-avatar"], default: "show-avatar" },
      cardRegion4: { default: "contact-fullname-orgname" },
      cardRegion5: { default: "value" },
      color: {
        default: "3f3f3f",
        rule: (value) => (/^[0-9a-f]{6}$/i.test(String(value)) ? undefined : "The color must be a 6-character hex code without the #."),
      },
      width: { form: integer, default: 280 },
    },
    timestamps: { cdate: "created", udate: "updated" },
    links: { group: (stage, req) => crm.kinds.one(req, pipelines.kind, pipelines.find(String(stage.group))) },
    list: { filters: { title: matches("title"), d_groupid: equals("group") } },
    hooks: {
      check(draft) {
        if (!dealGroups.get(String(draft.group))) throw unprocessable(fieldError("field_invalid", "group", `No pipeline with id ${draft.group}.`));
      },
    },
  });

  const pipelines = collection<CollectionRow>(crm, {
    singular: "dealGroup",
    plural: "dealGroups",
    record: "DealGroup",
    table: dealGroups,
    createStatus: 200,
    operations: ["list", "read", "update", "delete"],
    fields: {
      title: { required: "The title field is required." },
      currency: {
        required: "The currency field is required.",
        rule: (value) => (/^[a-z]{3}$/i.test(String(value)) ? undefined : "The currency must be a 3-letter code."),
      },
      allgroups: { form: flag, default: 1 },
      allusers: { form: flag, default: 0 },
      autoassign: { allowed: ["0", "1", "2"], default: "1" },
      // Who gets new deals and which groups manage the pipeline: answered behind its links, not on it.
      users: { form: behindLinks, default: () => [] },
      groups: { form: behindLinks, default: () => [] },
    },
    timestamps: { cdate: "created", udate: "updated" },
    links: {
      dealGroupGroups: (pipeline) => ({ dealGroupGroups: associations(pipeline, "groups", "group") }),
      dealGroupUsers: (pipeline) => ({ dealGroupUsers: associations(pipeline, "users", "user") }),
      stages: (pipeline, req) => presentStages([pipeline], req),
    },
    list: { filters: { title: matches("title"), have_stages: (row, value) => stagesOf(row.id).length > 0 === (value === "1") } },
    alongside: presentStages,
    hooks: {
      members: (row) => ({ stages: stagesOf(row.id).map((stage) => stage.id) }),
      removed: (row) => dealStages.deleteWhere((stage) => stage.group === row.id),
    },
  });

  /** POST /dealGroups: the pipeline and its default stages. */
  const createPipeline: Route = {
    method: "POST",
    pattern: "/dealGroups",
    handle: (req) => {
      const attrs = attributesOf(req, "dealGroup");
      const pipeline = pipelines.create(attrs);
      for (const [index, stage] of DEFAULT_STAGES.entries()) stages.create({ ...stage, group: pipeline.id, order: index + 1 });
      return pipelines.written(req, pipeline, attrs, 200);
    },
  };
  return [createPipeline, ...pipelines.routes, ...stages.routes];
}
