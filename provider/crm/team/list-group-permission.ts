// crm.ListGroupPermission: a list's permission for a user group, which lets the group's users
// use the list (the reference's POST /listGroups). The reference makes one and shows them
// only in links: the group's `listGroups`, and the permission's own `group` and `list`. So a
// permission is read through its `group` link and that group's `listGroups`, is not
// exported (nothing lists them), every change replaces it, and a destroy leaves it in the
// service with a warning. The rest is unlistedKind's (see ../crud/plain-kind.ts).

import { labelByIds } from "../../kit/check-diff";
import { input } from "../../kit/declaration";
import { serviceId } from "../../kit/inputs";
import { unlistedKind } from "../crud/plain-kind";
import type { CrmClient } from "../service/client";
import type { ServiceObject } from "../service/collection";
import { idOf } from "../service/normalize";
import * as wire from "../service/wire-forms";

/** The permissions of group `groupId`, as its `listGroups` link answers them; undefined when the group is gone. */
async function permissionsOf(client: CrmClient, groupId: string): Promise<ServiceObject[] | undefined> {
  const response = await client.call({ method: "GET", path: `/groups/${groupId}/listGroups` }, { accept: [403, 404] });
  if (response.status >= 400) return undefined;
  return (response.body as { listGroups?: ServiceObject[] }).listGroups ?? [];
}

/** The permission `id`, through its `group` link and that group's `listGroups`; undefined when it or its group is gone. */
async function permissionAt(client: CrmClient, id: string): Promise<ServiceObject | undefined> {
  const response = await client.call({ method: "GET", path: `/listGroups/${id}/group` }, { accept: [403, 404] });
  const groupId = response.status < 400 ? idOf((response.body as { group?: { id?: unknown } | null }).group?.id) : null;
  if (!groupId) return undefined;
  return (await permissionsOf(client, groupId))?.find((permission) => String(permission.id) === id);
}

export const listGroupPermission = unlistedKind({
  description:
    "A list's permission for a user group, which lets the group's users use the list; every change replaces it, and a destroy leaves it in the service (the service cannot delete one).",
  name: "ListGroupPermission",
  noun: "listGroup",
  namedBy: "listId",
  inputs: {
    listId: input(serviceId("a list"), "The id of the list (a `crm.List`'s `id`).", {
      refersTo: "list",
      replaceOnChanges: true,
      wire: wire.id({ request: "listid", answer: "list" }),
    }),
    groupId: input(serviceId("a user group"), "The id of the user group allowed to use the list (a `crm.UserGroup`'s `id`).", {
      refersTo: "user-group",
      replaceOnChanges: true,
      wire: wire.id({ request: "groupid", answer: "group" }),
    }),
  },
  kind: () => ({
    label: labelByIds("crm.ListGroupPermission", ["listId", "groupId"], ([list, group]) => `of list ${list} for group ${group}`),
    readOne: permissionAt,
    // No list of its own: a read is never answered from pages, and a lost create is found among its group's permissions.
    collection: undefined,
    sameContent: undefined,
    findCreated: async (client, inputs) =>
      (await permissionsOf(client, String(inputs.groupId)))?.find((permission) => idOf(permission.list) === String(inputs.listId)),
  }),
  undeletable: true,
});
