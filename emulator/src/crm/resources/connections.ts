import { collection, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { crmModule, table } from "../module";

/** The account's connections to external services (the reference's /connections). */
export const connectionsModule = crmModule({ tables: { connections: table<CollectionRow>() }, routes: connectionRoutes });

/**
 * A connection: the reference's create requires service, externalid, name, logoUrl and linkUrl
 * and answers 200; its update takes any of them and the status flags. The documents give no
 * uniqueness rule, so none is enforced; an unknown id answers the service's 404.
 */
function connectionRoutes(crm: CrmContext): Route[] {
  const required = (name: string) => ({ required: `The ${name} field is required.` }) as const;
  return collection<CollectionRow>(crm, {
    singular: "connection",
    plural: "connections",
    record: "Connection",
    table: crm.tables.connections,
    createStatus: 200,
    fields: {
      service: required("service"),
      externalid: required("externalid"),
      name: required("name"),
      logoUrl: required("logoUrl"),
      linkUrl: required("linkUrl"),
      status: { default: "1" },
      syncStatus: { default: "0" },
    },
    // The reference's examples: a connection made through the API is not the service's own.
    constants: { isInternal: "0" },
    timestamps: { cdate: "created", udate: "updated" },
    links: { customers: null },
  }).routes;
}
