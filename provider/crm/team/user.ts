// crm.User: a user of the account, in a user group. Its password is write-only: the service
// never answers it, so the state keeps what was last sent (encrypted: a secret input), a
// change of it is an update, and drift of it cannot be seen. The user's group is answered
// behind a link of its own (/users/{id}/userGroup). Its declaration and those reads; the rest
// is plainKind's (see ../crud/plain-kind.ts).

import { z } from "zod";
import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { givenText, nameText, requiredText, serviceId } from "../../kit/inputs";
import type { CrmClient } from "../service/client";
import { getObject } from "../service/collection";
import { idOf } from "../service/normalize";
import * as wire from "../service/wire-forms";

/** The user's group, which the user's own answer does not hold. */
async function groupOf(client: CrmClient, id: string) {
  const { userGroup } = (await client.call({ method: "GET", path: `/users/${id}/userGroup` })).body as { userGroup?: { groupid?: unknown } };
  return { userGroupId: idOf(userGroup?.groupid) ?? undefined };
}

export const user = plainKind({
  description: "A user of the account, in a user group, with a write-only password.",
  name: "User",
  noun: "user",
  namedBy: "username",
  inputs: {
    username: input(
      nameText("the user's login name", 255),
      "The user's login name, unique in the account. The service cannot change it: a change replaces the user.",
      {
        replaceOnChanges: true,
        wire: { ...wire.text(), createOnly: true },
      },
    ),
    email: input(
      givenText("the user's email address", z.string().max(255, "must be at most 255 characters").email("must be an email address")),
      "The user's email address.",
      { wire: wire.text() },
    ),
    firstName: input(requiredText("the user's first name", 255), "The user's first name.", { wire: wire.text() }),
    lastName: input(requiredText("the user's last name", 255), "The user's last name.", { wire: wire.text() }),
    groupId: input(serviceId("a user group"), "The id of the user's group (a `crm.UserGroup`'s `id`): what the user may do.", {
      refersTo: "user-group",
      wire: { ...wire.id({ request: "group", answer: "userGroupId" }) },
    }),
    password: input(
      z.string({ invalid_type_error: "must be a string" }).min(8, "must be at least 8 characters").max(255, "must be at most 255 characters").optional(),
      "The user's password: write-only and secret (encrypted in state, hidden in plans and logs). A change is an update; the service never answers it, so a password changed in the service is not seen. Unset: the stack leaves the user's password alone.",
      { secret: true, wire: { read: (sent) => sent ?? undefined } },
    ),
  },
  uniqueName: { field: "username", what: "username" },
  builtIns: { field: "username", names: ["admin"], what: "the users every account comes with (its admin, user 1)" },
  // The export reads each user's group as the resource does.
  exported: { related: (client, user) => groupOf(client, String(user.id)), lookup: "getUser" },
  deleteBeforeReplace: true,
  kind: () => ({
    // The group from its link; the password, never answered, as the stack last sent it.
    readRelated: async (client, id, declared) => ({ ...(await groupOf(client, id)), password: declared.password }),
    relatedForImport: groupOf,
    // A lost create is found by the username, unique in the account (the list answers neither group nor password).
    sameContent: undefined,
    findCreated: (client, inputs) => getObject(client, `/users/username/${encodeURIComponent(inputs.username)}`, "user"),
  }),
});
