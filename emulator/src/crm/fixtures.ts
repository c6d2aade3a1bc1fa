import { mulberry32 } from "../shared/random";
import { isoTimestamp } from "./time";

/** Read-only data the API cannot create: automations and campaigns. */
export interface ReadOnlyFixtures {
  automations?: Array<Record<string, unknown>>;
  campaigns?: Array<Record<string, unknown>>;
}

export const GENERATED_AUTOMATIONS = 30;
export const GENERATED_CAMPAIGNS = 260;

const DAY_MS = 86_400_000;
/** Generated data is dated from here, so it is the same on every run. */
const EPOCH_MS = Date.parse("2024-01-08T15:00:00Z");
const CAMPAIGN_TYPES = ["single", "recurring", "split", "responder", "reminder", "activerss", "text"];

/** The given collections, the generated ones for any the fixtures leave out. */
export function withGeneratedDefaults(fixtures: ReadOnlyFixtures = {}): Required<ReadOnlyFixtures> {
  const generated = fixtures.automations && fixtures.campaigns ? undefined : generateFixtures();
  return {
    automations: fixtures.automations ?? generated!.automations,
    campaigns: fixtures.campaigns ?? generated!.campaigns,
  };
}

/** Reads a fixture file's JSON; every record needs a string id, as the service answers them. */
export function parseFixtures(text: string, source: string): ReadOnlyFixtures {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null) throw new Error(`${source}: expected an object {automations, campaigns}`);
  const fixtures: ReadOnlyFixtures = {};
  for (const name of ["automations", "campaigns"] as const) {
    const records = (parsed as Record<string, unknown>)[name];
    if (records === undefined) continue;
    if (!Array.isArray(records) || !records.every((r) => typeof r === "object" && r !== null && typeof (r as { id?: unknown }).id === "string")) {
      throw new Error(`${source}: ${name} must be an array of objects with a string id`);
    }
    fixtures[name] = records;
  }
  return fixtures;
}

export function generateFixtures(): Required<ReadOnlyFixtures> {
  const random = mulberry32(20240108);
  const count = (max: number) => String(Math.floor(random() * max));
  const at = (ms: number) => isoTimestamp(ms);

  const automations = Array.from({ length: GENERATED_AUTOMATIONS }, (_, index) => {
    const id = index + 1;
    const cdate = EPOCH_MS + index * 3 * DAY_MS;
    const entered = Math.floor(random() * 500);
    return {
      name: `Automation ${String(id).padStart(2, "0")}`,
      cdate: at(cdate),
      mdate: at(cdate + Math.floor(random() * 10) * DAY_MS),
      userid: "1",
      status: id % 4 === 0 ? "2" : "1",
      entered: String(entered),
      exited: String(Math.floor(entered * random())),
      hidden: "0",
      defaultscreenshot: "http://img-us1.com/default-series.gif",
      screenshot: `https://screenshots.example.com/automations/${id}.png`,
      id: String(id),
    };
  });

  const campaigns = Array.from({ length: GENERATED_CAMPAIGNS }, (_, index) => {
    const id = index + 1;
    const type = CAMPAIGN_TYPES[index % CAMPAIGN_TYPES.length];
    const cdate = EPOCH_MS + index * DAY_MS;
    // Every tenth campaign is an unsent draft: no send dates, status 0.
    const sent = id % 10 !== 0;
    const sdate = sent ? cdate + Math.floor(random() * 20 * DAY_MS) : undefined;
    // The last change: the last send for a sent campaign, else the edit a day after creation (mdate).
    const updated = sdate === undefined ? cdate + DAY_MS : sdate + DAY_MS;
    const automation = type === "responder" ? String((index % GENERATED_AUTOMATIONS) + 1) : null;
    const sendAmount = sent ? Math.floor(random() * 5000) : 0;
    const opens = Math.floor(sendAmount * random());
    const clicks = Math.floor(opens * random());
    return {
      type,
      userid: "1",
      user: "1",
      automation,
      segmentid: "0",
      bounceid: "-1",
      realcid: "0",
      sendid: "0",
      threadid: "0",
      seriesid: automation ?? "0",
      formid: "0",
      basetemplateid: `template-${id}`,
      basemessageid: "0",
      addressid: "0",
      source: "web",
      name: `Campaign ${String(id).padStart(3, "0")}`,
      cdate: at(cdate),
      mdate: at(cdate + DAY_MS),
      sdate: sdate === undefined ? null : at(sdate),
      ldate: sdate === undefined ? null : at(sdate + DAY_MS),
      send_amt: String(sendAmount),
      total_amt: String(sendAmount),
      opens: String(opens),
      uniqueopens: String(Math.floor(opens * 0.8)),
      linkclicks: String(clicks),
      uniquelinkclicks: String(Math.floor(clicks * 0.8)),
      subscriberclicks: String(Math.floor(clicks * 0.7)),
      forwards: count(20),
      uniqueforwards: count(10),
      hardbounces: count(30),
      softbounces: count(30),
      unsubscribes: count(40),
      unsubreasons: count(10),
      updates: count(5),
      socialshares: count(5),
      replies: count(15),
      uniquereplies: count(10),
      status: sent ? "5" : "0",
      public: "1",
      mail_transfer: "0",
      mail_send: sent ? "1" : "0",
      mail_cleanup: sent ? "1" : "0",
      mailer_log_file: "0",
      tracklinks: "all",
      tracklinksanalytics: "0",
      trackreads: "1",
      trackreadsanalytics: "1",
      analytics_campaign_name: "",
      tweet: "0",
      facebook: "0",
      survey: "",
      embed_images: "0",
      htmlunsub: "1",
      textunsub: "1",
      htmlunsubdata: null,
      textunsubdata: null,
      recurring: type === "recurring" ? "day7" : "",
      willrecur: type === "recurring" ? "1" : "0",
      split_type: "even",
      split_content: type === "split" ? "1" : "0",
      split_offset: "2",
      split_offset_type: "day",
      split_winner_messageid: "0",
      split_winner_awaiting: "0",
      responder_offset: "0",
      responder_type: "subscribe",
      responder_existing: "0",
      reminder_field: "sdate",
      reminder_format: type === "reminder" ? "yearly" : null,
      reminder_type: "month_day",
      reminder_offset: "0",
      reminder_offset_type: "day",
      reminder_offset_sign: "+",
      reminder_last_cron_run: null,
      activerss_interval: "day1",
      activerss_url: type === "activerss" ? `https://blog.example.com/feed/${id}` : null,
      activerss_items: "10",
      ip4: "0",
      laststep: sent ? "" : "designer",
      managetext: "0",
      schedule: "0",
      scheduleddate: null,
      waitpreview: "0",
      deletestamp: null,
      replysys: "0",
      // What clients sync campaigns by. The reference's campaign examples do not show them; they write every
      // campaign date with the account's offset (cdate, mdate), so these do too: a naive time is read as UTC by some clients.
      created_timestamp: at(cdate),
      updated_timestamp: at(updated),
      id: String(id),
    };
  });

  return { automations, campaigns };
}
