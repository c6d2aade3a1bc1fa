// crm.DealRole: a role a contact plays in a deal (the reference's /dealRoles). The service
// lists roles and makes and deletes them but neither reads one alone nor updates one: a role
// is read from the list, and a new title replaces it. The rest is plainKind's (see ../crud/plain-kind.ts).

import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { requiredText } from "../../kit/inputs";
import * as wire from "../service/wire-forms";

export const dealRole = plainKind({
  description: "A role a contact plays in the account's deals, such as Decision maker; a new title replaces it (the service cannot update a role).",
  name: "DealRole",
  noun: "dealRole",
  namedBy: "title",
  inputs: {
    title: input(requiredText("the role's title", 255), "The role's title, such as `Decision maker`.", { replaceOnChanges: true, wire: wire.text() }),
  },
  created: { member: "created_timestamp" },
  kind: () => ({ listedOnly: true, bareBody: true }),
});
