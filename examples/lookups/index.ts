// Looks up an automation and a campaign of the CRM account, counts the campaigns sent, and exports what it found.
// Lookups read the account and manage nothing; they run in preview as in up.
// Settings: crm:apiUrl and crm:apiToken (secret); this program's automationName and campaignName.
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const config = new pulumi.Config();

// The Output form: its arguments may be Outputs, and its result is an Output.
const automation = crm.getAutomationOutput({ name: config.get("automationName") ?? "Automation 07" });

// The Promise form.
const campaign = crm.getCampaign({ name: config.get("campaignName") ?? "Campaign 001" });

export const automationId = automation.id;
export const automationStatus = automation.status;
export const campaignId = campaign.then((found) => found.id);
export const campaignSentOn = campaign.then((found) => found.sdate);
export const campaignStatus = campaign.then((found) => (found.status === crm.CampaignStatus.Completed ? "completed" : `status ${found.status}`));

// Reads the same pages as getCampaign by name: one walk of the campaigns serves both.
export const campaignsSent = crm.getCampaigns({ status: crm.CampaignStatus.Completed }).then(({ campaigns }) => campaigns.length);

pulumi
  .all([automation, campaign])
  .apply(([foundAutomation, foundCampaign]) =>
    pulumi.log.info(`found automation "${foundAutomation.name}" (id ${foundAutomation.id}) and campaign "${foundCampaign.name}" (id ${foundCampaign.id})`),
  );
