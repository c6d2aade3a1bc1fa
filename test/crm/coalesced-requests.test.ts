// Reads and account deletes that arrive together go out as fewer requests (issue 11):
// what they return is what one request per object returns.

import assert from "node:assert/strict";
import * as account from "../../provider/crm/account";
import { resources, typeOf } from "../../provider/registry";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, emulatorForProvider, emulatorStats, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { asHostSends } from "../support/host-struct";
import { dynamicProviderOf, checked, providerCode, type ResourceModule } from "../support/provider-steps";
import { makeParents, type ResourceExample, resourceExamples } from "../support/resource-examples";

describe("coalesced reads and deletes", () => {
  let emulator: RunningEmulator;
  before(async () => (emulator = await emulatorForProvider()));
  after(async () => emulator.close());
  beforeEach(async () => {
    await fetch(`${emulator.crmUrl}/__emulator/reset`, { method: "POST" });
    useStackConfig(configOf({ "crm:apiUrl": emulator.crmUrl, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
  });

  const post = async (path: string, body: unknown) => (await emulatorCall(emulator, "POST", `/api/3${path}`, body)).body;
  const created = async (provider: ResourceModule, news: Record<string, unknown>) => {
    const result = asHostSends(await provider.create(await checked(provider, news)));
    return { id: result.id as string, props: { ...result.outs, __provider: providerCode } as Record<string, unknown> };
  };
  /** Reads one after the other: each alone in its window, so one GET each. */
  const readAlone = async (provider: ResourceModule, objects: Array<{ id: string; props: Record<string, unknown> }>) => {
    const results = [];
    for (const object of objects) results.push(asHostSends(await provider.read(object.id, object.props)));
    return results;
  };
  const readTogether = async (provider: ResourceModule, objects: Array<{ id: string; props: Record<string, unknown> }>) =>
    (await Promise.all(objects.map((object) => provider.read(object.id, object.props)))).map(asHostSends);
  const listRequests = async (path: string) => (await emulatorStats(emulator)).byRoute[`GET /api/3${path}`] ?? 0;

  // Three objects of each CRM object type, each with its own parents, made through the provider.
  for (const resource of resources) {
    const { inputs, collection } = resourceExamples[typeOf(resource)] as ResourceExample;
    if (!collection) continue;
    it(`${typeOf(resource)}: reads together return what reads alone return, from one page`, async () => {
      const provider = dynamicProviderOf(resource);
      const objects = [];
      for (const n of [1, 2, 3]) objects.push(await created(provider, inputs(await makeParents(emulator, n), n)));
      const alone = await readAlone(provider, objects);
      const pagesBefore = await listRequests(collection.path);
      const together = await readTogether(provider, objects);
      assert.deepEqual(together, alone);
      assert.deepEqual(
        alone.map((result) => result.id),
        objects.map((object) => object.id),
      );
      assert.equal((await listRequests(collection.path)) - pagesBefore, 1, "one page for the three reads");
    });
  }

  it("reads together see each change and deletion made out of band; a gone object is confirmed by its own GET", async () => {
    const objects = [];
    for (const n of [1, 2, 3, 4, 5]) objects.push(await created(account, { name: `Drift ${n}` }));
    await emulatorCall(emulator, "PUT", `/api/3/accounts/${objects[1].id}`, { account: { name: "Renamed", accountUrl: "https://x.example" } });
    await emulatorCall(emulator, "DELETE", `/api/3/accounts/${objects[3].id}`);
    const before = await emulatorStats(emulator);
    const results = await readTogether(account, objects);
    const after = await emulatorStats(emulator);
    assert.deepEqual(results[1].props, { name: "Renamed", accountUrl: "https://x.example" });
    assert.deepEqual(results[1].inputs, { name: "Renamed", accountUrl: "https://x.example" });
    assert.equal(results[3].id, undefined, "the deleted account is still read");
    for (const index of [0, 2, 4]) assert.deepEqual(results[index].props, { name: `Drift ${index + 1}`, accountUrl: null });
    const sent = (route: string) => (after.byRoute[route] ?? 0) - (before.byRoute[route] ?? 0);
    assert.equal(sent("GET /api/3/accounts"), 1);
    assert.equal(sent("GET /api/3/accounts/:id"), 1, "the missing account is looked up on its own");
  });

  it("takes the single GETs when the collection is larger than the pages are worth", async () => {
    for (let n = 0; n < 250; n++) await post("/accounts", { account: { name: `Filler ${n}` } });
    const objects = [];
    for (const n of [1, 2]) objects.push(await created(account, { name: `Wanted ${n}` }));
    const before = await requestCount(emulator);
    const results = await readTogether(account, objects);
    assert.deepEqual(
      results.map((result) => result.props?.name),
      ["Wanted 1", "Wanted 2"],
    );
    // A first page tells the size (3 pages for 252 accounts, more than 2 reads); the two, past it, are fetched alone.
    assert.equal((await requestCount(emulator)) - before, 3);
  });

  it("account deletes together go out as one bulk delete; an account already gone counts as deleted", async () => {
    const objects = [];
    for (const n of [1, 2, 3, 4]) objects.push(await created(account, { name: `Doomed ${n}` }));
    await emulatorCall(emulator, "DELETE", `/api/3/accounts/${objects[0].id}`);
    const before = await emulatorStats(emulator);
    await Promise.all(objects.map((object) => account.delete(object.id, object.props)));
    const after = await emulatorStats(emulator);
    assert.equal(after.requests - before.requests, 1);
    assert.equal((after.byRoute["DELETE /api/3/accounts/bulk_delete"] ?? 0) - (before.byRoute["DELETE /api/3/accounts/bulk_delete"] ?? 0), 1);
    assert.deepEqual((await emulatorCall(emulator, "GET", "/api/3/accounts")).body.accounts, []);
  });

  it("a lone account delete is a plain DELETE", async () => {
    const object = await created(account, { name: "Alone" });
    const before = await emulatorStats(emulator);
    await account.delete(object.id, object.props);
    const after = await emulatorStats(emulator);
    assert.equal((after.byRoute["DELETE /api/3/accounts/:id"] ?? 0) - (before.byRoute["DELETE /api/3/accounts/:id"] ?? 0), 1);
    assert.equal(after.requests - before.requests, 1);
  });
});
