import { matches } from "../collections";
import { collection, flag, id, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { userLink } from "./shared";
import { crmModule, table } from "../module";

export const listsModule = crmModule({ tables: { lists: table<CollectionRow>() }, routes: listRoutes });

/** Lists. The reference has no update of a list (no PUT /lists/{id}; REAL-WORLD.md says nothing of one): a PUT answers 405. */
function listRoutes(crm: CrmContext): Route[] {
  const { lists, addressLists, contactLists, fieldRels, listGroups } = crm.tables;
  return collection<CollectionRow>(crm, {
    singular: "list",
    plural: "lists",
    record: "_List",
    table: lists,
    createStatus: 200,
    operations: ["create", "list", "read", "delete"],
    fields: {
      name: { required: "The name field is required." },
      stringid: { required: "The stringid field is required." },
      sender_url: { required: "The sender_url field is required." },
      sender_reminder: { required: "The sender_reminder field is required." },
      send_last_broadcast: { form: flag, default: 0 },
      carboncopy: { default: null },
      subscription_notify: { default: null },
      unsubscription_notify: { default: null },
      user: { form: id, default: "1" },
    },
    constants: LIST_SETTINGS,
    hooks: {
      members: (row) => ({ userid: row.user }),
      removed(row) {
        addressLists.deleteWhere((a) => a.targetId === row.id);
        contactLists.deleteWhere((cl) => cl.list === row.id);
        fieldRels.deleteWhere((rel) => rel.relid === row.id);
        listGroups.deleteWhere((lg) => lg.list === row.id);
      },
    },
    timestamps: { cdate: "created", udate: "updated" },
    links: {
      contactGoalLists: null,
      user: userLink,
      addressLists: (list, req) => ({
        addressLists: addressLists.where((a) => a.targetId === list.id).map((a) => crm.kinds.get("addressLists").present(a, req, "list")),
      }),
    },
    list: { filters: { name: matches("name") } },
  }).routes;
}

/** The settings the reference's list examples carry that the API does not write. */
const LIST_SETTINGS = {
  p_use_tracking: "1",
  p_use_analytics_read: "0",
  p_use_analytics_link: "0",
  p_use_twitter: "0",
  p_use_facebook: "0",
  p_embed_image: "1",
  p_use_captcha: "1",
  private: "0",
  analytics_domains: null,
  analytics_source: "",
  analytics_ua: "",
  twitter_token: "",
  twitter_token_secret: "",
  facebook_session: null,
  require_name: "0",
  get_unsubscribe_reason: "0",
  to_name: "Subscriber",
  optinoptout: "1",
  sender_name: "",
  sender_addr1: "",
  sender_addr2: "",
  sender_city: "",
  sender_state: "",
  sender_zip: "",
  sender_country: "",
  sender_phone: "",
  fulladdress: "",
  optinmessageid: "0",
  optoutconf: "0",
  deletestamp: null,
};
