// crm.CustomFieldGroupMember: a contact custom field's place in one of the account's field
// groups (the reference's /groupMembers). The service makes, reads, moves and removes a field's
// place, but lists none and has no call for the groups themselves: the group is given by its id,
// and the export cannot read these. The rest is unlistedKind's (see ../crud/plain-kind.ts).

import { unlistedKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { serviceId, wholeNumber } from "../../kit/inputs";
import * as wire from "../service/wire-forms";

export const customFieldGroupMember = unlistedKind({
  description: "A contact custom field's place in a field group of the account, at a position among the group's fields.",
  name: "CustomFieldGroupMember",
  noun: "groupMember",
  namedBy: "fieldId",
  inputs: {
    fieldId: input(serviceId("a contact custom field"), "The id of the contact custom field (a `crm.ContactCustomField`'s `id`).", {
      refersTo: "contact-custom-field",
      wire: wire.id({ request: "rel_id", answer: "rel_id" }),
    }),
    groupId: input(serviceId("a field group"), "The id of the field group, as the account's settings show it (the API has no call for the groups).", {
      wire: wire.id({ request: "group_id", answer: "group_id" }),
    }),
    order: input(wholeNumber(0).optional(), "The field's position in its group. Unset: the service puts it last, and the stack leaves its position alone.", {
      wire: wire.optionalNumber({ request: "ordernum", answer: "ordernum" }),
    }),
  },
  // No list: a lost create cannot be found by its content, and reads stay single.
  kind: () => ({ bareBody: true, serviceAssigned: ["order"], collection: undefined, sameContent: undefined }),
});
