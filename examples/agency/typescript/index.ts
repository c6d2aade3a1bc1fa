// One CRM setup for every client account of an agency: the YAML program's twin (../yaml), on
// pulumi-crm's dynamic classes. Each client's stack holds crm:apiUrl and crm:apiToken (secret),
// set from ../clients.json by `pulumi-crm fleet sync`, and the client's own values below.
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const config = new pulumi.Config();
const clientName = config.require("clientName");
const senderEmail = config.require("senderEmail");
const street = config.require("street");
const city = config.require("city");
const country = config.require("country");
// The website the client's news list is for.
const website = config.get("website") ?? "https://agency.example";

// The same custom field of accounts in every client's account.
const tier = new crm.AccountCustomField("tier", {
  fieldLabel: "Client tier",
  fieldType: "dropdown",
  fieldOptions: ["Bronze", "Silver", "Gold"],
});

// The client's mailing address, printed under its messages.
const address = new crm.Address("address", { companyName: clientName, address1: street, city, country });

// The sender of the client's newsletter.
const newsletter = new crm.Message("newsletter", {
  fromname: clientName,
  fromemail: senderEmail,
  reply2: senderEmail,
  subject: `News from ${clientName}`,
});

// The list the client's contacts subscribe to (every change replaces a list).
const news = new crm.List("news", {
  name: `${clientName} news`,
  stringid: "news",
  senderUrl: website,
  senderReminder: `You signed up for news from ${clientName}.`,
});

// Two tags the client's automations key on.
new crm.Tag("customerTag", { tag: "Customer", description: "Bought at least once" });
new crm.Tag("prospectTag", { tag: "Prospect" });

// A dropdown field of contacts, shown on the news list.
new crm.ContactCustomField("interest", { title: "Interest", type: "dropdown", options: ["Products", "Events", "Offers"], listIds: [news.id] });

// %SIGNATURE% in the client's messages.
new crm.PersonalizationVariable("signature", { tag: "signature", name: "Signature", format: "text", content: `The ${clientName} team` });

// Subscriptions to the news list, posted to the agency's reporting.
new crm.Webhook("subscriptions", {
  name: `${clientName} subscriptions`,
  url: "https://reports.agency.example/crm",
  events: ["subscribe", "unsubscribe"],
  sources: ["public", "admin", "api", "system"],
  listId: news.id,
});

// The client's branding, taken over and put back as found on destroy.
new crm.Branding("branding", { siteName: clientName, footerTextValue: `${clientName}, ${street}, ${city}` });

export const tierFieldId = tier.id;
export const addressId = address.id;
export const newsletterId = newsletter.id;
export const newsListId = news.id;
