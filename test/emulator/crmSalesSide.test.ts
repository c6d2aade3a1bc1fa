// What a fresh account holds of its sales and team side, as the reference's examples show a
// real account's: the built-in task types, the admin user and the admins' group; and a
// missing group answered 403, as the reference answers it.

import assert from "node:assert/strict";
import { ReferenceDocument } from "../contract/reference";
import { startHarness, type Harness } from "./harness";

const reference = new ReferenceDocument("crm-v3.openapi.json");
/** The reference's example answer of an operation, parsed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const exampleOf = (method: string, template: string, status = 200): any => reference.operation(method, template).responseExamples(status)[0];

describe("CRM account's built-in task types, admin and admins' group", () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());
  beforeEach(() => h.api("POST", "/__emulator/reset"));

  const get = (path: string) => h.api("GET", `/api/3${path}`);

  it("holds the reference's four task types, without timestamps, and gives new ones the ids after them", async () => {
    const { body } = await get("/dealTasktypes");
    const withoutLinks = (types: Array<Record<string, unknown>>) => types.map(({ links: _links, ...type }) => type);
    assert.deepEqual(withoutLinks(body.dealTasktypes), withoutLinks(exampleOf("GET", "/dealTasktypes").dealTasktypes));
    assert.equal(body.meta.total, "4");
    const created = await h.api("POST", "/api/3/dealTasktypes", { dealTasktype: { title: "Skype" } });
    assert.equal(created.body.dealTasktype.id, "5");
    const duplicate = await h.api("POST", "/api/3/dealTasktypes", { dealTasktype: { title: "call" } });
    assert.deepEqual([duplicate.status, duplicate.body.errors[0].code], [422, "duplicate"]);
  });

  it("holds the admin, user 1 as the reference's GET /users/1, in the admins' group 3, the branding's", async () => {
    const { user } = exampleOf("GET", "/users/{id}");
    const admin = (await get("/users/1")).body.user;
    for (const member of ["username", "firstName", "lastName", "email", "phone", "signature", "id"]) assert.equal(admin[member], user[member], member);
    assert.equal((await get("/users/1/userGroup")).body.userGroup.groupid, "3");
    assert.equal((await get("/brandings/1")).body.branding.groupid, "3");
    const group = (await get("/groups/3")).body.group;
    const reference3 = exampleOf("GET", "/groups/{id}").group;
    // Every permission and setting of the reference's group 3; its example's title is a placeholder.
    const settings = (answer: Record<string, unknown>) => Object.fromEntries(Object.entries(answer).filter(([member]) => !["title", "links"].includes(member)));
    assert.deepEqual(settings(group), { ...settings(reference3), pgTagManage: "1" });
    assert.equal(group.title, "Admin");
    const created = await h.api("POST", "/api/3/users", { user: { username: "ada", email: "ada@acme.example", firstName: "Ada", lastName: "L", group: 3 } });
    assert.equal(created.body.user.id, "2");
    assert.equal((await h.api("POST", "/api/3/groups", { group: { title: "Reps" } })).body.group.id, "4");
  });

  it("answers GET /users/me with the key's user, the admin, as the reference's example shows it", async () => {
    const { user } = exampleOf("GET", "/users/me");
    const me = (await get("/users/me")).body.user;
    // The example's username is jdoe where its GET /users/1 says admin: the rest is the same user's.
    for (const member of ["firstName", "lastName", "email", "phone", "signature", "id"]) assert.equal(me[member], user[member], member);
    assert.deepEqual(Object.keys(me.links).sort(), Object.keys(user.links).sort());
    assert.equal(me.username, "admin");
  });

  it("answers a read or an update of a missing group 403 with the reference's message; its delete 404", async () => {
    const expected = (id: string) => ({ message: `No Result found for Group with id ${id}` });
    assert.deepEqual(exampleOf("GET", "/groups/{id}", 403), expected("10"));
    assert.deepEqual(exampleOf("PUT", "/groups/{id}", 403), expected("8"));
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { group: { title: "Gone" } }],
    ] as const) {
      const reply = await h.api(method, "/api/3/groups/99", body);
      assert.deepEqual([reply.status, reply.body], [403, expected("99")], method);
    }
    const deleted = await h.api("DELETE", "/api/3/groups/99");
    assert.deepEqual([deleted.status, deleted.body], [404, expected("99")]);
  });

  it("a reset brings every built-in back", async () => {
    await h.api("DELETE", "/api/3/dealTasktypes/1");
    await h.api("DELETE", "/api/3/users/1");
    await h.api("DELETE", "/api/3/groups/3");
    await h.api("POST", "/__emulator/reset");
    assert.equal((await get("/dealTasktypes/1")).body.dealTasktype.title, "Call");
    assert.equal((await get("/users/1")).body.user.username, "admin");
    assert.equal((await get("/groups/3")).status, 200);
  });
});
