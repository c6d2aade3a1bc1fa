// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.CalendarFeed resources require (a path never renamed); its definition is ./sales/calendar-feed.ts.
import { dynamicDoor } from "../dynamic/door";
import { calendarFeed } from "./sales/calendar-feed";
import type { CalendarFeedArgs, CalendarFeedOutputs } from "./generated-types";

export type { CalendarFeedArgs, CalendarFeedOutputs } from "./generated-types";
export const {
  declaration,
  inputSchema,
  core,
  exported,
  inputsDeclaring,
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
  configure,
  resourceClass,
} = dynamicDoor(module, calendarFeed);
export { remove as delete };

export interface CalendarFeed extends CalendarFeedOutputs {}

/** A calendar feed of the account's tasks, for calendar clients that subscribe to feeds. */
export class CalendarFeed extends resourceClass<CalendarFeedArgs>() {}
