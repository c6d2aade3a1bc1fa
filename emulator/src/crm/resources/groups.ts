import { collection, flag, type CollectionRow, type Field } from "../collection";
import type { CrmContext } from "../context";
import type { Document } from "../kinds";
import type { Route } from "../router";
import { matches } from "../collections";

/** The group's permission flags, as the reference's request and answer name them (pgTagManage is taken by the create only, and answered). */
const PERMISSIONS = [
  "pgListAdd", "pgListEdit", "pgListDelete", "pgListHeaders", "pgListEmailaccount", "pgListBounce", "pgMessageAdd", "pgMessageEdit", "pgMessageDelete",
  "pgMessageSend", "pgContactAdd", "pgContactEdit", "pgContactDelete", "pgContactMerge", "pgContactImport", "pgContactApprove", "pgContactExport",
  "pgContactSync", "pgContactFilters", "pgContactActions", "pgContactFields", "pg_user_add", "pg_user_edit", "pg_user_delete", "pgGroupAdd", "pgGroupEdit",
  "pgGroupDelete", "pgTemplateAdd", "pgTemplateEdit", "pgTemplateDelete", "pgPersonalizationAdd", "pgPersonalizationEdit", "pgPersonalizationDelete",
  "pgAutomationManage", "pgFormEdit", "pgReportsCampaign", "pgReportsList", "pgReportsUser", "pgReportsTrend", "pgStartupReports", "pgStartupGettingstarted",
  "pgDeal", "pgDealDelete", "pgDealReassign", "pgDealGroupAdd", "pgDealGroupEdit", "pgDealGroupDelete", "pgSavedResponsesManage", "pgTagManage",
];
const off: Field = { form: flag, default: 0 };

/**
 * User groups (/groups): a title, a description, the policy flags and the pg* permissions,
 * each stored 0/1 and answered "0"/"1". A create or an update answers only the title,
 * p_admin, the links and the id, as the reference's examples do.
 */
export function groupRoutes(crm: CrmContext): Route[] {
  return collection<CollectionRow>(crm, {
    singular: "group",
    plural: "groups",
    record: "Group",
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
    links: { userGroups: null, groupLimit: null, dealGroupGroups: null, listGroups: null, addressGroups: null, automationGroups: null },
    list: { filters: { title: matches("title") } },
    hooks: {
      written: (document) => {
        const { title, links, id } = document.group as Document;
        return { group: { title, p_admin: 1, links, id } };
      },
    },
  }).routes;
}
