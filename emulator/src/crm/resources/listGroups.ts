import { fieldError, unprocessable } from "../api";
import { collection, id, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Document } from "../kinds";
import type { Route } from "../router";
import { crmModule, table } from "../module";

/** Which user groups may use a list. */
export const listGroupsModule = crmModule({ tables: { listGroups: table<CollectionRow>() }, routes: listGroupRoutes });

/**
 * A list's permission for a user group (POST /listGroups {listGroup: {listid, groupid}}):
 * the reference has only the create, answered 201 {listGroup: {list, group, links, id}}; a
 * group's listGroups link shows them. The documents give no refusal but a 403; an unknown
 * list or group, or a pair held already, is refused as the service's other links are (422).
 */
function listGroupRoutes(crm: CrmContext): Route[] {
  const { lists, groups, listGroups } = crm.tables;
  return collection<CollectionRow>(crm, {
    singular: "listGroup",
    plural: "listGroups",
    record: "ListGroup",
    table: listGroups,
    createStatus: 201,
    operations: ["create"],
    fields: {
      list: { form: id, required: "The listid field is required.", alsoSentAs: ["listid"] },
      group: { form: id, required: "The groupid field is required.", alsoSentAs: ["groupid"] },
    },
    links: {
      list: (row, req) => crm.kinds.relatedOne(req, "lists", lists.get(String(row.list))),
      group: (row, req) => crm.kinds.relatedOne(req, "groups", groups.get(String(row.group))),
    },
    hooks: {
      check(draft) {
        if (!lists.get(String(draft.list))) throw unprocessable(fieldError("field_invalid", "listid", `No list with id ${draft.list}.`));
        if (!groups.get(String(draft.group))) throw unprocessable(fieldError("field_invalid", "groupid", `No group with id ${draft.group}.`));
        if (listGroups.find((row) => row.list === draft.list && row.group === draft.group)) {
          throw unprocessable(fieldError("duplicate", "groupid", `Group ${draft.group} has a permission for list ${draft.list} already.`));
        }
      },
      // The ids as numbers, as the reference's answer (and request) carry them.
      written(document) {
        const listGroup = document.listGroup as Document;
        return { listGroup: { ...listGroup, list: Number(listGroup.list), group: Number(listGroup.group) } };
      },
    },
  }).routes;
}
