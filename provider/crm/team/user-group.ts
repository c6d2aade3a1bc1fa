// crm.UserGroup: a group of the account's users, and what its users may do (the service's
// `pg*` flags, declared as one typed object, `permissions`). Its declaration; the rest is
// plainKind's (see ../crud/plain-kind.ts).

import { z } from "zod";
import { plainKind } from "../crud/plain-kind";
import { input, inputObject } from "../../kit/declaration";
import { nameText, optionalText } from "../../kit/inputs";
import { flagOf } from "../service/normalize";
import * as wire from "../service/wire-forms";

/** Each permission: its member in the service's group, and what it allows (the reference's words). */
const permissionFlags = {
  listAdd: ["pgListAdd", "adding lists"],
  listEdit: ["pgListEdit", "editing lists"],
  listDelete: ["pgListDelete", "deleting lists"],
  listHeaders: ["pgListHeaders", "managing custom email headers"],
  listEmailAccount: ["pgListEmailaccount", "managing Unsubscribe By Email"],
  listBounce: ["pgListBounce", "accessing list bounce settings"],
  messageAdd: ["pgMessageAdd", "adding messages"],
  messageEdit: ["pgMessageEdit", "editing messages"],
  messageDelete: ["pgMessageDelete", "deleting messages"],
  messageSend: ["pgMessageSend", "sending messages"],
  contactAdd: ["pgContactAdd", "adding contacts"],
  contactEdit: ["pgContactEdit", "editing contacts"],
  contactDelete: ["pgContactDelete", "deleting contacts"],
  contactMerge: ["pgContactMerge", "merging contacts"],
  contactImport: ["pgContactImport", "importing contacts"],
  contactApprove: ["pgContactApprove", "approving contacts"],
  contactExport: ["pgContactExport", "exporting contacts"],
  contactSync: ["pgContactSync", "syncing contacts"],
  contactFilters: ["pgContactFilters", "managing contact list segments"],
  contactActions: ["pgContactActions", "managing contact actions"],
  contactFields: ["pgContactFields", "managing contact custom fields"],
  userAdd: ["pg_user_add", "adding users"],
  userEdit: ["pg_user_edit", "editing users"],
  userDelete: ["pg_user_delete", "deleting users"],
  groupAdd: ["pgGroupAdd", "adding groups"],
  groupEdit: ["pgGroupEdit", "editing groups"],
  groupDelete: ["pgGroupDelete", "deleting groups"],
  templateAdd: ["pgTemplateAdd", "adding templates"],
  templateEdit: ["pgTemplateEdit", "editing templates"],
  templateDelete: ["pgTemplateDelete", "deleting templates"],
  personalizationAdd: ["pgPersonalizationAdd", "adding personalization tags"],
  personalizationEdit: ["pgPersonalizationEdit", "editing personalization tags"],
  personalizationDelete: ["pgPersonalizationDelete", "deleting personalization tags"],
  automationManage: ["pgAutomationManage", "managing automations"],
  formEdit: ["pgFormEdit", "editing subscription forms"],
  reportsCampaign: ["pgReportsCampaign", "viewing campaign reports"],
  reportsList: ["pgReportsList", "viewing list reports"],
  reportsUser: ["pgReportsUser", "viewing user reports"],
  reportsTrend: ["pgReportsTrend", "viewing trend reports"],
  deal: ["pgDeal", "viewing deals"],
  dealDelete: ["pgDealDelete", "deleting deals"],
  dealReassign: ["pgDealReassign", "reassigning deals"],
  dealGroupAdd: ["pgDealGroupAdd", "adding pipelines"],
  dealGroupEdit: ["pgDealGroupEdit", "editing pipelines"],
  dealGroupDelete: ["pgDealGroupDelete", "deleting pipelines"],
  savedResponsesManage: ["pgSavedResponsesManage", "managing saved responses"],
  tagManage: ["pgTagManage", "managing tags"],
} as const;
type Permission = keyof typeof permissionFlags;
const permissionNames = Object.keys(permissionFlags) as Permission[];

const flagInput = z.boolean({ invalid_type_error: "must be true or false" }).default(false);

const permissions = inputObject(
  "UserGroupPermissions",
  "What the group's users may do: each permission true or false (unset: false).",
  Object.fromEntries(permissionNames.map((name) => [name, input(flagInput, `Permission for ${permissionFlags[name][1]}.`)])) as Record<
    Permission,
    ReturnType<typeof input<typeof flagInput>>
  >,
  "the permissions",
).default({});

export const userGroup = plainKind({
  description: "A group of users, and what its users may do.",
  name: "UserGroup",
  noun: "group",
  namedBy: "title",
  exported: { lookup: "getUserGroup" },
  inputs: {
    title: input(nameText("the group's title", 255), "The group's title.", { wire: wire.text() }),
    description: input(optionalText(1000), 'The description. Removing it, or setting it to "", clears it.', {
      wire: wire.optionalText({ request: "descript" }),
    }),
    permissions: input(permissions, "What the group's users may do; every permission left out is false.", {
      // Sent and answered as the group's own members, 0/1 in answers.
      wire: {
        spread: true,
        read: (_value, group) => Object.fromEntries(permissionNames.map((name) => [name, flagOf(group[permissionFlags[name][0]])])),
        send: (given) => Object.fromEntries(permissionNames.map((name) => [permissionFlags[name][0], (given as Record<Permission, boolean>)[name]])),
      },
    }),
    forceUnsubscribeLink: input(flagInput, "Whether every campaign of the group must hold an unsubscribe link.", {
      wire: wire.flag({ request: "unsubscribelink", answer: "unsubscribelink" }),
    }),
    forceOptInConfirmation: input(flagInput, "Whether the group's forms must confirm an opt-in.", {
      wire: wire.flag({ request: "optinconfirm", answer: "optinconfirm" }),
    }),
  },
  // Group 3, which the branding's groupid names as "always 3".
  builtIns: { field: "title", names: ["Admin"], what: "the account's admins' group (group 3), which every account comes with" },
  // A create's answer holds the title and id only: the group is read back.
  kind: () => ({ readBackAfterWrite: true }),
  // A group tells when it was made in sdate.
  created: { member: "sdate" },
});
