import { collection, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { crmModule, table } from "../module";

/**
 * The account's settings, each a user's value for a key. The reference shows one, and only
 * through the update's answer: config 6, the admin's page size of the users' index, 20 (the
 * service's default page size). Every account starts with it; the reference shows no other.
 */
export const configsModule = crmModule({
  tables: { configs: table<CollectionRow>() },
  routes: configRoutes,
  seed: ({ configs }) => {
    const made = Date.parse("2018-08-08T13:38:38-05:00");
    configs.put({ id: "6", keyname: "pagination.users_index", section: "", item: "", userid: "1", val: "20", createdMs: made, updatedMs: made });
  },
});

/**
 * PUT /configs/{id}, the reference's only operation on settings: it gives no request body;
 * the emulator takes {config: {val}}, as the service's writes send their object, and ignores
 * the rest (which setting it is, whose), as the service ignores members it does not take. An
 * unknown id answers the reference's 404 "No Result found for ConfigResult with id 100". A
 * user's settings are listed behind its configs link (GET /users/{id}/configs).
 */
function configRoutes(crm: CrmContext): Route[] {
  const { users } = crm.tables;
  return collection<CollectionRow>(crm, {
    singular: "config",
    plural: "configs",
    record: "ConfigResult",
    table: crm.tables.configs,
    createStatus: 200,
    operations: ["update"],
    fields: {
      keyname: { generated: true },
      section: { generated: true },
      item: { generated: true },
      userid: { generated: true },
      val: {},
    },
    timestamps: { cdate: "created", udate: "updated" },
    links: { owner: (config, req) => crm.kinds.relatedOne(req, "users", users.get(String(config.userid))) },
    hooks: { members: (config) => ({ owner: config.userid }) },
  }).routes;
}
