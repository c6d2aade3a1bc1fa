// crm.DealRole: a role a contact plays in a deal (the reference's /dealRoles). The service
// lists roles and makes and deletes them but neither reads one alone nor updates one: a role
// is read from the list, and a new title replaces it. The rest is plainKind's (see ../crud/plain-kind.ts).

import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { nameText } from "../../kit/inputs";
import * as wire from "../service/wire-forms";

export const dealRole = plainKind({
  description: "A role a contact plays in the account's deals, such as Finance; a new title replaces it (the service cannot update a role).",
  name: "DealRole",
  noun: "dealRole",
  namedBy: "title",
  inputs: {
    title: input(nameText("the role's title", 255), "The role's title, such as `Finance`, unique among the roles.", {
      replaceOnChanges: true,
      wire: wire.text(),
    }),
  },
  created: { member: "created_timestamp" },
  // Declared once per deployment: the service refuses a second role of a title (case aside).
  uniqueName: { field: "title", what: "deal role" },
  builtIns: { field: "title", names: ["Decision Maker", "Contributor"], what: "the deal roles every account comes with" },
  kind: () => ({ listedOnly: true, bareBody: true }),
});
