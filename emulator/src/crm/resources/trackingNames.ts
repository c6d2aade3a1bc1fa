import { attributesOf, fieldError, noResultFound, optionalString, unprocessable } from "../api";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import type { ServiceResponse } from "../../service";
import type { Row } from "../store";
import { crmModule, table } from "../module";

/** A tracking name: an allowed domain, a tracked event. */
export interface NameRow extends Row {
  name: string;
}

export const trackingNamesModule = crmModule({
  tables: { siteTrackingDomains: table<NameRow>(), eventTrackingEvents: table<NameRow>() },
  routes: trackingNameRoutes,
});

/**
 * The tracking names of the reference: the domains site tracking is allowed on
 * (/siteTrackingDomains) and the events event tracking accepts (/eventTrackingEvents). Each
 * object is only its `name`, which is also how the API names it: GET /<plural> lists
 * `{<plural>: [{name}], meta: {total}}` (total a number, as the reference's example), POST
 * /<plural> takes `{<singular>: {name}}` and answers it, DELETE /<plural>/{name} removes it.
 * None has a read or an update of its own, and neither depends on its switch being on. What
 * the reference leaves open is answered as the service's other collections answer it: a
 * missing name 422 field_missing, a name held already 422 duplicate, an unknown one 404.
 * Both lists start empty: the service's own events of the reference's example (`__pagevisit`,
 * `__redir`) are made by a test that wants them, like any other.
 */
const TRACKING_NAMES = {
  siteTrackingDomains: { singular: "siteTrackingDomain", record: "SiteTrackingDomain", createStatus: 200, deleted: { status: 204, body: undefined } },
  eventTrackingEvents: { singular: "eventTrackingEvent", record: "EventTrackingEvent", createStatus: 201, deleted: { status: 200, body: {} } },
} as const satisfies Record<string, { singular: string; record: string; createStatus: number; deleted: ServiceResponse }>;

function trackingNameRoutes(crm: CrmContext): Route[] {
  return Object.entries(TRACKING_NAMES).flatMap(([plural, served]): Route[] => {
    const table = crm.tables[plural as keyof typeof TRACKING_NAMES];
    const kind = crm.kinds.register<NameRow>({ singular: served.singular, plural, present: (row) => ({ name: row.name }) });
    const named = (name: string) => table.find((row) => row.name === name);
    return [
      { method: "GET", pattern: `/${plural}`, handle: (req) => ({ status: 200, body: crm.kinds.list(req, kind, table.all(), { totalAsNumber: true }) }) },
      {
        method: "POST",
        pattern: `/${plural}`,
        handle: (req) => {
          const name = optionalString(attributesOf(req, served.singular), "name")?.trim();
          if (!name) throw unprocessable(fieldError("field_missing", "name", "The name field is required."));
          if (named(name)) throw unprocessable(fieldError("duplicate", "name", `"${name}" already exists.`));
          return { status: served.createStatus, body: crm.kinds.one(req, kind, table.insert({ name })) };
        },
      },
      {
        method: "DELETE",
        pattern: `/${plural}/:name`,
        handle: (req) => {
          const row = named(req.params.name);
          if (!row) throw noResultFound(served.record, req.params.name);
          table.delete(row.id);
          return served.deleted;
        },
      },
    ];
  });
}
