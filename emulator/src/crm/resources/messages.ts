import { attributesOf, created, fieldError, ok, optionalString, orNoResult, requiredString, unprocessable, type Attributes } from "../api";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { deleteRoute, linksOf, listRoute, readRoute } from "./shared";
import type { MessageRow } from "../state";
import { isoTimestamp } from "../time";
import { isEmail } from "./contacts";

const TEXT_FIELDS = ["name", "fromname", "reply2", "subject", "preheader_text", "text", "html"] as const;

export function messageRoutes(crm: CrmContext): Route[] {
  const { messages } = crm.tables;

  const kind = crm.kinds.register<MessageRow>({
    singular: "message",
    plural: "messages",
    present: (row, req) => ({
      user: "1",
      userid: "1",
      ed_instanceid: "0",
      ed_version: "1",
      cdate: isoTimestamp(row.createdMs),
      mdate: isoTimestamp(row.updatedMs),
      name: row.name,
      fromname: row.fromname,
      fromemail: row.fromemail,
      reply2: row.reply2,
      priority: "3",
      charset: "utf-8",
      encoding: "quoted-printable",
      format: "mime",
      subject: row.subject,
      preheader_text: row.preheader_text,
      text: row.text,
      html: row.html,
      htmlfetch: "",
      textfetch: "",
      hidden: "0",
      preview_mime: "",
      preview_data: "",
      links: linksOf(req, "messages", row.id, ["user", "hyperlinks"]),
      id: row.id,
    }),
  });

  const find = (id: string): MessageRow => orNoResult(messages.get(id), "Message", id);

  /** The parameter list names the sender address email; the examples and responses fromemail. */
  const senderField = (attrs: Attributes): "fromemail" | "email" => (attrs.fromemail !== undefined ? "fromemail" : "email");

  const senderOf = (attrs: Attributes): string | undefined => {
    const name = senderField(attrs);
    const email = optionalString(attrs, name);
    if (email !== undefined && !isEmail(email)) throw unprocessable(fieldError("field_invalid", name, "The sender email is not valid."));
    return email;
  };

  const changes = (attrs: Attributes): Partial<MessageRow> => {
    const changed: Partial<MessageRow> = {};
    for (const field of TEXT_FIELDS) {
      const value = optionalString(attrs, field);
      if (value !== undefined) changed[field] = value;
    }
    const fromemail = senderOf(attrs);
    if (fromemail !== undefined) changed.fromemail = fromemail;
    return changed;
  };

  return [
    {
      method: "POST",
      pattern: "/messages",
      handle: (req) => {
        const attrs = attributesOf(req, "message");
        requiredString(attrs, "fromname", "The fromname field is required.");
        requiredString(attrs, senderField(attrs), "The sender email was not provided.");
        requiredString(attrs, "reply2", "The reply2 field is required.");
        const now = crm.now();
        const row = messages.insert({
          name: "",
          fromname: "",
          fromemail: "",
          reply2: "",
          subject: "",
          preheader_text: "",
          text: "",
          html: "",
          ...changes(attrs),
          createdMs: now,
          updatedMs: now,
        });
        return created(crm.kinds.one(req, kind, row));
      },
    },
    listRoute(crm, kind, () => messages.all()),
    readRoute(crm, kind, find),
    {
      method: "PUT",
      pattern: "/messages/:id",
      handle: (req) => {
        const row = find(req.params.id);
        Object.assign(row, changes(attributesOf(req, "message")), { updatedMs: crm.now() });
        return ok(crm.kinds.one(req, kind, row));
      },
    },
    deleteRoute(kind, find, (row) => messages.delete(row.id)),
  ];
}
