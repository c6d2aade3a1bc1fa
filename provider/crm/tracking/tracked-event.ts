// crm.TrackedEvent: an event name event tracking accepts (/eventTrackingEvents), known by the
// name alone and deleted by it (see ../crud/name-keyed.ts).

import { input } from "../../kit/declaration";
import { nameText } from "../../kit/inputs";
import { nameKeyed } from "../crud/name-keyed";

/** The service's own events, listed beside the account's (`__pagevisit`, `__redir` in the reference's example). */
const builtIn = (name: string) => name.startsWith("__");

export const trackedEvent = nameKeyed({
  description: "An event name event tracking accepts.",
  name: "TrackedEvent",
  member: "eventTrackingEvent",
  what: "tracked event",
  named: input(
    nameText("the event's name", 255)
      // The delete names the event in the URL's path, where a slash would be read as another segment.
      .refine((name) => !name.includes("/"), "must not hold a slash: the service deletes an event by its name in the URL")
      .refine((name) => !builtIn(name), "must not start with __: such names are the service's own events (__pagevisit, __redir)"),
    "The event's name, as the site's tracking code sends it (spaces allowed): its id. A new name replaces the event.",
  ),
  builtIn,
});
