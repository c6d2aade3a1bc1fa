// `count` accounts and, beside them, `lookups` lookups of a campaign by name (they share one
// walk of the campaigns, 3 requests for the emulator's 260): the lookups run in this process
// while the provider host creates the accounts. See test/lifecycle/lookups.test.ts and
// bench/lookups.ts.
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const campaignName = config.get("campaignName") ?? "Campaign 001";
for (let n = 1; n <= count; n++) new crm.Account(`account-${n}`, { name: `Account ${n}` });
export const campaignIds = Array.from({ length: config.getNumber("lookups") ?? 1 }, () => crm.getCampaignOutput({ name: campaignName }).id);
