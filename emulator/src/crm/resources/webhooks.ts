import { fieldError, ok, unprocessable } from "../api";
import { equals, matches } from "../collections";
import { collection, id, texts, type CollectionRow, type Stored } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { crmModule, table } from "../module";

export const webhooksModule = crmModule({ tables: { webhooks: table<CollectionRow>() }, routes: webhookRoutes });

/** GET /webhook/events, as the reference lists them. */
export const WEBHOOK_EVENTS = [
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
export const WEBHOOK_SOURCES = ["public", "admin", "api", "system"];

/** Each of the list in the allowed ones, or the message naming those outside. */
const within = (allowed: string[], what: string) => (value: Stored) => {
  const outside = (value as string[]).filter((item) => !allowed.includes(item));
  return outside.length > 0 ? `Unknown ${what}s: ${outside.join(", ")}; allowed: ${allowed.join(", ")}.` : undefined;
};

function webhookRoutes(crm: CrmContext): Route[] {
  const { lists } = crm.tables;
  const webhooks = collection<CollectionRow>(crm, {
    singular: "webhook",
    plural: "webhooks",
    record: "Webhook",
    table: crm.tables.webhooks,
    createStatus: 201,
    fields: {
      name: { required: "The name field is required." },
      url: {
        required: "The url field is required.",
        rule: (value) => (/^https?:\/\/[^\s/]+/i.test(String(value)) ? undefined : "The url must be an http or https URL."),
      },
      events: { form: texts, required: "The events field is required.", rule: within(WEBHOOK_EVENTS, "event") },
      sources: { form: texts, required: "The sources field is required.", rule: within(WEBHOOK_SOURCES, "source") },
      listid: { form: id, default: "0" },
    },
    timestamps: { cdate: "created" },
    links: {},
    list: { filters: { name: matches("name"), url: matches("url"), listid: equals("listid") } },
    hooks: {
      check(draft) {
        if (draft.listid !== "0" && !lists.get(String(draft.listid)))
          throw unprocessable(fieldError("field_invalid", "listid", `No list with id ${draft.listid}.`));
      },
    },
  });
  return [
    ...webhooks.routes,
    { method: "GET", pattern: "/webhook/events", handle: () => ok({ webhookEvents: WEBHOOK_EVENTS, meta: { total: WEBHOOK_EVENTS.length } }) },
  ];
}
