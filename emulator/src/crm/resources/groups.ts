import { collection, flag, type CollectionRow, type Field } from "../collection";
import type { CrmContext } from "../context";
import type { Document } from "../kinds";
import type { Route } from "../router";
import { matches } from "../collections";
import type { Table } from "../store";
import { crmModule, table } from "../module";

export const groupsModule = crmModule({
  tables: { groups: table<CollectionRow>() },
  routes: groupRoutes,
  seed: ({ groups }) => seedAdminGroup(groups),
});

/** The group's permission flags, as the reference's request and answer name them (pgTagManage is taken by the create only, and answered). */
const PERMISSIONS = [
  "pgListAdd",
  "pgListEdit",
  "pgListDelete",
  "pgListHeaders",
  "pgListEmailaccount",
  "pgListBounce",
  "pgMessageAdd",
  "pgMessageEdit",
  "pgMessageDelete",
  "pgMessageSend",
  "pgContactAdd",
  "pgContactEdit",
  "pgContactDelete",
  "pgContactMerge",
  "pgContactImport",
  "pgContactApprove",
  "pgContactExport",
  "pgContactSync",
  "pgContactFilters",
  "pgContactActions",
  "pgContactFields",
  "pg_user_add",
  "pg_user_edit",
  "pg_user_delete",
  "pgGroupAdd",
  "pgGroupEdit",
  "pgGroupDelete",
  "pgTemplateAdd",
  "pgTemplateEdit",
  "pgTemplateDelete",
  "pgPersonalizationAdd",
  "pgPersonalizationEdit",
  "pgPersonalizationDelete",
  "pgAutomationManage",
  "pgFormEdit",
  "pgReportsCampaign",
  "pgReportsList",
  "pgReportsUser",
  "pgReportsTrend",
  "pgStartupReports",
  "pgStartupGettingstarted",
  "pgDeal",
  "pgDealDelete",
  "pgDealReassign",
  "pgDealGroupAdd",
  "pgDealGroupEdit",
  "pgDealGroupDelete",
  "pgSavedResponsesManage",
  "pgTagManage",
];
const off: Field = { form: flag, default: 0 };

/** The group of the account's admins, group 3 (the branding's groupid, "always 3"), as the reference's list of groups shows it. */
export const ADMIN_GROUP_ID = "3";

/**
 * Every account starts with its admins' group: the reference's group 3, "a group for admin
 * users", every permission on but managing contact actions. Its example carries a placeholder
 * title ("TEST TITLE"); the emulator calls it Admin.
 */
function seedAdminGroup(groups: Table<CollectionRow>): void {
  const granted = Object.fromEntries(PERMISSIONS.map((name) => [name, name === "pgContactActions" ? 0 : 1]));
  const created = Date.parse("2018-09-20T10:51:14-05:00");
  groups.put({
    id: ADMIN_GROUP_ID,
    title: "Admin",
    descript: "This is a group for admin users (people that can manage content)",
    unsubscribelink: 0,
    optinconfirm: 0,
    ...granted,
    reqApproval: 0,
    reqApproval1st: "2",
    reqApprovalNotify: "",
    socialdata: 0,
    createdMs: created,
    updatedMs: created,
  });
}

/**
 * User groups (/groups): a title, a description, the policy flags and the pg* permissions,
 * each stored 0/1 and answered "0"/"1". A create or an update answers only the title,
 * p_admin, the links and the id, as the reference's examples do; a read or an update of a
 * missing group answers 403 "No Result found for Group with id 8", as the reference's do.
 */
function groupRoutes(crm: CrmContext): Route[] {
  const { listGroups } = crm.tables;
  return collection<CollectionRow>(crm, {
    singular: "group",
    plural: "groups",
    record: "Group",
    missingStatus: 403,
    table: crm.tables.groups,
    createStatus: 200,
    fields: {
      title: { required: "The title field is required." },
      descript: {},
      unsubscribelink: off,
      optinconfirm: off,
      ...Object.fromEntries(PERMISSIONS.map((name) => [name, off])),
      reqApproval: off,
      reqApproval1st: { default: "0" },
      reqApprovalNotify: {},
      socialdata: off,
    },
    constants: { p_admin: "1" },
    timestamps: { sdate: "created" },
    links: {
      userGroups: null,
      groupLimit: null,
      dealGroupGroups: null,
      listGroups: (group, req) =>
        crm.kinds.relatedMany(
          req,
          "listGroups",
          listGroups.where((lg) => lg.group === group.id),
        ),
      addressGroups: null,
      automationGroups: null,
    },
    list: { filters: { title: matches("title") } },
    hooks: {
      removed: (group) => listGroups.deleteWhere((lg) => lg.group === group.id),
      written: (document) => {
        const { title, links, id } = document.group as Document;
        return { group: { title, p_admin: 1, links, id } };
      },
    },
  }).routes;
}
