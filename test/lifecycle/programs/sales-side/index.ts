// The sales side of an account: a user group with a user, a pipeline assigning deals to that
// user and managed by that group, with three stages, a task type, and a custom object schema of
// deals reviewed.
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const reps = new crm.UserGroup("reps", { title: "Sales reps", permissions: { deal: true, contactAdd: true } });
const ada = new crm.User("ada", { username: "ada", email: "ada@acme.example", firstName: "Ada", lastName: "Lovelace", groupId: reps.id, password: pulumi.secret("correct horse battery") });
const sales = new crm.Pipeline("sales", { title: "Sales", currency: "usd", allUsers: false, userIds: [ada.id], allUserGroups: false, userGroupIds: [reps.id] });
["Qualified", "Proposal", "Won"].forEach((title, index) => new crm.PipelineStage(title.toLowerCase(), { title, pipelineId: sales.id, order: index + 1 }));
new crm.TaskType("demo", { title: "Demo" });
const reviews = new crm.CustomObjectSchema("reviews", {
  slug: "deal-review",
  labels: { singular: "Deal review", plural: "Deal reviews" },
  fields: [
    { id: "verdict", labels: { singular: "Verdict", plural: "Verdicts" }, type: "dropdown", required: true, options: ["Won on price", "Won on product"] },
    { id: "score", labels: { singular: "Score", plural: "Scores" }, type: "number" },
  ],
  relationships: [{ id: "deal", labels: { singular: "Deal", plural: "Deals" }, namespace: "deals" }],
});

export const pipelineId = sales.id;
export const reviewSchemaId = reviews.id;
