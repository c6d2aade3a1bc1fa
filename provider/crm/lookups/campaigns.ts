// Campaigns (broadcast emails to a list of contacts): read-only through the API, so
// they are looked up, never managed.

import { z } from "zod";
import { oneOf, strictObject } from "../../kit/inputs";
import { flagOf, idOf, numberOf, timestampOf } from "../service/normalize";
import { exactlyOne, idOrName, type LookupOptions, notFound, outputForm, startLookup } from "./kit";
import { type ServiceOrder, sharedWalk } from "./shared-walks";

/**
 * Campaign status codes and what they mean. The service's specification leaves them
 * open; these meanings are read from production clients of the real service.
 */
export const CampaignStatus = {
  Draft: 0,
  Scheduled: 1,
  Sending: 2,
  Paused: 3,
  Stopped: 4,
  Completed: 5,
} as const;

/** A campaign (broadcast email to a list of contacts), with its statistics. */
export interface Campaign {
  /** The campaign's id. */
  id: string;
  /** The campaign's name. */
  name: string;
  /** e.g. single, recurring, split, responder, reminder, activerss, text. */
  type: string;
  /** 0 draft, 1 scheduled, 2 sending, 3 paused, 4 stopped, 5 completed (see CampaignStatus). */
  status: number;
  /** The id of the user who made it. */
  userid: string | null;
  /** The id of the automation that sends it; null when none does. */
  automation: string | null;
  /** The id of its mailing address; null when unset. */
  addressid: string | null;
  /** Whether the campaign is public (shown in the account's archive). */
  public: boolean;
  /** When it was created, ISO 8601. */
  cdate: string | null;
  /** When it was last changed, ISO 8601. */
  mdate: string | null;
  /** When it was (first) sent, ISO 8601; null until it is sent. */
  sdate: string | null;
  /** When it was last sent, ISO 8601; null until it is sent. */
  ldate: string | null;
  /** When it is scheduled to send; null when it is not scheduled. */
  scheduleddate: string | null;
  /**
   * When it was made: ISO 8601 in UTC, as cdate, when the service writes it with an offset; a time
   * written without one is passed on as written (`YYYY-MM-DDTHH:MM:SS`, in the account's time,
   * whose offset is not known); null when the service leaves it out.
   */
  created_timestamp: string | null;
  /** When it was last changed, in created_timestamp's form: what a sync of campaigns goes by. */
  updated_timestamp: string | null;
  /** Emails sent. */
  send_amt: number;
  /** Contacts it was sent to. */
  total_amt: number;
  /** Opens, counting each open. */
  opens: number;
  /** Contacts who opened it. */
  uniqueopens: number;
  /** Link clicks, counting each click. */
  linkclicks: number;
  /** Contacts who clicked a link. */
  uniquelinkclicks: number;
  /** Clicks by subscribers. */
  subscriberclicks: number;
  /** Forwards, counting each forward. */
  forwards: number;
  /** Contacts who forwarded it. */
  uniqueforwards: number;
  /** Hard bounces. */
  hardbounces: number;
  /** Soft bounces. */
  softbounces: number;
  /** Contacts who unsubscribed through it. */
  unsubscribes: number;
  /** Replies, counting each reply. */
  replies: number;
  /** Contacts who replied. */
  uniquereplies: number;
}

export interface GetCampaignsArgs {
  /** Only campaigns whose name contains this text, regardless of case. */
  nameContains?: string;
  /** Only campaigns with this status code (see CampaignStatus). */
  status?: number;
  /** Only campaigns of this type, e.g. single. */
  type?: string;
  /** Order by send date, as the service's orders[sdate] (unsent campaigns first ascending, last descending); without it the order they were read in, the service's own, which may change between calls. */
  orderBySendDate?: "ASC" | "DESC";
}

export interface GetCampaignsResult {
  /** The campaigns found. */
  campaigns: Campaign[];
}

/** Names one campaign: by its id, or by its exact name (which must then belong to one campaign only). */
export type GetCampaignArgs =
  | {
      /** The campaign's id. */
      id: string;
    }
  | {
      /** The campaign's exact name. */
      name: string;
    };

const listArgs = strictObject(
  {
    nameContains: z.string({ invalid_type_error: "must be a string" }).min(1, "must not be empty").optional(),
    status: z.number({ invalid_type_error: "must be a number" }).int("must be a whole number").min(0, "must not be negative").optional(),
    type: z.string({ invalid_type_error: "must be a string" }).min(1, "must not be empty").optional(),
    orderBySendDate: oneOf(["ASC", "DESC"]).optional(),
  },
  "the arguments of getCampaigns",
);

// The service filters campaigns only by automation (filters[seriesid]).
const narrowCampaigns = "the service cannot filter campaigns by these arguments";

/**
 * The service's orders[sdate]: by the instant of the send date, campaigns never sent (no
 * sdate) first when ascending and last when descending, as the service orders a missing
 * date. Applied on our side to a walk read in another order.
 */
function bySendDate(direction: string): ServiceOrder<Record<string, unknown>> {
  const sent = (campaign: Record<string, unknown>) => {
    const sdate = timestampOf(campaign.sdate);
    return sdate === null ? -Infinity : Date.parse(sdate);
  };
  const sign = direction === "DESC" ? -1 : 1;
  return {
    query: { "orders[sdate]": direction },
    // Two unsent campaigns tie: -Infinity - -Infinity is NaN.
    compare: (a, b) => sign * Math.sign(sent(a) - sent(b) || 0),
  };
}

/** An id the service writes as "0" when there is none. */
const optionalIdOf = (value: unknown) => (idOf(value) === "0" ? null : idOf(value));
const countOf = (value: unknown) => numberOf(value) ?? 0;

function campaignOf(campaign: Record<string, unknown>): Campaign {
  return {
    id: String(campaign.id),
    name: String(campaign.name ?? ""),
    type: String(campaign.type ?? ""),
    status: countOf(campaign.status),
    userid: optionalIdOf(campaign.userid),
    automation: optionalIdOf(campaign.automation),
    addressid: optionalIdOf(campaign.addressid),
    public: flagOf(campaign.public),
    cdate: timestampOf(campaign.cdate),
    mdate: timestampOf(campaign.mdate),
    sdate: timestampOf(campaign.sdate),
    ldate: timestampOf(campaign.ldate),
    scheduleddate: timestampOf(campaign.scheduleddate),
    created_timestamp: timestampOf(campaign.created_timestamp),
    updated_timestamp: timestampOf(campaign.updated_timestamp),
    send_amt: countOf(campaign.send_amt),
    total_amt: countOf(campaign.total_amt),
    opens: countOf(campaign.opens),
    uniqueopens: countOf(campaign.uniqueopens),
    linkclicks: countOf(campaign.linkclicks),
    uniquelinkclicks: countOf(campaign.uniquelinkclicks),
    subscriberclicks: countOf(campaign.subscriberclicks),
    forwards: countOf(campaign.forwards),
    uniqueforwards: countOf(campaign.uniqueforwards),
    hardbounces: countOf(campaign.hardbounces),
    softbounces: countOf(campaign.softbounces),
    unsubscribes: countOf(campaign.unsubscribes),
    replies: countOf(campaign.replies),
    uniquereplies: countOf(campaign.uniquereplies),
  };
}

/** Every campaign of the account, optionally filtered by name, status and type, and ordered by send date. */
export async function getCampaigns(args: GetCampaignsArgs = {}, opts?: LookupOptions): Promise<GetCampaignsResult> {
  const lookup = startLookup("getCampaigns", listArgs, args, opts);
  const { nameContains, status, type, orderBySendDate } = lookup.args;
  const order = orderBySendDate === undefined ? undefined : bySendDate(orderBySendDate);
  const all = await sharedWalk<Record<string, unknown>>(lookup, "/campaigns", "campaigns", narrowCampaigns, order);
  const campaigns = all
    .map(campaignOf)
    .filter((campaign) => nameContains === undefined || campaign.name.toLowerCase().includes(nameContains.toLowerCase()))
    .filter((campaign) => status === undefined || campaign.status === status)
    .filter((campaign) => type === undefined || campaign.type === type);
  return { campaigns };
}

/** The campaign with this id, or with exactly this name; an error when none or several match. */
export async function getCampaign(args: GetCampaignArgs, opts?: LookupOptions): Promise<Campaign> {
  const lookup = startLookup("getCampaign", idOrName("campaign"), args, opts);
  const { client, args: key } = lookup;
  if (key.id !== undefined) {
    const response = await client.call({ method: "GET", path: `/campaigns/${key.id}` }, { accept: [404] });
    if (response.status === 404) throw notFound(client.resource, "campaign", key);
    return campaignOf((response.body as { campaign: Record<string, unknown> }).campaign);
  }
  // Every campaign is read, so that a second one of that name is seen: the walk of any getCampaigns of the run.
  const all = await sharedWalk<Record<string, unknown>>(lookup, "/campaigns", "campaigns", narrowCampaigns);
  return exactlyOne(client.resource, "campaign", key, all.filter((campaign) => campaign.name === key.name).map(campaignOf));
}

/** getCampaigns taking Outputs: the result is an Output. */
export const getCampaignsOutput = outputForm(getCampaigns);

/** getCampaign taking Outputs: the result is an Output. */
export const getCampaignOutput = outputForm(getCampaign);
