// An object of every importable crm type, declared through the dynamic classes of pulumi-crm
// (`mode: dynamic`, as a stack made before the plugin has them) or through the generated SDK
// @pulumi-crm/crm on the native plugin (`mode: native`): the same arguments, the SDK's classes
// carrying the schema's aliases to the dynamic types. The contact to associate is the stack
// config's `contactId`. See test/plugin/moved-stack.test.ts.
import * as crmSdk from "@pulumi-crm/crm";
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const config = new pulumi.Config();
// The SDK's classes take the same arguments as the dynamic ones (each an Input): one program declares both.
const kit = config.require("mode") === "native" ? (crmSdk as unknown as typeof crm) : crm;

const account = new kit.Account("acme", { name: "Acme", accountUrl: "https://acme.example" });
const tier = new kit.AccountCustomField("tier", { fieldLabel: "Tier", fieldType: "dropdown", fieldOptions: ["Gold", "Silver"] });
new kit.AccountCustomFieldValue("acmeTier", { accountId: account.id, customFieldId: tier.id, fieldValue: "Gold" });
new kit.AccountNote("acmeNote", { accountId: account.id, note: "Met at the fair" });
new kit.AccountContact("acmeCto", { accountId: account.id, contactId: config.require("contactId"), jobTitle: "CTO" });
new kit.Address("hq", { companyName: "Acme", address1: "1 Main St", city: "Chicago", country: "US", groupId: "3", listId: "7" });
new kit.CalendarFeed("tasks", { title: "Tasks", type: "Deals", notification: true });
new kit.Message("news", { fromname: "Acme News", fromemail: "news@acme.example", reply2: "reply@acme.example", subject: "Hello" });
new kit.Branding("branding", { siteName: "Acme" });
const newsList = new kit.List("newsList", {
  name: "Acme news",
  stringid: "acme-news",
  senderUrl: "https://acme.example",
  senderReminder: "You signed up on acme.example.",
});
new kit.Tag("customer", { tag: "Customer", description: "Bought at least once" });
const interest = new kit.ContactCustomField("interest", { title: "Interest", type: "dropdown", options: ["Products", "Events"], listIds: [newsList.id] });
// Group 1: the field group every account comes with.
new kit.CustomFieldGroupMember("interestInGroup", { fieldId: interest.id, groupId: "1" });
new kit.PersonalizationVariable("signature", { tag: "signature", name: "Signature", format: "text", content: "The Acme team" });
new kit.SavedResponse("followUp", { title: "Follow-up", subject: "Thanks, %FIRSTNAME%", body: "Here are the slides." });
new kit.Webhook("subscriptions", {
  name: "Acme subscriptions",
  url: "https://reports.acme.example/crm",
  events: ["subscribe"],
  sources: ["public"],
  listId: newsList.id,
});
new kit.TaskType("demoCall", { title: "Demo call" });
new kit.DealRole("finance", { title: "Finance" });
new kit.TaskOutcome("booked", { title: "Booked a demo", sentiment: "Positive" });
new kit.Connection("shop", {
  service: "shopify",
  externalId: "acme.myshopify.com",
  name: "Acme shop",
  logoUrl: "https://acme.example/logo.png",
  linkUrl: "https://acme.example/admin",
});
new kit.DealCustomField("leadSource", { fieldLabel: "Lead source", fieldType: "dropdown", fieldOptions: ["Web", "Referral"] });
const sales = new kit.Pipeline("sales", { title: "Sales", currency: "usd" });
new kit.PipelineStage("qualified", { title: "Qualified", pipelineId: sales.id, order: 1 });
const reps = new kit.UserGroup("reps", { title: "Sales reps", permissions: { contactAdd: true, deal: true } });
new kit.ListGroupPermission("repsReadNews", { listId: newsList.id, groupId: reps.id });
new kit.User("rep", { username: "rep1", email: "rep1@acme.example", firstName: "Ada", lastName: "Rep", groupId: reps.id });
new kit.SiteTracking("siteTracking", { enabled: false });
new kit.SiteTrackingDomain("shopDomain", { name: "shop.acme.example" });
new kit.EventTracking("eventTracking", { enabled: false });
new kit.TrackedEvent("signedUp", { name: "Signed up" });
new kit.CustomObjectSchema("machines", {
  slug: "machine",
  labels: { singular: "Machine", plural: "Machines" },
  fields: [{ id: "model", labels: { singular: "Model", plural: "Models" }, type: "dropdown", options: ["M1", "M2"] }],
  relationships: [{ id: "owner", labels: { singular: "Owner", plural: "Owners" }, namespace: "accounts" }],
});
