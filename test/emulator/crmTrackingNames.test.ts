// The tracking names as the reference gives them: site tracking's allowed domains and event
// tracking's events, each only a name, listed, created and deleted by name, whatever the switch.

import assert from "node:assert/strict";
import { startHarness, type Harness } from "./harness";

describe("CRM tracking names: /siteTrackingDomains and /eventTrackingEvents", () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());
  beforeEach(() => h.api("POST", "/__emulator/reset"));

  it("a domain: POST answers 200 with the name, the list answers it with a numeric total, DELETE by name answers 204 with no body", async () => {
    const created = await h.api("POST", "/api/3/siteTrackingDomains", { siteTrackingDomain: { name: "example.com" } });
    assert.deepEqual([created.status, created.body], [200, { siteTrackingDomain: { name: "example.com" } }]);
    assert.deepEqual((await h.api("GET", "/api/3/siteTrackingDomains")).body, { siteTrackingDomains: [{ name: "example.com" }], meta: { total: 1 } });
    const deleted = await h.api("DELETE", "/api/3/siteTrackingDomains/example.com");
    assert.deepEqual([deleted.status, deleted.body], [204, undefined]);
    assert.deepEqual((await h.api("GET", "/api/3/siteTrackingDomains")).body, { siteTrackingDomains: [], meta: { total: 0 } });
  });

  it("an event: POST answers 201, DELETE of its URL-encoded name 200 {}, with event tracking off", async () => {
    await h.api("PUT", "/api/3/eventTracking", { eventTracking: { enabled: false } });
    const created = await h.api("POST", "/api/3/eventTrackingEvents", { eventTrackingEvent: { name: "my new fab event" } });
    assert.deepEqual([created.status, created.body], [201, { eventTrackingEvent: { name: "my new fab event" } }]);
    const deleted = await h.api("DELETE", "/api/3/eventTrackingEvents/my%20new%20fab%20event");
    assert.deepEqual([deleted.status, deleted.body], [200, {}]);
  });

  it("refuses a missing name and a name held already (422), and answers an unknown name 404", async () => {
    const missing = await h.api("POST", "/api/3/eventTrackingEvents", { eventTrackingEvent: {} });
    assert.equal(missing.status, 422);
    assert.deepEqual([missing.body.errors[0].code, missing.body.errors[0].source], ["field_missing", { pointer: "/data/attributes/name" }]);
    await h.api("POST", "/api/3/siteTrackingDomains", { siteTrackingDomain: { name: "example.com" } });
    const twice = await h.api("POST", "/api/3/siteTrackingDomains", { siteTrackingDomain: { name: "example.com" } });
    assert.deepEqual([twice.status, twice.body.errors[0].code], [422, "duplicate"]);
    const unknown = await h.api("DELETE", "/api/3/siteTrackingDomains/other.example");
    assert.deepEqual([unknown.status, unknown.body], [404, { message: "No Result found for SiteTrackingDomain with id other.example" }]);
  });

  it("pages the list by limit and offset", async () => {
    for (const name of ["a", "b", "c"]) await h.api("POST", "/api/3/eventTrackingEvents", { eventTrackingEvent: { name } });
    assert.deepEqual((await h.api("GET", "/api/3/eventTrackingEvents?limit=2&offset=2")).body, { eventTrackingEvents: [{ name: "c" }], meta: { total: 3 } });
  });
});
