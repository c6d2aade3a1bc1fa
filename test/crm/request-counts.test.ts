// What a deployment's calls cost in requests, at the provider level (the scenarios of
// bench/coalescing.ts): custom-field values created on the accounts the same deployment
// made, and the reads of a drift check, near their floors, with lost answers and drift
// still seen.

import assert from "node:assert/strict";
import * as account from "../../provider/crm/account";
import * as value from "../../provider/crm/account-custom-field-value";
import { CrmClient } from "../../provider/crm/service/client";
import { emulatorCall, emulatorForProvider, type RunningEmulator } from "../../scripts/harness/emulator";
import { startRecordingProxy } from "../support/recording-proxy";
import { accountsToRefresh, created, madeOutOfBand, refreshed, requestsDuring, useEmulator, valueCreates } from "./provider-scenarios";

/** The CLI's default on a 2-core machine (4 per CPU). */
const parallel = 8;

describe("requests of a deployment's calls", function () {
  this.timeout(120_000);
  let emulator: RunningEmulator;
  before(async () => (emulator = await emulatorForProvider()));
  after(async () => emulator.close());
  beforeEach(() => useEmulator(emulator, 0));

  const heldValues = async (accountId: string) =>
    (await emulatorCall(emulator, "GET", `/api/3/accountCustomFieldData?filters[customerAccountId]=${accountId}&limit=100`)).body
      .accountCustomFieldData as Array<{ id: string }>;
  const newFields = (count: number) =>
    madeOutOfBand(emulator, "/accountCustomFieldMeta", count, (n) => ({ accountCustomFieldMetum: { fieldLabel: `Field ${n}`, fieldType: "text" } }));

  describe("custom-field values on accounts the deployment made", () => {
    it(`150 values of 50 accounts and 3 fields at P = ${parallel}: about a bulk create and a read-back per account`, async () => {
      const result = await valueCreates(emulator, { accounts: 50, fields: 3, parallel, madeBy: "deployment", run: "counted" });
      console.log(`      ${result.total} requests: ${JSON.stringify(result.byRoute)}`);
      // The floor: per account one bulk create and the page of its newest values that confirms it, and one page of
      // field definitions: 101. No look-up: every other page of values confirms a bulk create. A value handed over
      // apart from its account's others (the engine lets values in as others return) is one POST.
      const pages = result.byRoute["GET /api/3/accountCustomFieldData"];
      assert.equal(pages, result.byRoute["POST /api/3/accountCustomFieldData/bulkCreate"], "a page of values per bulk create, and no look-up");
      assert.ok(result.total <= 130, `${result.total} requests, more than 30% over the floor of 101`);
      assert.equal(new Set(result.values.map(({ id }) => id)).size, 150);
      const held = (await emulatorCall(emulator, "GET", "/api/3/accountCustomFieldData?limit=1")).body.meta.total;
      assert.equal(held, 150);
    });

    it("values handed over one by one while the rate limit holds their requests go out as one bulk", async () => {
      const fields = await newFields(3);
      // The field types are read once per host: by values of another account first.
      const warmUp = await created(account, { name: "Warm-up" });
      await Promise.all(fields.map((customFieldId) => created(value, { accountId: warmUp.id, customFieldId, fieldValue: "w" })));
      const { id: accountId } = await created(account, { name: "Paced" });
      useEmulator(emulator, 5);
      // Another resource's requests fill the second's budget of 5.
      const client = new CrmClient("another resource");
      await Promise.all(Array.from({ length: 5 }, () => client.call({ method: "GET", path: "/accounts" })));
      const sent = await requestsDuring(emulator, () =>
        Promise.all(
          fields.map(async (customFieldId, index) => {
            await new Promise((resolve) => setTimeout(resolve, 50 * index));
            return created(value, { accountId, customFieldId, fieldValue: "v" });
          }),
        ),
      );
      assert.deepEqual(sent.byRoute, { "POST /api/3/accountCustomFieldData/bulkCreate": 1, "GET /api/3/accountCustomFieldData": 1 });
      assert.equal((await heldValues(accountId)).length, 3);
    });

    for (const [what, path, values] of [
      ["a bulk create", "/api/3/accountCustomFieldData/bulkCreate", 3],
      ["a lone create", "/api/3/accountCustomFieldData", 1],
    ] as const) {
      it(`${what} whose answer is lost makes each value once, and each resource gets its own`, async () => {
        let dropped = 0;
        const proxy = await startRecordingProxy(emulator.crmUrl, (_answered, request) => {
          if (dropped > 0 || request.method !== "POST" || request.path !== path) return false;
          dropped++;
          return true;
        });
        useEmulator(emulator, 0, proxy.url);
        try {
          const fields = await newFields(values);
          const { id: accountId } = await created(account, { name: `Lost ${values}` });
          const made = await Promise.all(fields.map((customFieldId) => created(value, { accountId, customFieldId, fieldValue: "v" })));
          assert.equal(dropped, 1, "the answer was dropped");
          assert.deepEqual(made.map(({ id }) => id).sort(), (await heldValues(accountId)).map(({ id }) => String(id)).sort());
          assert.deepEqual(
            made.map(({ props }) => props.customFieldId),
            fields,
          );
        } finally {
          await proxy.close();
        }
      });
    }
  });

  describe("a drift check's reads", () => {
    // 1,000 accounts, alone in the CRM account; a check of the first 1, 100 or all of them.
    let states: Awaited<ReturnType<typeof accountsToRefresh>>;
    before(async () => {
      await fetch(`${emulator.crmUrl}/__emulator/reset`, { method: "POST" });
      states = await accountsToRefresh(emulator, 1000, "Read");
    });

    for (const [objects, requests] of [
      [1, 1],
      [100, 1],
      [1000, 10],
    ]) {
      it(`of ${objects} account${objects > 1 ? "s" : ""} at P = ${parallel}: ${requests} request${requests > 1 ? "s" : ""}`, async () => {
        const checked = states.slice(0, objects);
        const result = await refreshed(emulator, checked, parallel);
        assert.equal(result.total, requests, JSON.stringify(result.byRoute));
        assert.deepEqual(
          result.results.map((read) => read.props),
          checked.map(({ props }) => ({ name: props.name, accountUrl: null })),
        );
      });
    }

    it("see a change and a deletion out of band right after a drift check, and a lone read is one GET", async () => {
      await refreshed(emulator, states, parallel);
      const [renamed, deleted] = [states[500], states[700]];
      await emulatorCall(emulator, "PUT", `/api/3/accounts/${renamed.id}`, { account: { name: "Renamed", accountUrl: "https://x.example" } });
      await emulatorCall(emulator, "DELETE", `/api/3/accounts/${deleted.id}`);
      // At once: the pages the first check walked must not answer the second.
      const again = await refreshed(emulator, states, parallel);
      assert.deepEqual(again.results[500], {
        id: renamed.id,
        props: { name: "Renamed", accountUrl: "https://x.example" },
        inputs: { name: "Renamed", accountUrl: "https://x.example" },
      });
      assert.deepEqual(again.results[700], {}, "the deleted account is gone from the state");
      const others = (list: unknown[]) => list.filter((_, index) => index !== 500 && index !== 700);
      assert.deepEqual(others(again.results.map((read) => read.props?.name)), others(states.map(({ props }) => props.name)));
      // The pages, and the deleted account's own GET: missing from the pages is not proof of deletion.
      assert.deepEqual(again.byRoute, { "GET /api/3/accounts": 10, "GET /api/3/accounts/:id": 1 });

      await emulatorCall(emulator, "PUT", `/api/3/accounts/${renamed.id}`, { account: { name: "Renamed again" } });
      const alone = await refreshed(emulator, [renamed], parallel);
      assert.equal(alone.results[0].props?.name, "Renamed again");
      assert.deepEqual(alone.byRoute, { "GET /api/3/accounts/:id": 1 });
    });

    it("an object read long after its page, by a check of part of the collection, is read again", async () => {
      // A check of the first 250: the walk's last page holds the next 50 too.
      await refreshed(emulator, states.slice(0, 250), parallel);
      await emulatorCall(emulator, "PUT", `/api/3/accounts/${states[280].id}`, { account: { name: "Changed" } });
      // The next check, a moment later: the stream has ended.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const later = await refreshed(emulator, [states[280]], parallel);
      assert.equal(later.results[0].props?.name, "Changed");
      assert.deepEqual(later.byRoute, { "GET /api/3/accounts/:id": 1 });
    });
  });
});
