import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { inTempDir, startHarness, type Harness } from "./harness";

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

describe("CRM addresses, brandings, calendars, messages, automations and campaigns", () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());
  beforeEach(() => h.api("POST", "/__emulator/reset"));

  describe("addresses", () => {
    const createAddress = (address: Record<string, unknown>) => h.api("POST", "/api/3/addresses", { address });

    it("POST answers 201 with the sent fields, isDefault and a numeric country; GET answers the 2-character code", async () => {
      const reply = await createAddress({ company_name: "Acme", address_1: "1 Main St", country: "us", is_default: false });
      assert.equal(reply.status, 201);
      const { address } = reply.body;
      assert.deepEqual(Object.keys(address).sort(), ["address1", "companyName", "country", "id", "isDefault", "links"]);
      assert.equal(typeof address.country, "number");
      assert.equal(address.links.forms, `${h.emulator.crmUrl}/api/3/addresses/${address.id}/forms`);
      const fetched = (await h.api("GET", `/api/3/addresses/${address.id}`)).body.address;
      assert.deepEqual(
        [fetched.companyName, fetched.address1, fetched.address2, fetched.district, fetched.country, fetched.allgroup, fetched.isDefault],
        ["Acme", "1 Main St", "", "", "US", "0", "0"],
      );
    });

    it("GET adds snake_case timestamps in naive account-local time and who created and updated it", async () => {
      const { id } = (await createAddress({ company_name: "Acme", address_1: "1 Main St", country: "US" })).body.address;
      const fetched = (await h.api("GET", `/api/3/addresses/${id}`)).body.address;
      assert.match(fetched.created_timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.match(fetched.updated_timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.deepEqual([fetched.created_by, fetched.updated_by], ["1", "1"]);
    });

    it("the account's first address becomes the default unless is_default is sent", async () => {
      const first = (await createAddress({ company_name: "Acme", address_1: "1 Main St", country: "US" })).body.address;
      assert.equal(first.isDefault, "1");
      const second = (await createAddress({ company_name: "Globex", address_1: "2 Side St", country: "CA" })).body.address;
      assert.equal(second.isDefault, "0");
      await h.api("POST", "/__emulator/reset");
      const explicit = (await createAddress({ company_name: "Acme", address_1: "1 Main St", country: "US", is_default: 0 })).body.address;
      assert.equal(explicit.isDefault, "0");
    });

    it("PUT answers flags in the type they were sent in, GET as strings", async () => {
      const { id } = (await createAddress({ company_name: "Acme", address_1: "1 Main St", country: "US" })).body.address;
      const reply = await h.api("PUT", `/api/3/addresses/${id}`, { address: { is_default: 0, allgroup: 1 } });
      assert.deepEqual([reply.body.address.isDefault, reply.body.address.allgroup], [0, 1]);
      const fetched = (await h.api("GET", `/api/3/addresses/${id}`)).body.address;
      assert.deepEqual([fetched.isDefault, fetched.allgroup], ["0", "1"]);
    });

    it("POST answers 422 field_missing with the snake_case pointer for each required field", async () => {
      const full = { company_name: "Acme", address_1: "1 Main St", country: "US" };
      for (const field of Object.keys(full)) {
        const { [field]: _omitted, ...partial } = full as Record<string, string>;
        const reply = await createAddress(partial);
        assert.equal(reply.status, 422);
        assert.equal(reply.body.errors[0].code, "field_missing");
        assert.equal(reply.body.errors[0].source.pointer, `/data/attributes/${field}`);
      }
      assert.equal((await createAddress({ ...full, country: "USA" })).body.errors[0].code, "field_invalid");
      assert.equal((await h.api("GET", "/api/3/addresses")).body.meta.total, "0");
    });

    it("PUT accepts camelCase or snake_case fields; one default address at a time", async () => {
      const first = (await createAddress({ company_name: "Acme", address_1: "1 Main St", country: "US", is_default: true })).body.address;
      const second = (await createAddress({ company_name: "Globex", address_1: "2 Side St", country: "CA" })).body.address;
      const reply = await h.api("PUT", `/api/3/addresses/${second.id}`, {
        address: { companyName: "Globex Inc", address_2: "Suite 5", city: "Toronto", isDefault: 1 },
      });
      assert.equal(reply.status, 200);
      assert.deepEqual(
        [reply.body.address.companyName, reply.body.address.address2, reply.body.address.city, reply.body.address.country, reply.body.address.isDefault],
        ["Globex Inc", "Suite 5", "Toronto", "CA", 1],
      );
      assert.equal((await h.api("GET", `/api/3/addresses/${first.id}`)).body.address.isDefault, "0");
      assert.deepEqual((await h.api("PUT", "/api/3/addresses/3", { address: { city: "x" } })).body, { message: "No Result found for Address with id 3" });
    });

    it("DELETE answers {} then 404 {message}; address groups and lists are deleted by association id", async () => {
      const address = (await createAddress({ company_name: "Acme", address_1: "1 Main St", country: "US", groupid: 3, listid: 7 })).body.address;
      const group = (await h.api("GET", `/api/3/addresses/${address.id}/addressGroup`)).body.addressGroups[0];
      const list = (await h.api("GET", `/api/3/addresses/${address.id}/addressList`)).body.addressLists[0];
      assert.deepEqual([group.groupid, list.listid], ["3", "7"]);
      assert.deepEqual((await h.api("DELETE", `/api/3/addressGroups/${group.id}`)).body, {});
      assert.deepEqual((await h.api("DELETE", `/api/3/addressGroups/${group.id}`)).body, { message: `No Result found for AddressGroup with id ${group.id}` });
      assert.deepEqual((await h.api("DELETE", `/api/3/addressLists/${list.id}`)).body, {});
      assert.equal((await h.api("DELETE", `/api/3/addressLists/${list.id}`)).status, 404);
      assert.deepEqual((await h.api("DELETE", `/api/3/addresses/${address.id}`)).body, {});
      const gone = await h.api("DELETE", `/api/3/addresses/${address.id}`);
      assert.equal(gone.status, 404);
      assert.deepEqual(gone.body, { message: `No Result found for Address with id ${address.id}` });
    });
  });

  describe("brandings", () => {
    it("starts with one branding; GET one and the list answer groupid 3 and flags as strings", async () => {
      const list = await h.api("GET", "/api/3/brandings");
      assert.equal(list.body.meta.total, "1");
      const branding = (await h.api("GET", "/api/3/brandings/1")).body.branding;
      assert.deepEqual(list.body.brandings[0], branding);
      assert.deepEqual([branding.groupid, branding.links, branding.copyright, branding.favicon], ["3", "1", "1", null]);
      assert.equal((await h.api("GET", "/api/3/brandings/2")).status, 404);
    });

    it("PUT changes the given fields, ignores groupid, and turns links off when sent with any value", async () => {
      const updated = await h.api("PUT", "/api/3/brandings/1", { branding: { siteName: "Our CRM", groupid: 7, copyright: false, links: true } });
      assert.equal(updated.status, 200);
      assert.deepEqual(
        [updated.body.branding.siteName, updated.body.branding.groupid, updated.body.branding.copyright, updated.body.branding.links],
        ["Our CRM", "3", "0", "0"],
      );
      const omitted = await h.api("PUT", "/api/3/brandings/1", { branding: { favicon: "https://x.test/f.ico" } });
      assert.deepEqual([omitted.body.branding.links, omitted.body.branding.siteName, omitted.body.branding.favicon], ["1", "Our CRM", "https://x.test/f.ico"]);
      const cleared = await h.api("PUT", "/api/3/brandings/1", { branding: { favicon: "" } });
      assert.equal(cleared.body.branding.favicon, null);
    });

    it("is the account's only branding: it cannot be created or deleted", async () => {
      assert.equal((await h.api("POST", "/api/3/brandings", { branding: { siteName: "Second" } })).status, 405);
      assert.equal((await h.api("DELETE", "/api/3/brandings/1")).status, 405);
      assert.equal((await h.api("GET", "/api/3/brandings")).body.meta.total, "1");
    });

    it("on a plan without template editing, refuses a write of a template, naming it, and changes nothing", async () => {
      const other = await startHarness({ templateEditing: false });
      try {
        const refused = await other.api("PUT", "/api/3/brandings/1", { branding: { siteName: "Changed", publicTemplateCss: "p { color: green; }" } });
        assert.equal(refused.status, 422);
        assert.equal(refused.body.errors[0].source.pointer, "/data/attributes/publicTemplateCss");
        assert.match(refused.body.errors[0].title, /plan/);
        assert.equal((await other.api("GET", "/api/3/brandings/1")).body.branding.siteName, "Marketing Automation");
        assert.equal((await other.api("PUT", "/api/3/brandings/1", { branding: { siteName: "Changed" } })).status, 200);
      } finally {
        await other.close();
      }
      const allowed = await h.api("PUT", "/api/3/brandings/1", { branding: { publicTemplateCss: "p { color: green; }" } });
      assert.equal(allowed.body.branding.publicTemplateCss, "p { color: green; }");
    });
  });

  describe("calendars", () => {
    it("POST answers 200 with a generated token and notification as sent; GET answers it as a string", async () => {
      const reply = await h.api("POST", "/api/3/calendars", { calendar: { title: "Tasks", type: "Deals", notification: 1 } });
      assert.equal(reply.status, 200);
      const { calendar } = reply.body;
      assert.match(calendar.token, /^[0-9a-f]{32}$/);
      assert.equal(calendar.notification, 1);
      assert.match(calendar.cdate, ISO_WITH_OFFSET);
      const fetched = (await h.api("GET", `/api/3/calendars/${calendar.id}`)).body.calendar;
      assert.deepEqual([fetched.notification, fetched.token, fetched.type], ["1", calendar.token, "Deals"]);
      const other = (await h.api("POST", "/api/3/calendars", { calendar: { title: "All", type: "All" } })).body.calendar;
      assert.notEqual(other.token, calendar.token);
    });

    it("POST answers 422 without a title or type, or for a type outside All|Deals|Contacts", async () => {
      assert.equal((await h.api("POST", "/api/3/calendars", { calendar: { type: "All" } })).body.errors[0].source.pointer, "/data/attributes/title");
      assert.equal((await h.api("POST", "/api/3/calendars", { calendar: { title: "x" } })).body.errors[0].code, "field_missing");
      assert.equal((await h.api("POST", "/api/3/calendars", { calendar: { title: "x", type: "Tasks" } })).body.errors[0].code, "field_invalid");
    });

    it("PUT, list, DELETE, and 404 {message} for unknown ids", async () => {
      const calendar = (await h.api("POST", "/api/3/calendars", { calendar: { title: "Tasks", type: "All" } })).body.calendar;
      const updated = await h.api("PUT", `/api/3/calendars/${calendar.id}`, { calendar: { type: "Contacts", notification: 0 } });
      assert.deepEqual([updated.body.calendar.title, updated.body.calendar.type, updated.body.calendar.notification], ["Tasks", "Contacts", 0]);
      assert.equal((await h.api("GET", "/api/3/calendars")).body.meta.total, "1");
      assert.deepEqual((await h.api("DELETE", `/api/3/calendars/${calendar.id}`)).body, {});
      assert.deepEqual((await h.api("GET", `/api/3/calendars/${calendar.id}`)).body, { message: `No Result found for Calendar with id ${calendar.id}` });
    });
  });

  describe("messages", () => {
    const message = { fromname: "Acme", fromemail: "news@acme.test", reply2: "help@acme.test", subject: "Hi %FIRSTNAME%", preheader_text: "Pre" };

    it("POST answers 201; the sender may be sent as fromemail or email and is answered as fromemail", async () => {
      const viaFromemail = await h.api("POST", "/api/3/messages", { message });
      assert.equal(viaFromemail.status, 201);
      assert.deepEqual([viaFromemail.body.message.fromemail, viaFromemail.body.message.subject], ["news@acme.test", "Hi %FIRSTNAME%"]);
      const { fromemail: _unused, ...rest } = message;
      const viaEmail = await h.api("POST", "/api/3/messages", { message: { ...rest, email: "other@acme.test" } });
      assert.equal(viaEmail.body.message.fromemail, "other@acme.test");
    });

    it("POST answers 422 without fromname, sender or reply2", async () => {
      for (const field of ["fromname", "fromemail", "reply2"]) {
        const { [field]: _omitted, ...partial } = message as Record<string, string>;
        const reply = await h.api("POST", "/api/3/messages", { message: partial });
        assert.equal(reply.status, 422, field);
        assert.equal(reply.body.errors[0].code, "field_missing");
      }
    });

    it("GET, PUT, DELETE answering 200 {}, and 404 {message}", async () => {
      const created = (await h.api("POST", "/api/3/messages", { message })).body.message;
      const fetched = (await h.api("GET", `/api/3/messages/${created.id}`)).body.message;
      assert.deepEqual([fetched.fromname, fetched.reply2, fetched.charset], ["Acme", "help@acme.test", "utf-8"]);
      const updated = await h.api("PUT", `/api/3/messages/${created.id}`, { message: { subject: "New", fromemail: "x@acme.test" } });
      assert.deepEqual([updated.body.message.subject, updated.body.message.fromemail, updated.body.message.fromname], ["New", "x@acme.test", "Acme"]);
      assert.equal((await h.api("GET", "/api/3/messages")).body.meta.total, "1");
      const deleted = await h.api("DELETE", `/api/3/messages/${created.id}`);
      assert.equal(deleted.status, 200);
      assert.deepEqual(deleted.body, {});
      assert.deepEqual((await h.api("GET", `/api/3/messages/${created.id}`)).body, { message: `No Result found for Message with id ${created.id}` });
    });
  });

  describe("automations and campaigns (generated)", () => {
    it("lists at least 30 automations with meta starts, filtered and smsLogs, read-only", async () => {
      const reply = await h.api("GET", "/api/3/automations?limit=100");
      assert.equal(Number(reply.body.meta.total) >= 30, true);
      assert.deepEqual([reply.body.meta.filtered, reply.body.meta.smsLogs], [false, []]);
      assert.ok(reply.body.meta.starts.length > 0);
      const automation = reply.body.automations[0];
      for (const field of ["id", "name", "cdate", "mdate", "userid", "status", "entered", "exited", "hidden", "defaultscreenshot", "screenshot"]) {
        assert.ok(field in automation, field);
      }
      assert.equal(automation.links.blocks, `${h.emulator.crmUrl}/api/3/automations/1/blocks`);
      assert.equal((await h.api("POST", "/api/3/automations", { automation: { name: "x" } })).status, 405);
    });

    it("lists at least 250 campaigns, pages them, and orders by send date with unsent ones first", async () => {
      const first = await h.api("GET", "/api/3/campaigns");
      assert.ok(Number(first.body.meta.total) >= 250);
      assert.equal(first.body.campaigns.length, 20);
      const campaign = first.body.campaigns[0];
      for (const field of ["send_amt", "uniqueopens", "tracklinks", "split_type", "reminder_offset_sign", "activerss_items", "scheduleddate"]) {
        assert.ok(field in campaign, field);
      }
      assert.equal(typeof campaign.opens, "string");
      const ordered = (await h.api("GET", "/api/3/campaigns?orders[sdate]=ASC&limit=100")).body.campaigns;
      const dates = ordered.map((c: { sdate: string | null }) => c.sdate);
      assert.equal(dates[0], null);
      const sent = dates.filter((d: string | null) => d !== null);
      assert.deepEqual(sent, [...sent].sort());
      const descending = (await h.api("GET", "/api/3/campaigns?orders[sdate]=DESC&limit=1")).body.campaigns[0].sdate;
      assert.ok(descending >= sent[sent.length - 1]);
    });

    it("campaigns carry created_timestamp and updated_timestamp with the account's offset as cdate, and order by updated_timestamp", async () => {
      const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-05:00$/;
      const campaigns = (await h.api("GET", "/api/3/campaigns?limit=100")).body.campaigns;
      for (const campaign of campaigns) {
        assert.match(campaign.created_timestamp, WITH_OFFSET, campaign.id);
        assert.match(campaign.updated_timestamp, WITH_OFFSET, campaign.id);
        // The same moment as cdate, read either way; never changed before it was made.
        assert.equal(campaign.created_timestamp, campaign.cdate, campaign.id);
        assert.ok(Date.parse(campaign.updated_timestamp) >= Date.parse(campaign.created_timestamp), campaign.id);
      }
      assert.equal((await h.api("GET", "/api/3/campaigns/7")).body.campaign.created_timestamp, campaigns[6].created_timestamp);
      // What a client syncing campaigns asks: the most recently changed first.
      const newest = (await h.api("GET", "/api/3/campaigns?orders[updated_timestamp]=DESC&limit=100")).body.campaigns.map(
        (c: { updated_timestamp: string }) => c.updated_timestamp,
      );
      assert.deepEqual(newest, [...newest].sort().reverse());
    });

    it("GET /campaigns/{id} answers {campaign}, 404 {message} for unknown ids; filters[seriesid] selects", async () => {
      assert.equal((await h.api("GET", "/api/3/campaigns/7")).body.campaign.id, "7");
      assert.deepEqual((await h.api("GET", "/api/3/campaigns/9999")).body, { message: "No Result found for Campaign with id 9999" });
      const bySeries = (await h.api("GET", "/api/3/campaigns?filters[seriesid]=4")).body.campaigns;
      assert.ok(bySeries.length > 0 && bySeries.every((c: { seriesid: string }) => c.seriesid === "4"));
    });

    it("generates the same data on every start", async () => {
      const other = await startHarness();
      try {
        const mine = (await h.api("GET", "/api/3/campaigns?offset=100")).body.campaigns;
        const theirs = (await other.api("GET", "/api/3/campaigns?offset=100")).body.campaigns;
        const withoutLinks = (list: Array<Record<string, unknown>>) => list.map(({ links: _links, ...rest }) => rest);
        assert.deepEqual(withoutLinks(mine), withoutLinks(theirs));
      } finally {
        await other.close();
      }
    });

    it("serves the records of a fixture file instead", () =>
      inTempDir("crm-fixtures-", async (dir) => {
        const fixtures = join(dir, "fixtures.json");
        writeFileSync(fixtures, JSON.stringify({ campaigns: [{ id: "1", name: "Only one", sdate: null }] }));
        const other = await startHarness({ fixtures });
        try {
          assert.deepEqual(
            (await other.api("GET", "/api/3/campaigns")).body.campaigns.map((c: { name: string }) => c.name),
            ["Only one"],
          );
          assert.ok(Number((await other.api("GET", "/api/3/automations")).body.meta.total) >= 30);
        } finally {
          await other.close();
        }
        writeFileSync(fixtures, JSON.stringify({ campaigns: [{ name: "no id" }] }));
        await assert.rejects(startHarness({ fixtures }), /string id/);
      }));
  });
});
