import { fieldError, unprocessable } from "../api";
import { matches } from "../collections";
import { collection, flag, madeWithTheAccount, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { crmModule, table } from "../module";

export const dealTasktypesModule = crmModule({
  tables: { dealTasktypes: table<CollectionRow>() },
  routes: dealTasktypeRoutes,
  seed: ({ dealTasktypes }) => {
    for (const title of BUILT_IN_TASK_TYPES) dealTasktypes.insert({ title, status: 0, createdMs: madeWithTheAccount, updatedMs: madeWithTheAccount });
  },
});

/** The task types every account starts with, ids 1 to 4, active and without timestamps: the reference's list. */
export const BUILT_IN_TASK_TYPES = ["Call", "Email", "Lunch", "Meeting"] as const;

/** Deal task types (the reference's /dealTasktypes): a title unique among them, a status 0 active or 1 disabled. */
function dealTasktypeRoutes(crm: CrmContext): Route[] {
  const { dealTasktypes, tasktypeOutcomeRels } = crm.tables;
  return collection<CollectionRow>(crm, {
    singular: "dealTasktype",
    plural: "dealTasktypes",
    record: "DealTasktype",
    table: dealTasktypes,
    createStatus: 200,
    fields: {
      title: { required: "The title field is required." },
      status: { form: flag, default: 0 },
    },
    constants: { defduration: "0" },
    timestamps: { cdate: "created", udate: "updated" },
    links: {},
    list: { filters: { title: matches("title") } },
    hooks: {
      check(draft, existing) {
        const same = (row: CollectionRow) => String(row.title).toLowerCase() === String(draft.title).toLowerCase();
        if (dealTasktypes.find((row) => row.id !== existing?.id && same(row))) {
          throw unprocessable(fieldError("duplicate", "title", `A task type titled "${draft.title}" already exists.`));
        }
      },
      // A deleted task type no longer offers its outcomes.
      removed: (type) => tasktypeOutcomeRels.deleteWhere((rel) => rel.tasktype_id === type.id),
    },
  }).routes;
}
