import { randomBytes } from "node:crypto";
import { attributesOf, fieldError, flagOf, ok, orNoResult, requiredString, unprocessable, type Attributes } from "../api";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { deleteRoute, linksOf, listRoute, readRoute } from "./shared";
import type { CalendarRow } from "../state";
import { isoTimestamp } from "../time";

const CALENDAR_TYPES = ["All", "Deals", "Contacts"];

export function calendarRoutes(crm: CrmContext): Route[] {
  const { calendars } = crm.tables;

  const kind = crm.kinds.register<CalendarRow>({
    singular: "calendar",
    plural: "calendars",
    present: (row, req) => ({
      userid: "1",
      title: row.title,
      type: row.type,
      token: row.token,
      notification: String(row.notification),
      cdate: isoTimestamp(row.createdMs),
      mdate: isoTimestamp(row.updatedMs),
      links: linksOf(req, "calendars", row.id, ["calendarRels", "calendarUsers"]),
      id: row.id,
    }),
  });

  const find = (id: string): CalendarRow => orNoResult(calendars.get(id), "Calendar", id);

  const typeOf = (attrs: Attributes): string => {
    const type = requiredString(attrs, "type", "The type field is required.");
    if (!CALENDAR_TYPES.includes(type)) throw unprocessable(fieldError("field_invalid", "type", `The type must be one of ${CALENDAR_TYPES.join(", ")}.`));
    return type;
  };

  /** Writes answer notification as the number sent; reads answer it as a "0"/"1" string. */
  const writeResponse = (req: Parameters<Route["handle"]>[0], row: CalendarRow) => {
    const document = crm.kinds.one(req, kind, row);
    (document.calendar as Attributes).notification = row.notification;
    return ok(document);
  };

  return [
    {
      method: "POST",
      pattern: "/calendars",
      handle: (req) => {
        const attrs = attributesOf(req, "calendar");
        const title = requiredString(attrs, "title", "The title field is required.");
        const type = typeOf(attrs);
        const now = crm.now();
        const row = calendars.insert({
          title,
          type,
          notification: flagOf(attrs.notification),
          token: randomBytes(16).toString("hex"),
          createdMs: now,
          updatedMs: now,
        });
        return writeResponse(req, row);
      },
    },
    listRoute(crm, kind, () => calendars.all()),
    readRoute(crm, kind, find),
    {
      method: "PUT",
      pattern: "/calendars/:id",
      handle: (req) => {
        const row = find(req.params.id);
        const attrs = attributesOf(req, "calendar");
        const title = attrs.title === undefined ? row.title : requiredString(attrs, "title", "The title field is required.");
        const type = attrs.type === undefined ? row.type : typeOf(attrs);
        const notification = attrs.notification === undefined ? row.notification : flagOf(attrs.notification);
        Object.assign(row, { title, type, notification, updatedMs: crm.now() });
        return writeResponse(req, row);
      },
    },
    deleteRoute(kind, find, (row) => calendars.delete(row.id)),
  ];
}
