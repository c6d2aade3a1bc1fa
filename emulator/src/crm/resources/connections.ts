import { attributesOf, fieldError, ok, unprocessable } from "../api";
import { matches } from "../collections";
import { collection, flag, type CollectionRow, type Field } from "../collection";
import type { CrmContext } from "../context";
import type { Document } from "../kinds";
import type { Route } from "../router";
import { crmModule, table } from "../module";

export const connectionsModule = crmModule({ tables: { connections: table<CollectionRow>() }, routes: connectionRoutes });

const required = (name: string): Field => ({ required: `The ${name} field is required.` });

/**
 * Connections to external services (/connections): service, externalid, name, logoUrl and
 * linkUrl, all five required on create; isInternal made by the service (0); status (1
 * connected, 0 error) and syncStatus (1 running, 0 stopped) written by an update only;
 * lastSync null, as the service sets it, never the API. Answered as the reference's list and
 * update examples do ("0"/"1" strings). The create answers as its example: isInternal the
 * number 0, and no status, syncStatus or lastSync. The reference's GET example is that
 * create example again; the emulator's read answers the whole connection, as the list does.
 * The reference gives no refusal but a 400 {}: a missing field is the service's 422
 * field_missing; a second connection of one service and external id is refused 422
 * duplicate, as the emulator's other links between an account and something else are; an
 * unknown id is the 404 {message} of the other collections. The list takes
 * filters[service] and filters[externalid], pages by limit/offset.
 */
function connectionRoutes(crm: CrmContext): Route[] {
  const { connections } = crm.tables;
  const connection = collection<CollectionRow>(crm, {
    singular: "connection",
    plural: "connections",
    record: "Connection",
    table: connections,
    createStatus: 200,
    operations: ["list", "read", "update", "delete"],
    fields: {
      service: required("service"),
      externalid: required("externalid"),
      name: required("name"),
      isInternal: { form: flag, generated: true, default: 0 },
      status: { form: flag, default: 1 },
      syncStatus: { form: flag, default: 0 },
      logoUrl: required("logoUrl"),
      linkUrl: required("linkUrl"),
    },
    constants: { lastSync: null },
    timestamps: { cdate: "created", udate: "updated" },
    links: { customers: null },
    list: { filters: { service: matches("service"), externalid: matches("externalid") } },
    hooks: {
      check(draft, existing) {
        const same = (row: CollectionRow) =>
          String(row.service).toLowerCase() === String(draft.service).toLowerCase() && String(row.externalid) === String(draft.externalid);
        if (connections.find((row) => row.id !== existing?.id && same(row))) {
          throw unprocessable(fieldError("duplicate", "externalid", `A ${draft.service} connection with the external id ${draft.externalid} already exists.`));
        }
      },
    },
  });
  // The create takes the five members its reference lists; status and syncStatus are the update's (other members are ignored, as the service ignores them).
  const create: Route = {
    method: "POST",
    pattern: "/connections",
    handle: (req) => {
      const { status: _status, syncStatus: _syncStatus, ...attrs } = attributesOf(req, "connection");
      const row = connection.create(attrs);
      const { status, syncStatus, lastSync, ...answered } = crm.kinds.one(req, connection.kind, row).connection as Document;
      return ok({ connection: { ...answered, isInternal: Number(row.isInternal) } });
    },
  };
  return [create, ...connection.routes];
}
