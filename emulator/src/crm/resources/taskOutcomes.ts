import { flagOf, type Attributes } from "../api";
import { collection, type CollectionRow, type Form } from "../collection";
import type { CrmContext } from "../context";
import type { Document } from "../kinds";
import type { Route } from "../router";
import { crmModule, table } from "../module";

/** The outcomes a deal task can end with (the reference's /taskOutcomes). */
export const taskOutcomesModule = crmModule({ tables: { taskOutcomes: table<CollectionRow>() }, routes: taskOutcomeRoutes });

/** A sentiment as sent (Positive), stored and answered as the reference's answers carry it (POSITIVE). */
const sentiment: Form = { read: (attrs, name) => String(attrs[name]).toUpperCase(), answer: (stored) => stored };

/** A flag as the reference's answers carry it: "0" or "1". */
const zeroOrOne: Form = { read: (attrs, name) => (flagOf(attrs[name]) ? "1" : "0"), answer: (stored) => stored };

/** filters[sentiment] takes the reference's digits: 1 Negative, 2 Neutral, 3 Positive. */
const sentimentOfDigit: Record<string, string> = { "1": "NEGATIVE", "2": "NEUTRAL", "3": "POSITIVE" };

/**
 * A task outcome: the reference makes (200), lists and reads one, and neither updates nor deletes
 * one. Its create's request carries title, sentiment and disabled at the top of the body (its
 * 422 example: "The taskOutcome title was not provided."), and its answer holds neither the
 * timestamps nor the task types a read shows, and `disabled` as "" unless the request sent it.
 */
function taskOutcomeRoutes(crm: CrmContext): Route[] {
  return collection<CollectionRow>(crm, {
    singular: "taskOutcome",
    plural: "taskOutcomes",
    record: "TaskOutcome",
    table: crm.tables.taskOutcomes,
    createStatus: 200,
    operations: ["create", "list", "read"],
    bareBody: true,
    fields: {
      title: { required: "The taskOutcome title was not provided." },
      sentiment: { form: sentiment, required: "The taskOutcome sentiment was not provided.", allowed: ["POSITIVE", "NEUTRAL", "NEGATIVE"] },
      disabled: { form: zeroOrOne, default: "0" },
    },
    constants: { created_by: "1", updated_by: "1", dealTasktype_ids: [] },
    timestamps: { created_utc_timestamp: "created", updated_utc_timestamp: "updated" },
    links: { tasktypeOutcomeRels: null, dealTasks: null },
    list: { filters: { sentiment: (row, value) => row.sentiment === sentimentOfDigit[value] } },
    hooks: {
      written(document: Document, _row: CollectionRow, attrs: Attributes) {
        const { created_utc_timestamp, updated_utc_timestamp, updated_by, dealTasktype_ids, ...answered } = document.taskOutcome as Document;
        return { taskOutcome: { ...answered, disabled: attrs.disabled === undefined ? "" : answered.disabled } };
      },
    },
  }).routes;
}
