import { bareAttributesOf, fieldError, unprocessable } from "../api";
import { collection, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { crmModule, table } from "../module";

export const dealRolesModule = crmModule({
  tables: { dealRoles: table<CollectionRow>() },
  routes: dealRoleRoutes,
  seed: ({ dealRoles }) => {
    for (const title of BUILT_IN_DEAL_ROLES) dealRoles.insert({ title, createdMs: BUILT_IN_AT, updatedMs: BUILT_IN_AT });
  },
});

/**
 * The roles every account starts with: the reference's list shows Decision Maker (1) and
 * Contributor (2), made in the same second, and its create answers the next one id 3.
 */
export const BUILT_IN_DEAL_ROLES = ["Decision Maker", "Contributor"] as const;
const BUILT_IN_AT = Date.parse("2019-09-10T13:01:49-05:00");

/**
 * Deal roles (/dealRoles): a title. The reference has the create (200), the list (search=
 * matching titles, paged by limit/offset) and the delete, no read of one and no update. It
 * leaves uniqueness and refusals open (400 {}): a missing title is the service's 422
 * field_missing, a title held already (case aside) 422 duplicate, as the deal task types do;
 * an unknown id the 404 {message} of the other collections. The built-in roles can be deleted,
 * as the built-in task types can.
 */
function dealRoleRoutes(crm: CrmContext): Route[] {
  const { dealRoles } = crm.tables;
  const roles = collection<CollectionRow>(crm, {
    singular: "dealRole",
    plural: "dealRoles",
    record: "DealRole",
    table: dealRoles,
    createStatus: 200,
    operations: ["list", "delete"],
    fields: { title: { required: "The title field is required." } },
    timestamps: { created_timestamp: "created", updated_timestamp: "updated" },
    links: { contactDeals: null },
    select: (req, rows) => {
      const search = (req.query.get("search") ?? "").toLowerCase();
      return rows.filter((row) => String(row.title).toLowerCase().includes(search));
    },
    hooks: {
      check(draft) {
        if (dealRoles.find((row) => String(row.title).toLowerCase() === String(draft.title).toLowerCase())) {
          throw unprocessable(fieldError("duplicate", "title", `A deal role titled "${draft.title}" already exists.`));
        }
      },
    },
  });
  const create: Route = {
    method: "POST",
    pattern: "/dealRoles",
    handle: (req) => {
      const attrs = bareAttributesOf(req, "dealRole");
      return roles.written(req, roles.create(attrs), attrs);
    },
  };
  return [create, ...roles.routes];
}
