import { attributesOf, fieldError, unprocessable, type FieldError } from "../api";
import { collection, flag, id, text, type CollectionRow, type Form } from "../collection";
import type { CrmContext } from "../context";
import type { Document } from "../kinds";
import type { Route } from "../router";
import { crmModule, table } from "../module";
import { sqlTimestamp } from "../time";
import { userLink } from "./shared";

/**
 * Task outcomes and which deal task types offer them. A fresh account has no outcomes: the
 * reference's create answers the first one made id 1 (its list shows four made by hand,
 * minutes apart, one titled "Disabled outcome").
 */
export const taskOutcomesModule = crmModule({
  tables: { taskOutcomes: table<CollectionRow>(), tasktypeOutcomeRels: table<CollectionRow>() },
  routes: (crm) => [...taskOutcomeRoutes(crm), ...tasktypeOutcomeRelRoutes(crm)],
});

/** The sentiments, stored and answered in capitals ("POSITIVE") whatever case was sent; filters[sentiment] names them 1 to 3. */
const SENTIMENTS = ["POSITIVE", "NEUTRAL", "NEGATIVE"];
const SENTIMENT_CODES: Record<string, string> = { "1": "NEGATIVE", "2": "NEUTRAL", "3": "POSITIVE" };
const sentiment: Form = { read: (attrs, name) => String(text.read(attrs, name)).trim().toUpperCase(), answer: (stored) => stored };

/** The reference's 422 members carry an `error` besides the usual ones. */
const withError = (error: FieldError, code = ""): FieldError => Object.assign(error, { error: code });

/**
 * Task outcomes (/taskOutcomes): a title unique among them (case aside, as the task types'),
 * a sentiment Positive, Neutral or Negative, disabled 0 or 1. The reference serves the update
 * and the delete at a misspelled path, /taskOutccomes/{id}; the emulator serves them where the
 * kind's read and links are, /taskOutcomes/{id}. Its 422s list every broken field at once, as
 * the reference's do. The create answers only title, sentiment, created_by, disabled ("" unless
 * sent), links and id, and the update all but dealTasktype_ids, as their examples do. A
 * deleted outcome takes its task-type relations with it. The list pages by limit/offset.
 */
function taskOutcomeRoutes(crm: CrmContext): Route[] {
  const { taskOutcomes, tasktypeOutcomeRels } = crm.tables;
  return collection<CollectionRow>(crm, {
    singular: "taskOutcome",
    plural: "taskOutcomes",
    record: "TaskOutcome",
    table: taskOutcomes,
    createStatus: 200,
    bareBody: true,
    fields: { title: {}, sentiment: { form: sentiment }, disabled: { form: flag, default: 0 } },
    constants: { created_by: "1", updated_by: "1" },
    timestamps: { created_utc_timestamp: "created", updated_utc_timestamp: "updated" },
    links: {
      tasktypeOutcomeRels: (outcome, req) =>
        crm.kinds.relatedMany(
          req,
          "tasktypeOutcomeRels",
          tasktypeOutcomeRels.where((rel) => rel.outcome_id === outcome.id),
        ),
      dealTasks: null,
    },
    list: { filters: { sentiment: (row, value) => row.sentiment === (SENTIMENT_CODES[value] ?? value.toUpperCase()) } },
    hooks: {
      check(draft, existing) {
        const errors: FieldError[] = [];
        const title = String(draft.title).trim();
        if (title === "")
          errors.push(withError(fieldError("field_missing", "title", "The taskOutcome title was not provided."), "taskOutcome_title_was_not_provided"));
        else if (taskOutcomes.find((row) => row.id !== existing?.id && String(row.title).toLowerCase() === title.toLowerCase())) {
          errors.push(withError(fieldError("field_invalid", "title", "A task outcome with the same title already exists.")));
        }
        if (!SENTIMENTS.includes(String(draft.sentiment))) {
          errors.push(withError(fieldError("field_invalid", "sentiment", "Sentiment value must be one of Positive, Neutral, or Negative.")));
        }
        if (errors.length > 0) throw unprocessable(...errors);
      },
      // The ids of the task types that offer it, as the relations hold them.
      members: (row) => ({ dealTasktype_ids: tasktypeOutcomeRels.where((rel) => rel.outcome_id === row.id).map((rel) => rel.tasktype_id) }),
      written(document, row, attrs, req) {
        const { dealTasktype_ids: _ids, ...outcome } = document.taskOutcome as Document;
        if (req.method !== "POST") return { taskOutcome: outcome };
        const { title, sentiment, created_by, links, id } = outcome;
        return { taskOutcome: { title, sentiment, created_by, disabled: attrs.disabled === undefined ? "" : String(row.disabled), links, id } };
      },
      removed: (row) => tasktypeOutcomeRels.deleteWhere((rel) => rel.outcome_id === row.id),
    },
  }).routes;
}

/** A display order: a whole number from 0, sent as a number or digits; answered as digits. */
const order: Form = {
  read(attrs, name) {
    const value = String(text.read(attrs, name)).trim();
    if (!/^\d+$/.test(value)) throw unprocessable(fieldError("field_invalid", name, `The ${name} must be a whole number from 0.`));
    return String(Number(value));
  },
  answer: (stored) => stored,
};

/**
 * Which deal task types offer which outcomes (/tasktypeOutcomeRels): tasktype_id (a deal
 * task type) and outcome_id (a task outcome), both required (also taken as tasktype and
 * outcome, the names the answer repeats them under), and display_order, by default the one
 * after the highest held, as the reference's list numbers them (0, 1, 2 across task types).
 * The reference's request and answer of the create and the update are copies of the task
 * outcome's (both marked WIP); the emulator takes and answers {tasktypeOutcomeRel}, as its
 * read and list show it: updated_utc_timestamp naive in account time, updated_by null until
 * an update (then the admin), created_by and createdBy the admin. An unknown task type or outcome, or a pair
 * held already, is refused 422, as the emulator's other links are; the list pages by
 * limit/offset and takes no filters, as the reference lists none.
 */
function tasktypeOutcomeRelRoutes(crm: CrmContext): Route[] {
  const { dealTasktypes, taskOutcomes, tasktypeOutcomeRels } = crm.tables;
  const nextOrder = () => String(Math.max(-1, ...tasktypeOutcomeRels.all().map((rel) => Number(rel.display_order))) + 1);
  const rels = collection<CollectionRow>(crm, {
    singular: "tasktypeOutcomeRel",
    plural: "tasktypeOutcomeRels",
    record: "TasktypeOutcomeRel",
    table: tasktypeOutcomeRels,
    createStatus: 200,
    operations: ["create", "list", "read", "delete"],
    fields: {
      tasktype_id: { form: id, required: "The tasktype_id field is required.", alsoSentAs: ["tasktype"] },
      outcome_id: { form: id, required: "The outcome_id field is required.", alsoSentAs: ["outcome"] },
      display_order: { form: order, default: nextOrder },
      updated_by: { generated: true, default: () => null },
    },
    constants: { created_by: "1" },
    timestamps: { created_utc_timestamp: "created" },
    links: {
      tasktype: (rel, req) => crm.kinds.relatedOne(req, "dealTasktypes", dealTasktypes.get(String(rel.tasktype_id))),
      outcome: (rel, req) => crm.kinds.relatedOne(req, "taskOutcomes", taskOutcomes.get(String(rel.outcome_id))),
      createdBy: userLink,
    },
    hooks: {
      check(draft, existing) {
        if (!dealTasktypes.get(String(draft.tasktype_id))) {
          throw unprocessable(fieldError("field_invalid", "tasktype_id", `No deal task type with id ${draft.tasktype_id}.`));
        }
        if (!taskOutcomes.get(String(draft.outcome_id)))
          throw unprocessable(fieldError("field_invalid", "outcome_id", `No task outcome with id ${draft.outcome_id}.`));
        const same = (rel: CollectionRow) => rel.tasktype_id === draft.tasktype_id && rel.outcome_id === draft.outcome_id;
        if (tasktypeOutcomeRels.find((rel) => rel.id !== existing?.id && same(rel))) {
          throw unprocessable(fieldError("duplicate", "outcome_id", `Task type ${draft.tasktype_id} offers outcome ${draft.outcome_id} already.`));
        }
      },
      members: (rel) => ({
        updated_utc_timestamp: sqlTimestamp(rel.updatedMs),
        tasktype: rel.tasktype_id,
        outcome: rel.outcome_id,
        createdBy: "1",
      }),
    },
  });
  // An update, by the key's user (the admin).
  const update: Route = {
    method: "PUT",
    pattern: "/tasktypeOutcomeRels/:id",
    handle: (req) => {
      const attrs = attributesOf(req, "tasktypeOutcomeRel");
      const row = rels.update(rels.find(req.params.id), attrs);
      return rels.written(req, tasktypeOutcomeRels.update(row, { updated_by: "1" }), attrs);
    },
  };
  return [...rels.routes, update];
}
