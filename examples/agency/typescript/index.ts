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

// The client's branding, taken over and put back as found on destroy.
new crm.Branding("branding", { siteName: clientName, footerTextValue: `${clientName}, ${street}, ${city}` });

export const tierFieldId = tier.id;
export const addressId = address.id;
export const newsletterId = newsletter.id;
