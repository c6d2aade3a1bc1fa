// The crm lookups (data sources) against the emulator: every argument, walks over
// more than one page counted in requests, not found, ambiguous, and arguments refused
// before any request; the Output forms beside the resources they depend on, under
// Pulumi's runtime mocks. The Output forms run in a program: test/lifecycle/lookups.test.ts.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { setTimeout as delay } from "node:timers/promises";
import * as pulumi from "@pulumi/pulumi";
import { generateFixtures } from "../../emulator/src/crm/fixtures";
import { crm } from "../../provider";
import { useStackConfig } from "../../provider/settings";
import { ServiceError } from "../../provider/transport/errors";
import { configOf, emulatorCall, emulatorForProvider, emulatorStats, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";

const SUBSCRIPTIONS = "6449c3f3-b68d-46d1-850b-c8aea998ce1b";
const TICKETS = "0b7e2a55-3c1d-4f8e-9a6b-2d4c8e1f7a90";

/**
 * 200 automations (two pages exactly), two of them named "Welcome series"; the generated
 * campaigns plus a second "Campaign 007", whose created_timestamp is written without an offset.
 */
function fixtures() {
  const automations = Array.from({ length: 200 }, (_, index) => {
    const id = index + 1;
    const name = id === 50 || id === 150 ? "Welcome series" : `Automation ${String(id).padStart(3, "0")}`;
    return { id: String(id), name, status: id % 4 === 0 ? "2" : "1", entered: String(id), exited: "0", hidden: "0", cdate: "2024-01-08T10:00:00-05:00" };
  });
  const { campaigns } = generateFixtures();
  return { automations, campaigns: [...campaigns, { ...campaigns[6], id: "261", created_timestamp: "2024-01-14 10:00:00" }] };
}

describe("crm lookups", () => {
  let emulator: RunningEmulator;
  let fixtureDir: string;
  const useEmulator = (token = emulator.apiToken) =>
    useStackConfig(configOf({ "crm:apiUrl": emulator.crmUrl, "crm:apiToken": token, "crm:requestsPerSecond": "0" }));

  before(async () => {
    fixtureDir = mkdtempSync(join(tmpdir(), "lookups-"));
    writeFileSync(join(fixtureDir, "fixtures.json"), JSON.stringify(fixtures()));
    emulator = await emulatorForProvider({ fixtures: join(fixtureDir, "fixtures.json") });
  });
  after(async () => {
    await emulator.close();
    rmSync(fixtureDir, { recursive: true, force: true });
  });
  beforeEach(() => useEmulator());

  /** What `run` resolved to, and the requests it made to each route. */
  async function counted<T>(run: () => Promise<T>): Promise<{ result: T; requests: Record<string, number> }> {
    const before = (await emulatorStats(emulator)).byRoute;
    const result = await run();
    const after = (await emulatorStats(emulator)).byRoute;
    const requests = Object.fromEntries(
      Object.entries(after)
        .map(([route, count]) => [route, count - (before[route] ?? 0)] as const)
        .filter(([, count]) => count > 0),
    );
    return { result, requests };
  }

  /** Asserts the lookup fails with this code and message, without a request when `requestless`. */
  async function refused(run: () => Promise<unknown>, code: string, message: RegExp, requestless = false): Promise<void> {
    const before = await requestCount(emulator);
    await assert.rejects(run(), (error: Error) => {
      assert.ok(error instanceof ServiceError, String(error));
      assert.equal(error.code, code, error.message);
      assert.match(error.message, message);
      return true;
    });
    if (requestless) assert.equal(await requestCount(emulator), before, "a request was made");
  }

  describe("getAutomations and getAutomation", () => {
    it("walks every automation at 100 a page: 200 in 2 requests, the total saving a third", async () => {
      const { result, requests } = await counted(() => crm.getAutomations());
      assert.equal(result.automations.length, 200);
      assert.deepEqual(requests, { "GET /api/3/automations": 2 });
      assert.deepEqual(result.automations[0], {
        id: "1",
        name: "Automation 001",
        status: 1,
        entered: 1,
        exited: 0,
        hidden: false,
        userid: null,
        cdate: "2024-01-08T15:00:00.000Z",
        mdate: null,
        screenshot: null,
      });
    });

    it("filters by a part of the name regardless of case, by status, and by both", async () => {
      const names = async (args: crm.GetAutomationsArgs) => (await crm.getAutomations(args)).automations.map((a) => a.id);
      assert.deepEqual(await names({ nameContains: "WELCOME series" }), ["50", "150"]);
      assert.equal((await names({ status: 2 })).length, 50);
      assert.deepEqual(await names({ nameContains: "welcome", status: 2 }), []);
      assert.deepEqual(await names({ nameContains: "Automation 01", status: 2 }), ["12", "16"]);
    });

    it("finds one by id, the walk ending at it, or by exact name", async () => {
      const byId = await counted(() => crm.getAutomation({ id: "7" }));
      assert.equal(byId.result.name, "Automation 007");
      assert.deepEqual(byId.requests, { "GET /api/3/automations": 1 });
      assert.equal((await crm.getAutomation({ name: "Automation 120" })).id, "120");
    });

    it("read the automations once per run for getAutomations and getAutomation by name, in either order", async () => {
      const byName = () => crm.getAutomation({ name: "Automation 120" });
      for (const lookups of [async () => [await crm.getAutomations(), await byName()], async () => [await byName(), await crm.getAutomations()]]) {
        useEmulator(); // a new run
        assert.deepEqual((await counted(lookups)).requests, { "GET /api/3/automations": 2 });
      }
    });

    it("says what was not found, and that a name shared by several is ambiguous", async () => {
      await refused(
        () => crm.getAutomation({ name: "Welcome series" }),
        "ambiguous",
        /^crm\.getAutomation: 2 automations have the name "Welcome series" \(ids 50, 150\); look the automation up by its id instead\.$/,
      );
      await refused(() => crm.getAutomation({ name: "welcome series" }), "not_found", /^crm\.getAutomation: no automation has the name "welcome series"\.$/);
      await refused(() => crm.getAutomation({ id: "999" }), "not_found", /no automation has the id 999/);
    });
  });

  describe("getCampaigns and getCampaign", () => {
    it("walks all 261 campaigns in 3 requests, numbers as numbers, flags as booleans, dates in ISO 8601", async () => {
      const { result, requests } = await counted(() => crm.getCampaigns());
      assert.equal(result.campaigns.length, 261);
      assert.deepEqual(requests, { "GET /api/3/campaigns": 3 });
      const first = result.campaigns[0];
      assert.deepEqual(
        [first.id, first.name, first.type, first.status, first.public, first.automation],
        ["1", "Campaign 001", "single", crm.CampaignStatus.Completed, true, null],
      );
      assert.equal(typeof first.send_amt, "number");
      assert.match(first.sdate!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
      const draft = result.campaigns.find((campaign) => campaign.status === crm.CampaignStatus.Draft)!;
      assert.deepEqual([draft.sdate, draft.ldate], [null, null]);
    });

    it("gives each campaign's created_timestamp and updated_timestamp in UTC as cdate when written with an offset, as written without one", async () => {
      const { campaigns } = await crm.getCampaigns();
      for (const campaign of campaigns.filter((c) => c.id !== "261")) {
        assert.equal(campaign.created_timestamp, campaign.cdate, campaign.id);
        assert.match(campaign.updated_timestamp!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/, campaign.id);
        assert.ok(campaign.updated_timestamp! >= campaign.created_timestamp!, campaign.id);
      }
      assert.equal(campaigns.find((c) => c.id === "261")!.created_timestamp, "2024-01-14T10:00:00");
      const one = await crm.getCampaign({ id: "8" });
      assert.deepEqual([one.created_timestamp, one.updated_timestamp], [campaigns[7].created_timestamp, campaigns[7].updated_timestamp]);
    });

    it("filters by name, status and type, and orders by send date through orders[sdate]", async () => {
      const ids = async (args: crm.GetCampaignsArgs) => (await crm.getCampaigns(args)).campaigns.map((c) => c.id);
      assert.deepEqual(await ids({ nameContains: "CAMPAIGN 00" }), ["1", "2", "3", "4", "5", "6", "7", "8", "9", "261"]);
      assert.deepEqual(await ids({ status: crm.CampaignStatus.Draft, nameContains: "campaign 0" }), ["10", "20", "30", "40", "50", "60", "70", "80", "90"]);
      assert.ok((await crm.getCampaigns({ type: "split" })).campaigns.every((c) => c.type === "split"));
      assert.deepEqual(await ids({ type: "split", status: crm.CampaignStatus.Completed, nameContains: "Campaign 00" }), ["3"]);
      const sent = (await crm.getCampaigns({ orderBySendDate: "DESC", status: crm.CampaignStatus.Completed })).campaigns.map((c) => c.sdate!);
      assert.deepEqual(sent, [...sent].sort().reverse());
      const ascending = (await crm.getCampaigns({ orderBySendDate: "ASC" })).campaigns;
      assert.equal(ascending[0].sdate, null, "unsent campaigns first, as the service orders missing dates");
    });

    it("finds one by id in one request, or by exact name; a shared name is ambiguous", async () => {
      const byId = await counted(() => crm.getCampaign({ id: "8" }));
      assert.deepEqual([byId.result.id, byId.result.name], ["8", "Campaign 008"]);
      assert.deepEqual(byId.requests, { "GET /api/3/campaigns/:id": 1 });
      assert.equal((await crm.getCampaign({ name: "Campaign 250" })).id, "250");
      await refused(() => crm.getCampaign({ name: "Campaign 007" }), "ambiguous", /2 campaigns have the name "Campaign 007" \(ids 7, 261\)/);
      await refused(() => crm.getCampaign({ id: "9999" }), "not_found", /^crm\.getCampaign: no campaign has the id 9999\.$/);
      await refused(() => crm.getCampaign({ name: "Spring sale" }), "not_found", /no campaign has the name "Spring sale"/);
    });

    it("stops a walk past maxRecords after its first page, saying how to go on", async () => {
      const { requests } = await counted(() =>
        refused(
          () => crm.getCampaigns({}, { maxRecords: 100 }),
          "too_many_records",
          /^crm\.getCampaigns: 261 records match, more than the 100 a lookup reads; .*raise maxRecords in the lookup's options\.$/,
        ),
      );
      assert.deepEqual(requests, { "GET /api/3/campaigns": 1 });
      assert.equal((await crm.getCampaigns({}, { maxRecords: 261 })).campaigns.length, 261);
    });

    it("read the campaigns once per run for getCampaigns and getCampaign by name, in either order or at once", async () => {
      const list = () => crm.getCampaigns({ status: crm.CampaignStatus.Draft });
      const byName = () => crm.getCampaign({ name: "Campaign 250" });
      const orders = {
        "list first": async () => ({ drafts: await list(), found: await byName() }),
        "name first": async () => ({ found: await byName(), drafts: await list() }),
        "at once": async () => Promise.all([list(), byName()]).then(([drafts, found]) => ({ drafts, found })),
      };
      for (const [order, lookups] of Object.entries(orders)) {
        useEmulator(); // a new run
        const { result, requests } = await counted(lookups);
        assert.deepEqual(requests, { "GET /api/3/campaigns": 3 }, order);
        assert.deepEqual([result.found.id, result.drafts.campaigns.length], ["250", 26], order);
      }
    });

    it("read the campaigns once per run whatever order each lookup asks, sorted as the service sorts them", async () => {
      /** What the service answers to orders[sdate], read in one walk of its own. */
      const served = async (direction: "ASC" | "DESC") => {
        useEmulator(); // a new run
        return (await crm.getCampaigns({ orderBySendDate: direction })).campaigns.map((c) => c.sdate);
      };
      const [ascending, descending] = [await served("ASC"), await served("DESC")];
      // The issue's program: newest first, then one by name; and every order after another.
      const program = async (first: crm.GetCampaignsArgs) => {
        await crm.getCampaigns(first);
        const found = await crm.getCampaign({ name: "Campaign 250" });
        return { found, asc: await crm.getCampaigns({ orderBySendDate: "ASC" }), desc: await crm.getCampaigns({ orderBySendDate: "DESC" }) };
      };
      for (const first of [{ orderBySendDate: "DESC" }, { orderBySendDate: "ASC" }, {}] as crm.GetCampaignsArgs[]) {
        useEmulator();
        const { result, requests } = await counted(() => program(first));
        assert.deepEqual(requests, { "GET /api/3/campaigns": 3 }, JSON.stringify(first));
        assert.equal(result.found.id, "250");
        // Ties (campaigns never sent) keep no order the service promises: the send dates are compared.
        assert.deepEqual(
          result.asc.campaigns.map((c) => c.sdate),
          ascending,
          JSON.stringify(first),
        );
        assert.deepEqual(
          result.desc.campaigns.map((c) => c.sdate),
          descending,
          JSON.stringify(first),
        );
      }
    });

    it("share a failed walk too, each lookup failing in its own name", async () => {
      const { requests } = await counted(() =>
        Promise.all([
          refused(() => crm.getCampaigns({}, { maxRecords: 100 }), "too_many_records", /^crm\.getCampaigns: 261 records match/),
          refused(() => crm.getCampaign({ name: "Campaign 250" }, { maxRecords: 100 }), "too_many_records", /^crm\.getCampaign: 261 records match/),
        ]),
      );
      assert.deepEqual(requests, { "GET /api/3/campaigns": 1 });
    });
  });

  describe("arguments", () => {
    it("are refused before any request, each problem named", async () => {
      const bad = (value: unknown) => value as never;
      await refused(() => crm.getCampaign(bad({})), "invalid_argument", /^crm\.getCampaign: give either the id or the name of the campaign, not both\.$/, true);
      await refused(
        () => crm.getContact(bad({ name: "Ada" })),
        "invalid_argument",
        /name is not a field of the arguments of a contact lookup; the fields are: email, id; give either the email or the id/,
        true,
      );
      await refused(() => crm.getCampaign(bad({ id: "7", name: "Campaign 007" })), "invalid_argument", /not both/, true);
      await refused(() => crm.getCampaign(bad({ id: "seven" })), "invalid_argument", /^crm\.getCampaign: id must be the id of the campaign: digits/, true);
      await refused(
        () => crm.getAutomations(bad({ nameContain: "x" })),
        "invalid_argument",
        /nameContain is not a field of the arguments of getAutomations; the fields are: nameContains, status/,
        true,
      );
      await refused(() => crm.getCampaigns(bad({ orderBySendDate: "NEWEST" })), "invalid_argument", /orderBySendDate must be one of ASC, DESC/, true);
      await refused(
        () => crm.getAutomations({}, { maxRecords: 0 }),
        "invalid_argument",
        /^crm\.getAutomations options: maxRecords must be at least 1\.$/,
        true,
      );
    });

    it("never carry the API token into a message", async () => {
      useEmulator("wrong-key-5e3a");
      await assert.rejects(crm.getAutomations(), (error: Error) => {
        assert.match(error.message, /^crm\.getAutomations: the service answered 403.*the service refused the key in crm:apiToken/);
        assert.doesNotMatch(error.message, /wrong-key-5e3a/);
        return true;
      });
    });
  });

  // The program runner prints an error with frames through util.inspect, which loops for minutes on
  // some Node.js releases (provider/node-version.ts): every error a lookup rejects with has none.
  describe("errors, as a program meets them", () => {
    const everyLookup: Record<string, () => Promise<unknown>> = {
      getAccounts: () => crm.getAccounts(),
      getAccount: () => crm.getAccount({ id: "1" }),
      getAutomations: () => crm.getAutomations(),
      getAutomation: () => crm.getAutomation({ name: "Welcome series" }),
      getCampaigns: () => crm.getCampaigns(),
      getCampaign: () => crm.getCampaign({ id: "1" }),
      getContact: () => crm.getContact({ email: "ada@example.com" }),
      getCustomObjectSchemas: () => crm.getCustomObjectSchemas(),
      getCustomObjectRecords: () => crm.getCustomObjectRecords({ schemaId: SUBSCRIPTIONS }),
      getLists: () => crm.getLists(),
      getList: () => crm.getList({ name: "News" }),
      getTags: () => crm.getTags(),
      getTag: () => crm.getTag({ name: "VIP" }),
      getContactCustomFields: () => crm.getContactCustomFields(),
      getContactCustomField: () => crm.getContactCustomField({ name: "Plan" }),
      getPipelines: () => crm.getPipelines(),
      getPipeline: () => crm.getPipeline({ name: "Sales" }),
      getUserGroups: () => crm.getUserGroups(),
      getUserGroup: () => crm.getUserGroup({ name: "Reps" }),
      getUsers: () => crm.getUsers(),
      getUser: () => crm.getUser({ name: "ada" }),
    };
    const lookupsExported = Object.keys(crm).filter((name) => /^get[A-Z]\w*$/.test(name) && !name.endsWith("Output"));

    const framelessRejection = async (lookup: string, run: () => Promise<unknown>, message: RegExp) => {
      await assert.rejects(run(), (error: Error) => {
        assert.match(error.message, message);
        assert.ok(!error.stack, `${lookup} rejected with stack frames: ${error.stack}`);
        // What the program runner prints: the message alone.
        assert.doesNotMatch(inspect(error, { colors: true }), /\n\s+at /);
        return true;
      });
    };

    it("cover every lookup the package exports", () => {
      assert.deepEqual(Object.keys(everyLookup).sort(), lookupsExported.sort());
    });

    for (const [problem, settings, message] of [
      ["no API token", { "crm:apiUrl": "http://127.0.0.1:9" }, /no CRM API token is configured; run `pulumi config set --secret crm:apiToken/],
      ["no API address", { "crm:apiToken": "key-1" }, /no CRM API address is configured/],
      ["a malformed address", { "crm:apiUrl": "myaccount.api-us1.com", "crm:apiToken": "key-1" }, /crm:apiUrl must be an absolute URL/],
      ["a plain-http address", { "crm:apiUrl": "http://myaccount.api-us1.com", "crm:apiToken": "key-1" }, /crm:apiUrl must use https/],
    ] as const) {
      it(`with ${problem}, reject with the setting's message and no stack frames`, async () => {
        useStackConfig(configOf(settings));
        for (const [lookup, run] of Object.entries(everyLookup)) await framelessRejection(lookup, run, new RegExp(`^crm\\.${lookup}: ${message.source}`));
      });
    }

    it("refused by the service, not found or given bad arguments, reject without stack frames", async () => {
      await framelessRejection("getCampaign", () => crm.getCampaign({ id: "99999" }), /no campaign has the id 99999/);
      await framelessRejection("getAutomation", () => crm.getAutomation({ name: "Welcome series" }), /2 automations have the name/);
      await framelessRejection("getCampaigns", () => crm.getCampaigns({ status: -1 }), /status must not be negative/);
      useEmulator("wrong-key-5e3a");
      await framelessRejection("getAccounts", () => crm.getAccounts(), /the service answered 403/);
    });
  });

  describe("getAccounts and getAccount", () => {
    let acmeId: string;
    before(async () => {
      for (let index = 1; index <= 120; index++) {
        await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: `Lookup Co ${String(index).padStart(3, "0")}` } });
      }
      acmeId = (await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: "Acme Lookup Inc", accountUrl: "https://acme.example" } })).body
        .account.id;
      const contact = (await emulatorCall(emulator, "POST", "/api/3/contacts", { contact: { email: "ada@acme.example" } })).body.contact.id;
      await emulatorCall(emulator, "POST", "/api/3/accountContacts", { accountContact: { account: Number(acmeId), contact: Number(contact) } });
    });

    it("walks the accounts a search matches, 120 in 2 requests, with their counters", async () => {
      const { result, requests } = await counted(() => crm.getAccounts({ search: "Lookup Co" }));
      assert.equal(result.accounts.length, 120);
      assert.deepEqual(requests, { "GET /api/3/accounts": 2 });
      assert.deepEqual(
        { ...result.accounts[0], id: "", createdTimestamp: "", updatedTimestamp: "" },
        {
          id: "",
          name: "Lookup Co 001",
          accountUrl: null,
          createdTimestamp: "",
          updatedTimestamp: "",
          contactCount: 0,
          dealCount: 0,
        },
      );
      assert.ok((await crm.getAccounts()).accounts.length >= 121);
    });

    it("finds one by name regardless of case, or by id, with its contact count", async () => {
      const byName = await crm.getAccount({ name: "ACME lookup inc" });
      assert.deepEqual(
        [byName.id, byName.name, byName.accountUrl, byName.contactCount, byName.dealCount],
        [acmeId, "Acme Lookup Inc", "https://acme.example", 1, 0],
      );
      assert.match(byName.createdTimestamp!, /Z$/);
      assert.deepEqual(await crm.getAccount({ id: acmeId }), byName);
      await refused(() => crm.getAccount({ name: "Lookup Co" }), "not_found", /no account has the name "Lookup Co"/);
      await refused(() => crm.getAccount({ id: "99999" }), "not_found", /no account has the id 99999/);
    });
  });

  describe("getLists, getTags, getContactCustomFields and their single forms", () => {
    before(async () => {
      for (let index = 1; index <= 150; index++) {
        const tag = `Tag ${String(index).padStart(3, "0")}`;
        await emulatorCall(emulator, "POST", "/api/3/tags", { tag: { tag, tagType: index === 7 ? "template" : "contact" } });
      }
      await emulatorCall(emulator, "POST", "/api/3/tags", { tag: { tag: "Tag 007", tagType: "contact", description: "The contacts' one" } });
      await emulatorCall(emulator, "POST", "/api/3/lists", {
        list: { name: "Lookup news", stringid: "lookup-news", sender_url: "https://acme.example", sender_reminder: "You signed up." },
      });
      await emulatorCall(emulator, "POST", "/api/3/fields", { field: { title: "Lookup plan", type: "dropdown", descript: "The plan" } });
    });

    it("walk each collection once per run, whatever lookups of it the run makes and in whatever order", async () => {
      const lookups = async () => [
        await crm.getTag({ name: "tag 120" }),
        await crm.getTags({ nameContains: "TAG 01" }),
        await crm.getTags({ tagType: "template" }),
      ];
      const { result, requests } = await counted(lookups);
      const [one, some, templates] = result as [crm.TagInfo, crm.GetTagsResult, crm.GetTagsResult];
      assert.equal(one.tag, "Tag 120");
      assert.deepEqual(
        some.tags.map((tag) => tag.tag),
        ["Tag 010", "Tag 011", "Tag 012", "Tag 013", "Tag 014", "Tag 015", "Tag 016", "Tag 017", "Tag 018", "Tag 019"],
      );
      assert.deepEqual(
        templates.tags.map((tag) => [tag.tag, tag.tagType, tag.description]),
        [["Tag 007", "template", null]],
      );
      assert.deepEqual(requests, { "GET /api/3/tags": 2 });
    });

    it("find a list by its exact name and a field by its title regardless of case, typed; a tag name of two types is ambiguous", async () => {
      const list = await crm.getList({ name: "Lookup news" });
      assert.deepEqual(
        { ...list, id: "", cdate: "" },
        { id: "", name: "Lookup news", stringid: "lookup-news", senderUrl: "https://acme.example", senderReminder: "You signed up.", cdate: "" },
      );
      assert.equal((await crm.getList({ id: list.id })).name, "Lookup news");
      await refused(() => crm.getList({ name: "lookup NEWS" }), "not_found", /^crm\.getList: no list has the name "lookup NEWS"\.$/);
      const field = await crm.getContactCustomField({ name: "LOOKUP PLAN" });
      assert.deepEqual([field.title, field.type, field.description, field.defaultValue], ["Lookup plan", "dropdown", "The plan", null]);
      assert.ok(field.perstag);
      assert.deepEqual(
        (await crm.getContactCustomFields({ nameContains: "plan" })).fields.map((found) => found.id),
        [field.id],
      );
      await refused(
        () => crm.getTag({ name: "Tag 007" }),
        "ambiguous",
        /^crm\.getTag: 2 tags have the name "Tag 007" \(ids \d+, \d+\); look the tag up by its id instead\.$/,
      );
      await refused(() => crm.getTags({ tagType: "deal" } as never), "invalid_argument", /^crm\.getTags: tagType must be one of contact, template\.$/, true);
    });
  });

  describe("getContact", () => {
    it("finds a contact by email regardless of case, or by id", async () => {
      const created = (await emulatorCall(emulator, "POST", "/api/3/contacts", { contact: { email: "Grace@Example.com", firstName: "Grace" } })).body.contact;
      const byEmail = await crm.getContact({ email: "grace@EXAMPLE.com" });
      assert.deepEqual([byEmail.id, byEmail.email, byEmail.firstName, byEmail.lastName, byEmail.phone], [created.id, "Grace@Example.com", "Grace", null, null]);
      assert.deepEqual(await crm.getContact({ id: created.id }), byEmail);
      await refused(() => crm.getContact({ email: "nobody@example.com" }), "not_found", /^crm\.getContact: no contact has the email "nobody@example\.com"\.$/);
      await refused(() => crm.getContact({ id: "424242" }), "not_found", /no contact has the id 424242/);
    });
  });

  describe("getCustomObjectSchemas and getCustomObjectRecords", () => {
    const externalIds = async (args: Omit<crm.GetCustomObjectRecordsArgs, "schemaId">) =>
      (await crm.getCustomObjectRecords({ schemaId: SUBSCRIPTIONS, ...args })).records.map((record) => record.externalId);

    it("lists the schemas, typed", async () => {
      const { schemas } = await crm.getCustomObjectSchemas();
      assert.deepEqual(
        schemas.map((schema) => schema.slug),
        ["subscription", "support-ticket"],
      );
      const subscription = schemas[0];
      assert.deepEqual(subscription.fields[0], {
        id: "plan",
        labels: { singular: "Plan", plural: "Plans" },
        type: "dropdown",
        required: true,
        scale: null,
        options: ["Basic", "Pro", "Enterprise"],
      });
      assert.deepEqual(
        subscription.relationships.map((r) => [r.id, r.namespace, r.hasMany]),
        [
          ["primary-contact", "contacts", false],
          ["account", "accounts", false],
        ],
      );
      assert.equal(subscription.createdTimestamp, "2024-03-01T12:00:00.000Z");
    });

    it("filters on fields with every operator, eq when none is given", async () => {
      const cases: Array<[crm.CustomObjectFilter, string[]]> = [
        [{ field: "plan", value: "Pro" }, ["sub-2", "sub-4"]],
        [{ field: "plan", op: "eq", value: "Basic" }, ["sub-1"]],
        [{ field: "seats", op: "lt", value: 25 }, ["sub-1"]],
        [{ field: "seats", op: "lte", value: 25 }, ["sub-1", "sub-2"]],
        [{ field: "seats", op: "gt", value: 25 }, ["sub-3"]],
        [{ field: "seats", op: "gte", value: 25 }, ["sub-2", "sub-3"]],
        [{ field: "notes", op: "contains", value: "up*candidate" }, ["sub-2"]],
        [{ field: "plan", op: "in", value: ["Basic", "Enterprise"] }, ["sub-1", "sub-3"]],
        [{ field: "seats", op: "blank" }, ["sub-4"]],
        [{ field: "seats", op: "not_blank" }, ["sub-1", "sub-2", "sub-3"]],
      ];
      for (const [filter, expected] of cases) assert.deepEqual(await externalIds({ filters: [filter] }), expected, JSON.stringify(filter));
    });

    it("filters on root properties and relationships, AND-ing filters, and orders by fields and properties", async () => {
      assert.deepEqual(await externalIds({ filters: [{ property: "externalId", value: "sub-3" }] }), ["sub-3"]);
      assert.deepEqual(await externalIds({ filters: [{ property: "createdTimestamp", op: "gte", value: "2024-03-04" }] }), ["sub-3", "sub-4"]);
      assert.deepEqual(
        await externalIds({
          filters: [
            { relationship: "primary-contact", value: 11 },
            { field: "plan", value: "Pro" },
          ],
        }),
        ["sub-4"],
      );
      assert.deepEqual(await externalIds({ orders: [{ field: "seats", direction: "DESC" }] }), ["sub-3", "sub-2", "sub-1", "sub-4"]);
      assert.deepEqual(await externalIds({ orders: [{ property: "createdTimestamp", direction: "DESC" }], limit: 2 }), ["sub-4", "sub-3"]);
      const [record] = (await crm.getCustomObjectRecords({ schemaId: SUBSCRIPTIONS, filters: [{ property: "externalId", value: "sub-2" }] })).records;
      assert.deepEqual(record.fields, { plan: "Pro", seats: 25, "renewal-date": "2025-03-01", notes: "Upsell candidate" });
      assert.deepEqual(record.relationships, { "primary-contact": ["12"] });
    });

    it("walks 151 records in 2 requests; a limit ends the walk early", async () => {
      for (let index = 0; index < 150; index++) {
        await emulatorCall(emulator, "POST", `/api/3/customObjects/records/${TICKETS}`, {
          record: {
            externalId: `ticket-${index + 2}`,
            fields: [
              { id: "subject", value: `Subject ${index}` },
              { id: "priority", value: index % 5 },
            ],
          },
        });
      }
      const all = await counted(() => crm.getCustomObjectRecords({ schemaId: TICKETS }));
      assert.equal(all.result.records.length, 151);
      assert.deepEqual(all.requests, { "GET /api/3/customObjects/records/:schemaId": 2 });
      const limited = await counted(() => crm.getCustomObjectRecords({ schemaId: TICKETS, filters: [{ field: "priority", op: "gte", value: 3 }], limit: 5 }));
      assert.equal(limited.result.records.length, 5);
      assert.ok(limited.result.records.every((record) => Number(record.fields.priority) >= 3));
      assert.deepEqual(limited.requests, { "GET /api/3/customObjects/records/:schemaId": 1 });
      await refused(
        () => crm.getCustomObjectRecords({ schemaId: TICKETS }, { maxRecords: 150 }),
        "too_many_records",
        /151 records match, .*add filters or a limit/,
      );
    });

    it("refuses an unknown operator or a malformed filter or order before any request", async () => {
      const bad = (filters: unknown, orders?: unknown) =>
        crm.getCustomObjectRecords({ schemaId: SUBSCRIPTIONS, filters: filters as never, orders: orders as never });
      await refused(
        () => bad([{ field: "seats", op: "near", value: 3 }]),
        "invalid_argument",
        /filters\.0\.op must be one of eq, lt, lte, gt, gte, contains, in, blank, not_blank/,
        true,
      );
      await refused(
        () => bad([{ field: "seats", relationship: "account", value: 3 }]),
        "invalid_argument",
        /filters\.0\.property exactly one of property, field or relationship/,
        true,
      );
      await refused(() => bad([{ value: 3 }]), "invalid_argument", /exactly one of property, field or relationship/, true);
      await refused(() => bad([{ field: "seats", op: "gt" }]), "invalid_argument", /filters\.0\.value must be one string or number for gt/, true);
      await refused(() => bad([{ field: "seats", op: "blank", value: "" }]), "invalid_argument", /filters\.0\.value must not be given for blank/, true);
      await refused(() => bad([{ field: "plan", op: "in", value: [] }]), "invalid_argument", /must be a list of at least one value for in/, true);
      await refused(() => bad([{ field: "plan", op: "in", value: ["Pro,Basic"] }]), "invalid_argument", /must not hold commas for in/, true);
      await refused(() => bad([{ field: "seats]", value: 3 }]), "invalid_argument", /filters\.0\.field must not contain \[ or \]/, true);
      await refused(() => bad([{ field: "seats", value: 3, operator: "gt" }]), "invalid_argument", /operator is not a field of a filter/, true);
      await refused(() => bad([], [{ field: "seats" }]), "invalid_argument", /orders\.0\.direction is required: one of ASC, DESC/, true);
      await refused(() => bad([], [{ direction: "ASC" }]), "invalid_argument", /orders\.0\.property exactly one of property or field/, true);
      await refused(() => crm.getCustomObjectRecords({ schemaId: SUBSCRIPTIONS, limit: 0 }), "invalid_argument", /limit must be at least 1/, true);
      await refused(
        () => crm.getCustomObjectRecords({ schemaId: SUBSCRIPTIONS, limit: 20_000 }),
        "invalid_argument",
        /limit must be at most maxRecords \(10000\)/,
        true,
      );
    });

    it("says which schema does not exist", async () => {
      await refused(
        () => crm.getCustomObjectRecords({ schemaId: "no-such-schema" }),
        "not_found",
        /^crm\.getCustomObjectRecords: no custom object schema has the id no-such-schema\.$/,
      );
    });
  });

  describe("Output forms, beside the resources they depend on (as Pulumi's invokeOutput)", () => {
    /** A resource standing for crm.Account without its provider: the mocks answer its id. */
    class MockAccount extends pulumi.CustomResource {
      declare readonly name: pulumi.Output<string>;
      constructor(name: string, args: { name: string }, opts?: pulumi.CustomResourceOptions) {
        super("crm:test:Account", name, args, opts);
      }
    }

    /** The runtime against mocks standing for the engine, in a preview or an update: `idOf` answers each resource's id, undefined for one yet to be created. */
    const mockEngine = (preview: boolean, idOf: (inputs: Record<string, string>) => Promise<string | undefined>) =>
      pulumi.runtime.setMocks(
        { newResource: async (resource) => ({ id: await idOf(resource.inputs), state: resource.inputs }), call: () => ({}) },
        "lookups",
        "test",
        preview,
      );
    after(() => pulumi.runtime.resetOptions("", "", -1, "", "", false, ""));

    /** Whether an Output is known, and its value: read through the SDK's internals, as no public API tells an unknown Output from one not resolved yet. */
    async function settled<T>(output: pulumi.Output<T>): Promise<{ known: boolean; value: T | undefined }> {
      const internal = output as unknown as { isKnown: Promise<boolean>; promise(): Promise<T> };
      return { known: await internal.isKnown, value: await internal.promise() };
    }
    const accountIdNamed = async (name: string) => (await crm.getAccount({ name })).id;

    it("stay unknown in a preview, without a request, while an account their arguments come from or dependsOn names is to be created", async () => {
      await mockEngine(true, async () => undefined);
      const acme = new MockAccount("acme", { name: "Acme Preview Co" });
      const team = new pulumi.ComponentResource("crm:test:Team", "team");
      new MockAccount("team-account", { name: "Team Preview Co" }, { parent: team });
      const before = await requestCount(emulator);
      const byArgument = crm.getAccountOutput({ name: acme.name });
      const byDependsOn = crm.getAccountsOutput({ search: "Preview Co" }, { dependsOn: [acme] });
      const byComponent = crm.getCustomObjectSchemasOutput({ dependsOn: team });
      for (const lookup of [byArgument, byDependsOn, byComponent]) assert.deepEqual(await settled<unknown>(lookup), { known: false, value: undefined });
      assert.equal(await requestCount(emulator), before, "a request was made");
      // What uses the result depends on the account, as on an invoke's result.
      assert.ok((await pulumi.getAllResources(byArgument)).has(acme));
      assert.ok((await pulumi.getAllResources(byComponent)).has(team));
    });

    it("read a collection again in another run: each has a resource monitor of its own, as each run of an Automation API inline program", async () => {
      const campaignsRead = async () => (await counted(() => Promise.all([crm.getCampaigns(), crm.getCampaign({ name: "Campaign 250" })]))).requests;
      await mockEngine(true, async () => "1");
      assert.deepEqual(await campaignsRead(), { "GET /api/3/campaigns": 3 });
      assert.deepEqual(await campaignsRead(), {});
      await mockEngine(false, async () => "1");
      assert.deepEqual(await campaignsRead(), { "GET /api/3/campaigns": 3 });
    });

    it("run in a preview once the resources they depend on exist", async () => {
      const existingId = (await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: "Acme Existing Co" } })).body.account.id;
      await mockEngine(true, async () => existingId);
      const acme = new MockAccount("acme", { name: "Acme Existing Co" });
      const found = await settled(crm.getAccountOutput({ name: acme.name }, { dependsOn: acme }));
      assert.deepEqual([found.known, found.value?.id], [true, existingId]);
    });

    it("wait in an update until the accounts they depend on are created", async () => {
      await mockEngine(false, async (inputs) => {
        // Were the lookups not waiting, they would read the accounts meanwhile and find none.
        await delay(300);
        return (await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: inputs.name } })).body.account.id;
      });
      const acme = new MockAccount("acme", { name: "Acme Update Co" });
      const later = new MockAccount("later", { name: "Acme Later Co" });
      const byArgument = crm.getAccountOutput({ name: acme.name });
      const byDependsOn = crm.getAccountOutput({ name: "Acme Later Co" }, { dependsOn: pulumi.output([later]) });
      assert.equal((await settled(byArgument)).value?.id, await accountIdNamed("Acme Update Co"));
      assert.equal((await settled(byDependsOn)).value?.id, await accountIdNamed("Acme Later Co"));
      assert.ok((await pulumi.getAllResources(byDependsOn)).has(later));
    });

    it("refuse a dependsOn holding anything but resources; the Promise form takes none", async () => {
      await mockEngine(false, async () => "1");
      await refused(
        () => settled(crm.getAccountOutput({ name: "Acme" }, { dependsOn: ["acme" as never] })),
        "invalid_argument",
        /^crm\.getAccountOutput options: dependsOn must hold resources only\.$/,
        true,
      );
      const acme = new MockAccount("acme", { name: "Acme" });
      await refused(
        () => crm.getAccount({ name: "Acme" }, { dependsOn: acme } as never),
        "invalid_argument",
        /^crm\.getAccount options: dependsOn is not a field of the lookup options/,
        true,
      );
    });
  });
});
