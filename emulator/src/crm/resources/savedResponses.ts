import { fieldError, unprocessable } from "../api";
import { collection, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { userLink } from "./shared";
import { crmModule, table } from "../module";

export const savedResponsesModule = crmModule({ tables: { savedResponses: table<CollectionRow>() }, routes: savedResponseRoutes });

function savedResponseRoutes(crm: CrmContext): Route[] {
  return collection<CollectionRow>(crm, {
    singular: "savedResponse",
    plural: "savedResponses",
    record: "SavedResponse",
    table: crm.tables.savedResponses,
    createStatus: 201,
    fields: { title: { required: "This field is required." }, subject: {}, body: {} },
    constants: { ldate: null, last_sent_user_id: null },
    timestamps: { cdate: "created", mdate: "updated" },
    links: { user: userLink, savedResponseCategorySavedResponse: null },
    hooks: {
      check(draft) {
        if (String(draft.subject).trim() === "" && String(draft.body).trim() === "") {
          const title = "Either a subject or a body needs to be provided.";
          throw unprocessable(fieldError("field_invalid", "subject", title), fieldError("field_invalid", "body", title));
        }
      },
    },
  }).routes;
}
