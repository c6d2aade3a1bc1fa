import { randomBytes } from "node:crypto";
import { collection, flag, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Attributes } from "../api";
import type { Route } from "../router";
import { crmModule, table } from "../module";

export const calendarsModule = crmModule({ tables: { calendars: table<CollectionRow>() }, routes: calendarRoutes });

function calendarRoutes(crm: CrmContext): Route[] {
  return collection<CollectionRow>(crm, {
    singular: "calendar",
    plural: "calendars",
    record: "Calendar",
    table: crm.tables.calendars,
    createStatus: 200,
    fields: {
      title: { required: "The title field is required." },
      type: { required: "The type field is required.", allowed: ["All", "Deals", "Contacts"] },
      notification: { form: flag, default: 0 },
      token: { generated: true, default: () => randomBytes(16).toString("hex") },
    },
    constants: { userid: "1" },
    timestamps: { cdate: "created", mdate: "updated" },
    links: { calendarRels: null, calendarUsers: null },
    hooks: {
      // Writes answer notification as the number sent; reads answer it as a "0"/"1" string.
      written: (document, row) => ({ ...document, calendar: { ...(document.calendar as Attributes), notification: row.notification } }),
    },
  }).routes;
}
