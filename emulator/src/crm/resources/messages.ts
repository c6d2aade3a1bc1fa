import { collection, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { isEmail } from "./contacts";
import { userLink } from "./shared";
import { crmModule, table } from "../module";

export const messagesModule = crmModule({ tables: { messages: table<CollectionRow>() }, routes: messageRoutes });

function messageRoutes(crm: CrmContext): Route[] {
  return collection<CollectionRow>(crm, {
    singular: "message",
    plural: "messages",
    record: "Message",
    table: crm.tables.messages,
    createStatus: 201,
    fields: {
      name: {},
      fromname: { required: "The fromname field is required." },
      // The parameter list names the sender address email; the examples and answers fromemail.
      fromemail: {
        required: "The sender email was not provided.",
        alsoSentAs: ["email"],
        rule: (value) => (isEmail(String(value)) ? undefined : "The sender email is not valid."),
      },
      reply2: { required: "The reply2 field is required." },
      subject: {},
      preheader_text: {},
      text: {},
      html: {},
    },
    constants: {
      user: "1",
      userid: "1",
      ed_instanceid: "0",
      ed_version: "1",
      priority: "3",
      charset: "utf-8",
      encoding: "quoted-printable",
      format: "mime",
      htmlfetch: "",
      textfetch: "",
      hidden: "0",
      preview_mime: "",
      preview_data: "",
    },
    timestamps: { cdate: "created", mdate: "updated" },
    links: { user: userLink, hyperlinks: null },
  }).routes;
}
