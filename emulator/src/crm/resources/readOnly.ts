import { ok, orNoResult } from "../api";
import { equals } from "../collections";
import type { CrmContext } from "../context";
import type { ReadOnlyFixtures } from "../fixtures";
import type { Route } from "../router";
import type { Row } from "../store";

type FixtureRow = Row & Record<string, unknown>;

const AUTOMATION_LINKS = ["campaigns", "contactGoals", "contactAutomations", "blocks", "goals", "sms", "sitemessages"];
const CAMPAIGN_LINKS = ["user", "automation", "campaignMessage", "campaignMessages", "links", "campaignLists", "aggregateRevenues"];

/** Automations and campaigns: data the API only reads, from a fixture file or generated. */
export function readOnlyRoutes(crm: CrmContext, fixtures: Required<ReadOnlyFixtures>): Route[] {
  const automations = fixtures.automations as FixtureRow[];
  const campaigns = fixtures.campaigns as FixtureRow[];

  /** Fixture records are stored as the service answers them; only links depend on the address asked. */
  const withLinks = (collection: string, names: string[]) => (row: FixtureRow, req: { baseUrl: string }) => ({
    ...row,
    links: row.links ?? Object.fromEntries(names.map((name) => [name, `${req.baseUrl}/${collection}/${row.id}/${name}`])),
  });
  const automationKind = crm.kinds.register<FixtureRow>({ singular: "automation", plural: "automations", present: withLinks("automations", AUTOMATION_LINKS) });
  const campaignKind = crm.kinds.register<FixtureRow>({ singular: "campaign", plural: "campaigns", present: withLinks("campaigns", CAMPAIGN_LINKS) });

  // The automations list meta also names each active automation's start trigger.
  const starts = automations.filter((a) => a.status === "1").map((a, index) => ({ id: String(index + 1), series: a.id, type: "subscribe" }));

  return [
    {
      method: "GET",
      pattern: "/automations",
      handle: (req) => ok(crm.kinds.list(req, automationKind, automations, { meta: () => ({ starts, filtered: false, smsLogs: [] }) })),
    },
    {
      method: "GET",
      pattern: "/campaigns",
      handle: (req) => ok(crm.kinds.list(req, campaignKind, campaigns, { filters: { seriesid: equals("seriesid") } })),
    },
    {
      method: "GET",
      pattern: "/campaigns/:id",
      handle: (req) => ok(crm.kinds.one(req, campaignKind, orNoResult(campaigns.find((c) => c.id === req.params.id), "Campaign", req.params.id))),
    },
  ];
}
