// A list's permission for a user group (POST /listGroups) and the email activities list
// (GET /emailActivities), issue 54. The reference's examples are test/contract/crm.test.ts's.

import assert from "node:assert/strict";
import { startHarness, type Harness } from "./harness";

describe("CRM list group permissions and email activities", () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());
  beforeEach(() => h.api("POST", "/__emulator/reset"));

  const post = (path: string, body: unknown) => h.api("POST", `/api/3${path}`, body);
  const get = (path: string) => h.api("GET", `/api/3${path}`);
  const newList = async () =>
    (await post("/lists", { list: { name: "News", stringid: "news", sender_url: "https://acme.test", sender_reminder: "You signed up." } })).body.list;
  const permit = (listid: unknown, groupid: unknown) => post("/listGroups", { listGroup: { listid, groupid } });

  describe("POST /listGroups", () => {
    it("answers 201 {listGroup: {list, group, links, id}}, the ids as numbers, as the reference's example", async () => {
      const list = await newList();
      const reply = await permit(Number(list.id), 3);
      assert.equal(reply.status, 201);
      const base = `${h.emulator.crmUrl}/api/3/listGroups/1`;
      assert.deepEqual(reply.body, { listGroup: { list: Number(list.id), group: 3, links: { list: `${base}/list`, group: `${base}/group` }, id: "1" } });
      assert.equal((await h.api("GET", new URL(reply.body.listGroup.links.list).pathname)).body.list.name, "News");
      assert.equal((await h.api("GET", new URL(reply.body.listGroup.links.group).pathname)).body.group.title, "Admin");
    });

    it("shows in the group's listGroups link until the list is deleted", async () => {
      const list = await newList();
      await permit(list.id, "3");
      const ofGroup = async () => (await get("/groups/3/listGroups")).body.listGroups.map((lg: { list: string; group: string }) => [lg.list, lg.group]);
      assert.deepEqual(await ofGroup(), [[list.id, "3"]]);
      await h.api("DELETE", `/api/3/lists/${list.id}`);
      assert.deepEqual(await ofGroup(), []);
    });

    it("refuses a missing or unknown list or group and a pair held already with 422, making nothing", async () => {
      const list = await newList();
      assert.equal((await permit(list.id, 3)).status, 201);
      const cases: Array<[unknown, unknown, string, string]> = [
        [undefined, 3, "field_missing", "list"],
        [list.id, undefined, "field_missing", "group"],
        [99, 3, "field_invalid", "listid"],
        [list.id, 99, "field_invalid", "groupid"],
        [list.id, 3, "duplicate", "groupid"],
      ];
      for (const [listid, groupid, code, field] of cases) {
        const reply = await permit(listid, groupid);
        const { code: answered, source } = reply.body.errors[0];
        assert.deepEqual([reply.status, answered, source.pointer], [422, code, `/data/attributes/${field}`], `${listid}/${groupid}`);
      }
      assert.equal((await get("/groups/3/listGroups")).body.listGroups.length, 1);
    });

    it("serves no read, list or delete, as the reference has none", async () => {
      assert.equal((await get("/listGroups")).status, 405);
      assert.equal((await get("/listGroups/1")).status, 404);
    });
  });

  describe("GET /emailActivities", () => {
    it("answers an empty collection, filtered or not: the emulator sends no email", async () => {
      for (const query of ["", "?filters[subscriberid]=1", "?filters[dealId]=7&limit=5"]) {
        const reply = await get(`/emailActivities${query}`);
        assert.deepEqual([reply.status, reply.body], [200, { emailActivities: [], meta: { total: "0" } }], query);
      }
    });

    it("answers the reference's 400 {} to a filter that is not an id", async () => {
      for (const query of ["filters[subscriberid]=ann", "filters[dealId]=-1"]) {
        const reply = await get(`/emailActivities?${query}`);
        assert.deepEqual([reply.status, reply.body], [400, {}], query);
      }
    });
  });
});
