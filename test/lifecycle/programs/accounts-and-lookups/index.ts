// `count` accounts and, beside them, `lookups` lookups of a campaign by name (they share one
// walk of the campaigns, 3 requests for the emulator's 260), after a listing of the campaigns
// newest first with `newestFirst` (the same walk): the lookups run in this process while the
// provider host creates the accounts. See test/lifecycle/lookups.test.ts, bench/lookups.ts
// and bench/lookup-walks.ts.
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const campaignName = config.get("campaignName") ?? "Campaign 001";
for (let n = 1; n <= count; n++) new crm.Account(`account-${n}`, { name: `Account ${n}` });
export const newestCampaign = config.getBoolean("newestFirst") ? crm.getCampaignsOutput({ orderBySendDate: "DESC" }).campaigns[0].name : undefined;
export const campaignIds = Array.from({ length: config.getNumber("lookups") ?? 1 }, () => crm.getCampaignOutput({ name: campaignName }).id);
