// crm.Webhook: the service POSTs to a URL when one of its events happens, e.g. a
// contact subscribes. Its declaration; the rest is plainKind's (see ../crud/plain-kind.ts).

import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { requiredText, serviceId, setOf, webAddress } from "../../kit/inputs";
import * as wire from "../service/wire-forms";

/** The events GET /webhook/events lists (the reference's answer), checked before any request. */
export const webhookEvents: [string, ...string[]] = [
  "bounce",
  "click",
  "contact_tag_added",
  "contact_tag_removed",
  "deal_add",
  "deal_note_add",
  "deal_pipeline_add",
  "deal_stage_add",
  "deal_task_add",
  "deal_task_complete",
  "deal_tasktype_add",
  "deal_update",
  "forward",
  "list_add",
  "open",
  "reply",
  "sent",
  "share",
  "sms_reply",
  "sms_sent",
  "sms_unsub",
  "subscribe",
  "subscriber_note",
  "unsubscribe",
  "update",
];

/** Who causes an event: the reference's sources. */
const webhookSources: [string, ...string[]] = ["public", "admin", "api", "system"];

export const webhook = plainKind({
  description: "A webhook: a URL the service POSTs to when its events happen.",
  name: "Webhook",
  noun: "webhook",
  namedBy: "name",
  inputs: {
    name: input(requiredText("the webhook's name", 255), "The webhook's name.", { wire: wire.text() }),
    url: input(webAddress("the URL the service POSTs to"), "The http(s) URL the service POSTs each event to (https on port 443 only).", { wire: wire.text() }),
    events: input(setOf(webhookEvents, "events"), `The events that fire it, any of ${webhookEvents.join(", ")}; kept sorted.`, { wire: wire.wordSet() }),
    sources: input(setOf(webhookSources, "sources"), "Who causes the events that fire it: any of public, admin, api, system; kept sorted.", {
      wire: wire.wordSet(),
    }),
    listId: input(serviceId("a list").optional(), "The id of a list (a `crm.List`'s `id`): only events of that list fire it. Unset, events of every list do.", {
      refersTo: "list",
      wire: wire.idOrZero({ request: "listid" }),
    }),
  },
});
