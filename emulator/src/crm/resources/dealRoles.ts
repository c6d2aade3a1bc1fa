import { collection, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { crmModule, table } from "../module";

/** The roles contacts play in deals (the reference's /dealRoles). */
export const dealRolesModule = crmModule({ tables: { dealRoles: table<CollectionRow>() }, routes: dealRoleRoutes });

/**
 * A deal role: the reference lists, creates and deletes roles, and neither reads one alone nor
 * updates one. Its create's request carries `title` at the top of the body, not under `dealRole`,
 * and its answer (200) holds the role under `dealRole`. The documents give no uniqueness rule, so
 * none is enforced.
 */
function dealRoleRoutes(crm: CrmContext): Route[] {
  return collection<CollectionRow>(crm, {
    singular: "dealRole",
    plural: "dealRoles",
    record: "DealRole",
    table: crm.tables.dealRoles,
    createStatus: 200,
    operations: ["create", "list", "delete"],
    bareBody: true,
    fields: { title: { required: "The title field is required." } },
    timestamps: { created_timestamp: "created", updated_timestamp: "updated" },
    links: { contactDeals: null },
  }).routes;
}
