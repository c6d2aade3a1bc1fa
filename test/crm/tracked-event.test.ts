import * as provider from "../../provider/crm/tracked-event";
import { describeNameKeyed } from "../support/name-keyed-suite";

describeNameKeyed(provider, {
  type: "crm.TrackedEvent",
  kind: "tracked-event",
  path: "/eventTrackingEvents",
  member: "eventTrackingEvent",
  // Spaces and a #, which a delete's path must encode (else the # would end the path).
  names: ["Signed up #2", "Watched demo", "Asked for a quote"],
  builtIn: ["__pagevisit", "__redir"],
  badInputs: [
    [{}, "name", /^crm\.TrackedEvent: name is required: the event's name/],
    [{ name: " Signed up" }, "name", /name must not start or end with spaces/],
    [{ name: "a".repeat(256) }, "name", /name must be at most 255 characters/],
    [{ name: "Signed up/EU" }, "name", /name must not hold a slash: the service deletes an event by its name in the URL/],
    [{ name: "__pagevisit" }, "name", /^crm\.TrackedEvent "__pagevisit": name must not start with __: such names are the service's own events/],
  ],
});
