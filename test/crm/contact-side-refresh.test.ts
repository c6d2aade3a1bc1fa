// The figure issue 46 asks for: a refresh of 100 lists, 100 tags and 50 contact custom fields
// (options and list relations included) reads each collection's pages, not an object a GET.
// The reads arrive as the engine lets them into the host: 8 at a time per collection.

import assert from "node:assert/strict";
import * as contactCustomField from "../../provider/crm/contact-custom-field";
import * as list from "../../provider/crm/list";
import * as tag from "../../provider/crm/tag";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorForProvider, emulatorStats, type RunningEmulator } from "../../scripts/harness/emulator";
import { asHostSends } from "../support/host-struct";
import { checked, providerCode, type ResourceModule } from "../support/provider-steps";

/** Reads every object, at most `parallel` at once, as a refresh does. */
async function refresh(provider: ResourceModule, objects: Array<{ id: string; props: Record<string, unknown> }>, parallel = 8) {
  const queue = [...objects];
  const results: Array<{ props?: Record<string, unknown> }> = [];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let object = queue.shift(); object; object = queue.shift())
        results.push(asHostSends(await provider.read(object.id, object.props)) as { props?: Record<string, unknown> });
    }),
  );
  return results;
}

describe("a refresh of 100 lists, 100 tags and 50 contact custom fields", function () {
  this.timeout(120_000);
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await emulatorForProvider();
    useStackConfig(configOf({ "crm:apiUrl": emulator.crmUrl, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
  });
  after(async () => emulator.close());

  it("reads each collection in a handful of requests, each object as a read alone gives it", async () => {
    const made = async (provider: ResourceModule, inputs: Array<Record<string, unknown>>) => {
      const objects = [];
      for (const news of inputs) {
        const { id, outs } = asHostSends(await provider.create(await checked(provider, news)));
        objects.push({ id: id as string, props: { ...outs, __provider: providerCode } as Record<string, unknown> });
      }
      return objects;
    };
    const numbers = (count: number) => Array.from({ length: count }, (_, index) => index + 1);
    const lists = await made(
      list,
      numbers(100).map((n) => ({ name: `News ${n}`, stringid: `news-${n}`, senderUrl: "https://acme.example", senderReminder: "You signed up." })),
    );
    const tags = await made(
      tag,
      numbers(100).map((n) => ({ tag: `Tag ${n}` })),
    );
    const fields = await made(
      contactCustomField,
      numbers(50).map((n) => ({ title: `Choice ${n}`, type: "dropdown", options: ["A", "B", "C"], listIds: [lists[n].id] })),
    );
    const kinds = { "/lists": [list, lists], "/tags": [tag, tags], "/fields": [contactCustomField, fields] } as const;
    const before = (await emulatorStats(emulator)).byRoute;
    const results = await Promise.all(Object.values(kinds).map(([provider, objects]) => refresh(provider, objects)));
    const after = (await emulatorStats(emulator)).byRoute;
    const requests = Object.fromEntries(
      Object.keys(kinds).map((path) => {
        const routes = Object.keys(after).filter((route) => route.startsWith(`GET /api/3${path}`));
        return [path, routes.reduce((sum, route) => sum + after[route] - (before[route] ?? 0), 0)];
      }),
    );
    console.log(`      requests of the refresh: ${JSON.stringify(requests)}`);
    for (const count of Object.values(requests)) assert.ok(count <= 12, JSON.stringify(requests));
    // What a read alone gives, options and relations included.
    const [, , fieldsRead] = results;
    assert.deepEqual(
      fieldsRead.map((read) => (read.props as { options: string[] }).options),
      fields.map(() => ["A", "B", "C"]),
    );
    assert.deepEqual(new Set(fieldsRead.map((read) => (read.props as { listIds: string[] }).listIds[0])).size, 50);
  });
});
