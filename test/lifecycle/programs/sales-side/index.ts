// Issue 47's sales, team and tracking side, each object named as in test/plugin/programs/sales-side:
// a user group with a user, a pipeline assigning deals to that user and managed by that group,
// with three stages, a deal field, a task type, a deal role, a task outcome, a shop connection, a
// list the group may use, a contact field in a field group, the site and event tracking switches with two
// allowed domains and two tracked events, and a custom object schema of deals reviewed.
// With config `adoptIds` (resource name to id), each resource takes the object of that id over:
// the dynamic classes' import by id (`pulumi import` does not reach them, pulumi/pulumi#16175).
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const adoptIds: Record<string, string> = new pulumi.Config().getObject("adoptIds") ?? {};

const reps = new crm.UserGroup("reps", {
  title: "Sales reps",
  description: "The sales team",
  permissions: { deal: true, contactAdd: true },
  adoptId: adoptIds.reps,
});
const ada = new crm.User("ada", {
  username: "ada",
  email: "ada@acme.example",
  firstName: "Ada",
  lastName: "Lovelace",
  groupId: reps.id,
  password: pulumi.secret("correct horse battery"),
  adoptId: adoptIds.ada,
});
const sales = new crm.Pipeline("sales", {
  title: "Sales",
  currency: "usd",
  allUsers: false,
  userIds: [ada.id],
  allUserGroups: false,
  userGroupIds: [reps.id],
  adoptId: adoptIds.sales,
});
["Qualified", "Proposal", "Won"].forEach((title, index) => {
  const name = title.toLowerCase();
  new crm.PipelineStage(name, { title, pipelineId: sales.id, order: index + 1, adoptId: adoptIds[name] });
});
new crm.DealCustomField("leadSource", {
  fieldLabel: "Lead source",
  fieldType: "dropdown",
  fieldOptions: ["Web", "Referral"],
  fieldDefault: "Web",
  adoptId: adoptIds.leadSource,
});
new crm.TaskType("demo", { title: "Demo", adoptId: adoptIds.demo });
new crm.DealRole("finance", { title: "Finance", adoptId: adoptIds.finance });
new crm.TaskOutcome("booked", { title: "Booked a demo", sentiment: "Positive", adoptId: adoptIds.booked });
new crm.Connection("shop", {
  service: "shopify",
  externalId: "acme.myshopify.com",
  name: "Acme shop",
  logoUrl: "https://acme.example/logo.png",
  linkUrl: "https://acme.example/admin",
  adoptId: adoptIds.shop,
});
const news = new crm.List("news", {
  name: "Acme news",
  stringid: "acme-news",
  senderUrl: "https://acme.example",
  senderReminder: "You signed up on acme.example.",
  adoptId: adoptIds.news,
});
new crm.ListGroupPermission("repsUseNews", { listId: news.id, groupId: reps.id, adoptId: adoptIds.repsUseNews });
const interest = new crm.ContactCustomField("interest", { title: "Interest", type: "dropdown", options: ["Products", "Events"], adoptId: adoptIds.interest });
// Group 1: the field group every account comes with.
new crm.CustomFieldGroupMember("interestInGroup", { fieldId: interest.id, groupId: "1", order: 1, adoptId: adoptIds.interestInGroup });
new crm.SiteTracking("siteTracking", { enabled: false, adoptId: adoptIds.siteTracking });
new crm.EventTracking("eventTracking", { enabled: false, adoptId: adoptIds.eventTracking });
new crm.SiteTrackingDomain("shopDomain", { name: "shop.acme.example", adoptId: adoptIds.shopDomain });
new crm.SiteTrackingDomain("blogDomain", { name: "blog.acme.example", adoptId: adoptIds.blogDomain });
new crm.TrackedEvent("signedUp", { name: "Signed up", adoptId: adoptIds.signedUp });
new crm.TrackedEvent("watchedDemo", { name: "Watched demo", adoptId: adoptIds.watchedDemo });
new crm.CustomObjectSchema("reviews", {
  slug: "deal-review",
  labels: { singular: "Deal review", plural: "Deal reviews" },
  fields: [
    { id: "verdict", labels: { singular: "Verdict", plural: "Verdicts" }, type: "dropdown", required: true, options: ["Won on price", "Won on product"] },
    { id: "score", labels: { singular: "Score", plural: "Scores" }, type: "number" },
  ],
  relationships: [{ id: "deal", labels: { singular: "Deal", plural: "Deals" }, namespace: "deals" }],
  adoptId: adoptIds.reviews,
});
