// A short-lived review environment per branch: an account, custom account fields and a
// calendar feed, each named with a suffix from a random pet name, so that the review
// environments of many branches share one CRM account without colliding. The pet name is
// kept in the stack's state: every `pulumi up` of the branch keeps it, and a new branch
// (keepers) gets a new one.
// Settings: crm:apiUrl, crm:apiToken (secret); this program's `branch`, else the CI's
// branch variable (GITHUB_HEAD_REF on GitHub pull requests, else BRANCH_NAME).
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";
import { crm } from "pulumi-crm";

const config = new pulumi.Config();
const branch = config.get("branch") || process.env.GITHUB_HEAD_REF || process.env.BRANCH_NAME;
if (!branch) throw new Error("no branch: set it with `pulumi config set branch <name>`, or run in CI with GITHUB_HEAD_REF or BRANCH_NAME set");

const suffix = new random.RandomPet("suffix", { keepers: { branch } });

const account = new crm.Account("review", {
  name: pulumi.interpolate`Review ${suffix.id}`,
  accountUrl: pulumi.interpolate`https://${suffix.id}.review.acme.example`,
});

const stage = new crm.AccountCustomField("stage", {
  fieldLabel: pulumi.interpolate`Stage (${suffix.id})`,
  fieldType: "dropdown",
  fieldOptions: ["Testing", "Approved", "Rejected"],
});
const reviewer = new crm.AccountCustomField("reviewer", {
  fieldLabel: pulumi.interpolate`Reviewer (${suffix.id})`,
  fieldType: "text",
});

new crm.AccountCustomFieldValue("review-stage", { accountId: account.id, customFieldId: stage.id, fieldValue: "Testing" });

const tasks = new crm.CalendarFeed("review-tasks", {
  title: pulumi.interpolate`Review tasks (${suffix.id})`,
  type: "All",
});

export const branchName = branch;
export const environmentName = suffix.id;
export const accountId = account.id;
export const accountName = account.name;
export const customFieldLabels = [stage.fieldLabel, reviewer.fieldLabel];
export const calendarFeedId = tasks.id;
