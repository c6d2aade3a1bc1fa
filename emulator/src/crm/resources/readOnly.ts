import { ok, orNoResult } from "../api";
import { equals } from "../collections";
import type { CrmContext } from "../context";
import type { Document } from "../kinds";
import { withGeneratedDefaults } from "../fixtures";
import type { Route } from "../router";
import type { Row } from "../store";
import { JsonBytes } from "../../service";
import { linkRoutes, linksOf, noneHeld, userLink } from "./shared";
import { crmModule } from "../module";

export const readOnlyModule = crmModule({ tables: {}, routes: readOnlyRoutes });

/** A record of the fixtures, as the service answers it (parseFixtures checks its string id). */
export type FixtureRow = Row & Record<string, unknown>;

interface ReadOnlyRecords {
  automations: FixtureRow[];
  campaigns: FixtureRow[];
}

/** The account's automations and campaigns (as crm.shared(readOnlyRecords), made once): its fixtures, generated ones for any left out. */
export function readOnlyRecords(crm: CrmContext): ReadOnlyRecords {
  return withGeneratedDefaults(crm.settings.fixtures) as ReadOnlyRecords;
}

const [OPEN_BRACKET, COMMA, CLOSE_BRACKET] = ["[", ",", "]"].map((text) => Buffer.from(text));

/** UTF-8 JSON of each presented (cached, frozen) record, written once. */
const jsonOfRecord = new WeakMap<FixtureRow, Buffer>();

function recordJson(record: FixtureRow): Buffer {
  let bytes = jsonOfRecord.get(record);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(record));
    jsonOfRecord.set(record, bytes);
  }
  return bytes;
}

/**
 * A list document as JSON.stringify writes it, with each listed record's JSON reused: the
 * members in order, the collection's records joined by commas, everything else serialized here.
 */
function listJson(document: Document, plural: string): JsonBytes {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(document)) {
    if (value === undefined) continue;
    parts.push(Buffer.from(`${parts.length === 0 ? "{" : ","}${JSON.stringify(name)}:`));
    if (name === plural) {
      parts.push(OPEN_BRACKET);
      for (const [index, record] of (value as FixtureRow[]).entries()) parts.push(...(index === 0 ? [] : [COMMA]), recordJson(record));
      parts.push(CLOSE_BRACKET);
    } else {
      parts.push(Buffer.from(JSON.stringify(value)));
    }
  }
  parts.push(Buffer.from(parts.length === 0 ? "{}" : "}"));
  return new JsonBytes(Buffer.concat(parts));
}

const AUTOMATION_LINKS = ["campaigns", "contactGoals", "contactAutomations", "blocks", "goals", "sms", "sitemessages"];
/** Distinct base URLs (Host headers) whose presented records are kept. */
const MAX_CACHED_BASE_URLS = 8;
const CAMPAIGN_LINKS = ["user", "automation", "campaignMessage", "campaignMessages", "links", "campaignLists", "aggregateRevenues"];

/** Automations and campaigns: data the API only reads, from a fixture file or generated. */
function readOnlyRoutes(crm: CrmContext): Route[] {
  const { automations, campaigns } = crm.shared(readOnlyRecords);

  /**
   * Fixture records are stored as the service answers them; only links depend on the address asked.
   * They never change after load, so each record is presented once per base URL and reused.
   */
  const withLinks = (collection: string, names: string[]) => {
    const byBaseUrl = new Map<string, WeakMap<FixtureRow, FixtureRow>>();
    return (row: FixtureRow, req: { baseUrl: string }): FixtureRow => {
      let presented = byBaseUrl.get(req.baseUrl);
      if (!presented) {
        // The base URL comes from the Host header: keep a few, not one per name a client makes up.
        if (byBaseUrl.size >= MAX_CACHED_BASE_URLS) byBaseUrl.delete(byBaseUrl.keys().next().value!);
        presented = new WeakMap();
        byBaseUrl.set(req.baseUrl, presented);
      }
      let record = presented.get(row);
      if (!record) {
        // Frozen: the cached record is shared by every response that lists it.
        record = Object.freeze({
          ...row,
          links: row.links ?? linksOf(req, collection, row.id, names),
        });
        presented.set(row, record);
      }
      return record;
    };
  };
  const findAutomation = (id: string) =>
    orNoResult(
      automations.find((a) => a.id === id),
      "Series",
      id,
    );
  const findCampaign = (id: string) =>
    orNoResult(
      campaigns.find((c) => c.id === id),
      "Campaign",
      id,
    );
  const automationKind = crm.kinds.register<FixtureRow>({ singular: "automation", plural: "automations", present: withLinks("automations", AUTOMATION_LINKS) });
  const campaignKind = crm.kinds.register<FixtureRow>({ singular: "campaign", plural: "campaigns", present: withLinks("campaigns", CAMPAIGN_LINKS) });

  // The automations list meta also names each active automation's start trigger.
  const starts = automations.filter((a) => a.status === "1").map((a, index) => ({ id: String(index + 1), series: a.id, type: "subscribe" }));

  return [
    {
      method: "GET",
      pattern: "/automations",
      handle: (req) =>
        ok(listJson(crm.kinds.list(req, automationKind, automations, { meta: () => ({ starts, filtered: false, smsLogs: [] }) }), automationKind.plural)),
    },
    {
      method: "GET",
      pattern: "/campaigns",
      handle: (req) => ok(listJson(crm.kinds.list(req, campaignKind, campaigns, { filters: { seriesid: equals("seriesid") } }), campaignKind.plural)),
    },
    { method: "GET", pattern: "/campaigns/:id", handle: (req) => ok(crm.kinds.one(req, campaignKind, findCampaign(req.params.id))) },
    // Where their links lead: an automation's campaigns and enrolments, a campaign's user and automation; empty collections for the rest.
    ...linkRoutes("automations", findAutomation, {
      ...noneHeld(AUTOMATION_LINKS),
      campaigns: (automation, req) => ({ campaigns: campaigns.filter((c) => c.seriesid === automation.id).map((c) => campaignKind.present(c, req, "list")) }),
      contactAutomations: (automation, req) =>
        crm.kinds.relatedMany(
          req,
          "contactAutomations",
          crm.tables.contactAutomations.where((ca) => ca.automation === automation.id),
        ),
    }),
    ...linkRoutes("campaigns", findCampaign, {
      ...noneHeld(CAMPAIGN_LINKS),
      user: userLink,
      automation: (campaign, req) => {
        const automation = automations.find((a) => a.id === campaign.automation);
        return { automation: automation ? automationKind.present(automation, req, "single") : null };
      },
    }),
  ];
}
