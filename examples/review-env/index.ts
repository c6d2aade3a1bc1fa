// A short-lived review environment per branch: an account, custom account fields and a
// calendar feed, each named after the branch, so that the review environments of many
// branches share one CRM account without colliding, and whoever looks at the CRM sees which
// branch an object belongs to. A stack deployed for another branch renames them in place.
// Settings: crm:apiUrl, crm:apiToken (secret); this program's `branch`, else the CI's
// branch variable (GITHUB_HEAD_REF on GitHub pull requests, else BRANCH_NAME).
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const config = new pulumi.Config();
const branch = config.get("branch") || process.env.GITHUB_HEAD_REF || process.env.BRANCH_NAME;
if (!branch) throw new Error("no branch: set it with `pulumi config set branch <name>`, or run in CI with GITHUB_HEAD_REF or BRANCH_NAME set");

/** The branch as a host name label: lower-case letters, digits and hyphens, at most 63 characters. */
const hostLabel = branch
  .toLowerCase()
  .replace(/[^a-z0-9]+/g, "-")
  .slice(0, 63)
  .replace(/^-+|-+$/g, "");

const account = new crm.Account("review", {
  name: `Review ${branch}`,
  accountUrl: `https://${hostLabel}.review.acme.example`,
});

const stage = new crm.AccountCustomField("stage", {
  fieldLabel: `Stage (${branch})`,
  fieldType: "dropdown",
  fieldOptions: ["Testing", "Approved", "Rejected"],
});
const reviewer = new crm.AccountCustomField("reviewer", {
  fieldLabel: `Reviewer (${branch})`,
  fieldType: "text",
});

new crm.AccountCustomFieldValue("review-stage", { accountId: account.id, customFieldId: stage.id, fieldValue: "Testing" });

const tasks = new crm.CalendarFeed("review-tasks", {
  title: `Review tasks (${branch})`,
  type: "All",
});

export const branchName = branch;
export const accountId = account.id;
export const accountName = account.name;
export const accountUrl = account.accountUrl;
export const customFieldLabels = [stage.fieldLabel, reviewer.fieldLabel];
export const calendarFeedId = tasks.id;
