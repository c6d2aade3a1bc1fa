import { fieldError, ok, unprocessable, type CrmRequest } from "../api";
import { collection, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { sqlTimestamp } from "../time";
import { crmModule, table } from "../module";

export const personalizationsModule = crmModule({ tables: { personalizations: table<CollectionRow>() }, routes: personalizationRoutes });

/**
 * Personalization variables. `tag` is what messages write as %TAG%: stored and answered as
 * sent, unique regardless of case. Writes answer `listids` as sent; reads also give
 * `listIds`, `listNames` and `listsCount`, as the reference's examples do.
 */
function personalizationRoutes(crm: CrmContext): Route[] {
  const { personalizations, lists } = crm.tables;
  const listIdsOf = (row: CollectionRow) =>
    String(row.listids)
      .split(",")
      .map((listId) => listId.trim())
      .filter(Boolean);
  const variables = collection<CollectionRow>(crm, {
    singular: "personalization",
    plural: "personalizations",
    record: "Personalization",
    table: personalizations,
    createStatus: 200,
    fields: {
      tag: { required: "The tag field is required." },
      name: { required: "The name field is required." },
      format: { allowed: ["html", "text"], default: "html" },
      content: {},
      listids: {
        rule: (value) => (/^(\d+(,\d+)*)?$/.test(String(value).replace(/\s/g, "")) ? undefined : 'The listids must be list ids separated by commas ("2,3").'),
      },
    },
    constants: { userid: "1", created_by: null, updated_by: null },
    hooks: {
      check(draft, existing) {
        const tag = String(draft.tag).toLowerCase();
        if (personalizations.find((row) => row.id !== existing?.id && String(row.tag).toLowerCase() === tag)) {
          throw unprocessable(fieldError("duplicate", "tag", `A variable with the tag "${draft.tag}" already exists.`));
        }
      },
      members(row) {
        const ids = listIdsOf(row);
        return {
          listIds: ids.join(","),
          listNames: ids.map((listId) => lists.get(listId)?.name ?? "").join(","),
          listsCount: String(ids.length),
          created_timestamp: sqlTimestamp(row.createdMs),
          updated_timestamp: sqlTimestamp(row.updatedMs),
        };
      },
    },
  });
  // ids=1,2,3: the ones that exist are deleted; the reference's answer is the text "Delete successful".
  const bulkDelete = (req: CrmRequest) => {
    const ids = (req.query.get("ids") ?? "").split(",").map((variableId) => variableId.trim());
    personalizations.deleteWhere((row) => ids.includes(row.id));
    return ok("Delete successful");
  };
  return [{ method: "DELETE", pattern: "/personalizations/bulkdelete", handle: bulkDelete }, ...variables.routes];
}
