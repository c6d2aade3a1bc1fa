// Custom-field values created or updated together go out through the service's bulk
// create and update (issue 11): fewer requests, the same outputs as one write each, a
// refused bulk reported on each resource, and no existing value taken over.

import assert from "node:assert/strict";
import * as provider from "../../provider/crm/account-custom-field-value";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, type RunningEmulator } from "../../scripts/harness/emulator";
import { asHostSends } from "../support/host-struct";
import { checked } from "../support/provider-steps";
import { emulatorBehindProxy, type ProxiedRequest, type RecordingProxy, startRecordingProxy } from "../support/recording-proxy";
import { nonConformingRequests } from "../support/reference-requests";

/** The CLI's default on a 2-core machine (4 per CPU): the engine hands over at most this many writes at once. */
const parallel = 8;

describe("crm.AccountCustomFieldValue writes together", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let proxy: RecordingProxy;
  let serial = 0;
  before(async () => ({ emulator, proxy } = await emulatorBehindProxy()));
  after(async () => {
    await proxy.close();
    await emulator.close();
  });

  const post = async (path: string, body: unknown) => (await emulatorCall(emulator, "POST", `/api/3${path}`, body)).body;
  const newAccount = async () => (await post("/accounts", { account: { name: `Valued ${++serial}` } })).account.id as string;
  const newField = async (fieldType = "text", more: Record<string, unknown> = {}) =>
    (await post("/accountCustomFieldMeta", { accountCustomFieldMetum: { fieldLabel: `F ${++serial}`, fieldType, ...more } })).accountCustomFieldMetum
      .id as string;
  /** Runs `write` over `items` the way the engine does: at most `parallel` at once, the next ones once those return. */
  const inWaves = async <T, R>(items: T[], write: (item: T) => Promise<R>): Promise<Array<PromiseSettledResult<R>>> => {
    const results: Array<PromiseSettledResult<R>> = [];
    for (let start = 0; start < items.length; start += parallel) results.push(...(await Promise.allSettled(items.slice(start, start + parallel).map(write))));
    return results;
  };
  const create = async (inputs: Record<string, unknown>) =>
    asHostSends(await provider.create(await checked(provider, inputs))) as { id: string; outs: Record<string, unknown> };
  const update = async (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) =>
    asHostSends(await provider.update(id, olds, await checked(provider, news)));
  /** An account's values as the service holds them: fieldValue by value id, every page of 100 read. */
  const heldValues = async (accountId: string) => {
    const held: Record<string, unknown> = {};
    for (let offset = 0; ; offset += 100) {
      const page = (await emulatorCall(emulator, "GET", `/api/3/accountCustomFieldData?filters[customerAccountId]=${accountId}&limit=100&offset=${offset}`))
        .body;
      for (const value of page.accountCustomFieldData) held[value.id] = value.fieldValue;
      if (offset + 100 >= Number(page.meta.total)) return held;
    }
  };
  const fulfilled = <R>(results: Array<PromiseSettledResult<R>>) =>
    results.map((result) => {
      if (result.status === "rejected") throw result.reason;
      return result.value;
    });
  /** Requests sent through the proxy while `run` ran, by `METHOD path` with ids as `:id`. */
  const requestsDuring = async (run: () => Promise<unknown>) => {
    const start = proxy.requests.length;
    await run();
    const sent = proxy.requests.slice(start);
    const byRoute: Record<string, number> = {};
    for (const request of sent) {
      const route = `${request.method} /api/3${request.path.slice("/api/3".length).replace(/\/\d+(?=\/|$)/g, "/:id")}`;
      byRoute[route] = (byRoute[route] ?? 0) + 1;
    }
    return { total: sent.length, byRoute };
  };

  it(`200 values on one account: created and updated ${parallel} at a time in bulk, with outputs read gives back`, async () => {
    const accountId = await newAccount();
    const fields: string[] = [];
    for (let n = 0; n < 200; n++) fields.push(await newField());
    let created: Array<{ id: string; outs: Record<string, unknown> }> = [];
    const creates = await requestsDuring(async () => {
      created = fulfilled(await inWaves(fields, (customFieldId) => create({ accountId, customFieldId, fieldValue: `v${customFieldId}` })));
    });
    const waves = Math.ceil(200 / parallel);
    console.log(`      creates: ${creates.total} requests for 200 values, P = ${parallel}: ${JSON.stringify(creates.byRoute)}`);
    assert.equal(creates.byRoute["POST /api/3/accountCustomFieldData/bulkCreate"], waves);
    assert.equal(creates.byRoute["POST /api/3/accountCustomFieldData"], undefined, "no single create");
    // Per wave one bulk create and the page of the account's newest values that confirms it;
    // once, the field definitions (3 pages of 100, 100, 0) and the account's values before the first wave.
    assert.ok(creates.total <= waves * 2 + 3 + 1, `${creates.total} requests`);
    for (const [index, { id, outs }] of created.entries()) {
      assert.deepEqual(outs, { accountId, customFieldId: fields[index], fieldValue: `v${fields[index]}`, fieldType: "text" });
      assert.deepEqual(asHostSends(await provider.read(id, outs)).props, outs);
    }

    let updated: Array<{ outs?: Record<string, unknown> }> = [];
    const updates = await requestsDuring(async () => {
      updated = fulfilled(
        await inWaves(created, ({ id, outs }) => update(id, outs, { accountId, customFieldId: outs.customFieldId, fieldValue: `w${outs.customFieldId}` })),
      );
    });
    console.log(`      updates: ${updates.total} requests for 200 values, P = ${parallel}: ${JSON.stringify(updates.byRoute)}`);
    assert.equal(updates.byRoute["PATCH /api/3/accountCustomFieldData/bulkUpdate"], waves);
    assert.equal(updates.byRoute["PUT /api/3/accountCustomFieldData/:id"], undefined, "no single update");
    // Per wave one bulk update and the page of the account's latest updated values that confirms it.
    assert.ok(updates.total <= waves * 2, `${updates.total} requests`);
    for (const [index, { outs }] of updated.entries()) assert.deepEqual(outs, { ...created[index].outs, fieldValue: `w${fields[index]}` });
    assert.deepEqual(await heldValues(accountId), Object.fromEntries(created.map(({ id }, index) => [id, `w${fields[index]}`])));
  });

  it("confirms updates from the whole listing where the service ignores orders[updatedTimestamp]", async () => {
    const accountId = await newAccount();
    const fields: string[] = [];
    for (let n = 0; n < 120; n++) fields.push(await newField());
    const created = fulfilled(await inWaves(fields, (customFieldId) => create({ accountId, customFieldId, fieldValue: "v" })));
    // The page then comes in the service's own order, which lacks the last values written.
    const unordered = await startRecordingProxy(emulator.crmUrl, undefined, (url) => url.replace(/&?orders%5BupdatedTimestamp%5D=DESC/, ""));
    useStackConfig(configOf({ "crm:apiUrl": unordered.url, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
    try {
      const last = created.slice(-parallel);
      const updated = fulfilled(
        await Promise.allSettled(last.map(({ id, outs }) => update(id, outs, { accountId, customFieldId: outs.customFieldId, fieldValue: "w" }))),
      );
      for (const [index, { outs }] of updated.entries()) assert.deepEqual(outs, { ...last[index].outs, fieldValue: "w" });
      const held = await heldValues(accountId);
      assert.deepEqual(
        last.map(({ id }) => held[id]),
        last.map(() => "w"),
      );
      const routes = unordered.requests.map(
        (request) => `${request.method} ${request.path.replace(/^\/api\/3/, "")}${request.query.includes("offset=100") ? " offset=100" : ""}`,
      );
      assert.deepEqual(routes, [
        "PATCH /accountCustomFieldData/bulkUpdate",
        "GET /accountCustomFieldData",
        "GET /accountCustomFieldData",
        "GET /accountCustomFieldData offset=100",
      ]);
    } finally {
      useStackConfig(configOf({ "crm:apiUrl": proxy.url, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
      await unordered.close();
    }
  });

  it("gives the outputs and state that one write each gives, for every field type", async () => {
    const samples: Array<[string, Record<string, unknown>, unknown, unknown]> = [
      ["text", {}, "gold", "silver"],
      ["date", {}, "03/31/2027", "2028/02/29"],
      ["datetime", {}, "2027-03-31T05:15:00-05:00", "2027-04-01 00:00:00"],
      ["multiselect", { fieldOptions: ["a", "b", "c"] }, "||a||c||", ["b"]],
      ["currency", { fieldDefaultCurrency: "usd" }, 10050, 99],
      ["number", {}, "12.50", -3],
    ];
    const fields: string[] = [];
    for (const [fieldType, more] of samples) fields.push(await newField(fieldType, more));
    const [together, alone] = [await newAccount(), await newAccount()];
    const inputsOf = (accountId: string, index: number, value: unknown) => ({
      accountId,
      customFieldId: fields[index],
      fieldValue: value,
      ...(samples[index][0] === "currency" ? { fieldCurrency: "eur" } : {}),
    });

    const bulk = await requestsDuring(async () => {
      const made = fulfilled(await Promise.allSettled(samples.map(([, , value], index) => create(inputsOf(together, index, value)))));
      const single = [];
      for (const [index, [, , value]] of samples.entries()) single.push(await create(inputsOf(alone, index, value)));
      assert.deepEqual(
        made.map(({ outs }) => ({ ...outs, accountId: alone })),
        single.map(({ outs }) => outs),
      );

      const changed = fulfilled(await Promise.allSettled(made.map(({ id, outs }, index) => update(id, outs, inputsOf(together, index, samples[index][3])))));
      const changedAlone = [];
      for (const [index, { id, outs }] of single.entries()) changedAlone.push(await update(id, outs, inputsOf(alone, index, samples[index][3])));
      assert.deepEqual(
        changed.map(({ outs }) => ({ ...outs, accountId: alone })),
        changedAlone.map(({ outs }) => outs),
      );
      for (const [index, { id }] of made.entries()) assert.deepEqual(asHostSends(await provider.read(id, changed[index].outs!)).props, changed[index].outs);
    });
    assert.equal(bulk.byRoute["POST /api/3/accountCustomFieldData/bulkCreate"], 1);
    assert.equal(bulk.byRoute["PATCH /api/3/accountCustomFieldData/bulkUpdate"], 1);
    // What the service holds is the same too, but for the account and the ids.
    const held = async (accountId: string) =>
      (
        await emulatorCall(emulator, "GET", `/api/3/accountCustomFieldData?filters[customerAccountId]=${accountId}&orders[customFieldId]=ASC`)
      ).body.accountCustomFieldData.map((value: Record<string, unknown>) => ({
        customFieldId: value.customFieldId,
        fieldValue: value.fieldValue,
        fieldCurrency: value.fieldCurrency,
      }));
    assert.deepEqual(await held(together), await held(alone));
  });

  it("a bulk the service refuses writes nothing, and each value is then written on its own, failures on their own resource", async () => {
    const fields = [await newField(), await newField(), await newField()];
    // The field types are known to the host from these values; the third field then goes away out of band.
    fulfilled(await Promise.allSettled(fields.map(async (customFieldId) => create({ accountId: await newAccount(), customFieldId, fieldValue: "x" }))));
    await emulatorCall(emulator, "DELETE", `/api/3/accountCustomFieldMeta/${fields[2]}`);
    const accountId = await newAccount();
    let results: Array<PromiseSettledResult<unknown>> = [];
    const sent = await requestsDuring(async () => {
      results = await Promise.allSettled(fields.map((customFieldId) => create({ accountId, customFieldId, fieldValue: "y" })));
    });
    assert.equal(sent.byRoute["POST /api/3/accountCustomFieldData/bulkCreate"], 1);
    assert.equal(sent.byRoute["POST /api/3/accountCustomFieldData"], 3, "then one create each");
    assert.deepEqual(
      results.slice(0, 2).map((result) => result.status),
      ["fulfilled", "fulfilled"],
    );
    const failure = results[2] as PromiseRejectedResult;
    assert.match(
      failure.reason.message,
      new RegExp(
        `^crm\\.AccountCustomFieldValue of field ${fields[2]} for account ${accountId}: the service answered 422 \\(field_invalid\\).*No custom field with id ${fields[2]}`,
      ),
    );
    const held = (await emulatorCall(emulator, "GET", `/api/3/accountCustomFieldData?filters[customerAccountId]=${accountId}`)).body.accountCustomFieldData;
    assert.deepEqual(held.map((value: Record<string, unknown>) => String(value.customFieldId)).sort(), fields.slice(0, 2).sort());
  });

  describe("a failure of what a bulk's values share (the listing that confirms the bulk)", () => {
    /**
     * The emulator, behind a proxy that refuses (403) the next `refusalsLeft` listings of
     * values once a bulk has gone out: the key lost its permission mid-deployment.
     */
    let refusalsLeft = Infinity;
    let refusing: RecordingProxy;
    const isBulk = (request: ProxiedRequest) => request.path.startsWith("/api/3/accountCustomFieldData/bulk");
    const bulks = () => refusing.requests.filter(isBulk);
    beforeEach(async () => {
      refusalsLeft = Infinity;
      refusing = await startRecordingProxy(emulator.crmUrl, (_answered, request) => {
        if (bulks().length === 0 || refusalsLeft <= 0 || request.method !== "GET" || request.path !== "/api/3/accountCustomFieldData") return false;
        refusalsLeft--;
        return { status: 403, body: { message: "Forbidden" } };
      });
    });
    afterEach(async () => {
      useStackConfig(configOf({ "crm:apiUrl": proxy.url, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
      assert.deepEqual(nonConformingRequests(refusing.requests), []);
      await refusing.close();
    });
    const throughRefusing = () => useStackConfig(configOf({ "crm:apiUrl": refusing.url, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
    /** Each outcome is a failure that begins with its own value's name, says what the shared work met, and that the bulk may have written. */
    const assertEachNamesItsOwn = (outcomes: Array<PromiseSettledResult<unknown>>, accountId: string, fields: string[], consequence: string) =>
      outcomes.forEach((outcome, n) => {
        assert.equal(outcome.status, "rejected", `the value of field ${fields[n]}: ${JSON.stringify(outcome)}`);
        const { message } = (outcome as PromiseRejectedResult).reason as Error;
        assert.match(
          message,
          new RegExp(
            `^crm\\.AccountCustomFieldValue of field ${fields[n]} for account ${accountId}: custom field values of account ${accountId}, written together: the service answered 403`,
          ),
        );
        assert.ok(message.endsWith(`; the bulk request had gone out, so ${consequence}.`), message);
        assert.equal(message.match(/crm\.AccountCustomFieldValue/g)?.length, 1, message);
      });

    it("fails each create in its own name, saying the bulk may have made it, which the next create finds", async () => {
      const accountId = await newAccount();
      const fields = [await newField(), await newField(), await newField()];
      throughRefusing();
      const outcomes = await Promise.allSettled(fields.map((customFieldId) => create({ accountId, customFieldId, fieldValue: "x" })));
      assert.equal(bulks().length, 1);
      assertEachNamesItsOwn(outcomes, accountId, fields, "the service may hold this object already: the next `pulumi up` finds it and names it for adoptId");
      // As it says: the values were made, and each create of them is then refused, naming the value's id for adoptId.
      useStackConfig(configOf({ "crm:apiUrl": proxy.url, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
      const again = await Promise.allSettled(fields.map((customFieldId) => create({ accountId, customFieldId, fieldValue: "x" })));
      for (const outcome of again) assert.match(String((outcome as PromiseRejectedResult).reason?.message), /adoptId: "\d+"/);
    });

    it("fails each update in its own name, saying the bulk may have written it", async () => {
      const accountId = await newAccount();
      const fields = [await newField(), await newField(), await newField()];
      const created = await Promise.all(fields.map((customFieldId) => create({ accountId, customFieldId, fieldValue: "x" })));
      throughRefusing();
      const outcomes = await Promise.allSettled(
        created.map(({ id, outs }) => update(id, outs, { accountId, customFieldId: outs.customFieldId, fieldValue: "y" })),
      );
      assert.equal(bulks().length, 1);
      assertEachNamesItsOwn(outcomes, accountId, fields, "the service may hold the change already: the next `pulumi up` sends it again");
      assert.deepEqual(
        Object.values(await heldValues(accountId)),
        fields.map(() => "y"),
        "as it may: the bulk went out",
      );
    });

    it("fails only the chunk whose confirmation failed: the group's next bulk goes out and is confirmed, and the service holds both chunks' changes", async () => {
      const accountId = await newAccount();
      const fields: string[] = [];
      for (let n = 0; n < 150; n++) fields.push(await newField());
      const created = fulfilled(await Promise.allSettled(fields.map((customFieldId) => create({ accountId, customFieldId, fieldValue: "x" }))));
      throughRefusing();
      // The first chunk's confirmation: the page of the latest updated, then the whole listing.
      refusalsLeft = 2;
      const outcomes = await Promise.allSettled(
        created.map(({ id, outs }) => update(id, outs, { accountId, customFieldId: outs.customFieldId, fieldValue: "y" })),
      );
      assert.deepEqual(
        bulks().map((request) => (request.body as unknown[]).length),
        [100, 50],
        "one group of 150 updates, in two chunks",
      );
      const failed = fields.filter((_, n) => outcomes[n].status === "rejected");
      assert.equal(failed.length, 100);
      assertEachNamesItsOwn(
        outcomes.filter((outcome) => outcome.status === "rejected"),
        accountId,
        failed,
        "the service may hold the change already: the next `pulumi up` sends it again",
      );
      for (const outcome of outcomes.filter((outcome) => outcome.status === "fulfilled"))
        assert.equal((outcome.value as { outs: { fieldValue: string } }).outs.fieldValue, "y");
      // Both chunks went out: the service holds every change, the unconfirmed ones too, as their failures say it may.
      assert.deepEqual(
        Object.values(await heldValues(accountId)),
        fields.map(() => "y"),
      );
    });
  });

  it("never takes over a value the account has already: refused without adoptExisting, taken over out loud with it", async () => {
    const fields = [await newField(), await newField(), await newField(), await newField()];
    const accountId = await newAccount();
    const existing = async (customFieldId: string) =>
      (await post("/accountCustomFieldData", { accountCustomFieldDatum: { customerAccountId: accountId, customFieldId, fieldValue: "theirs" } }))
        .accountCustomFieldDatum.id as string;
    const [refusedId, adoptedId] = [await existing(fields[0]), await existing(fields[1])];
    let results: Array<PromiseSettledResult<unknown>> = [];
    const sent = await requestsDuring(async () => {
      results = await Promise.allSettled([
        create({ accountId, customFieldId: fields[0], fieldValue: "ours" }),
        create({ accountId, customFieldId: fields[1], fieldValue: "ours", adoptExisting: true }),
        create({ accountId, customFieldId: fields[2], fieldValue: "ours" }),
        create({ accountId, customFieldId: fields[3], fieldValue: "ours" }),
      ]);
    });
    // The two free ones in one bulk; the taken ones on the single path, which looks the value up and refuses or takes it over.
    assert.equal(sent.byRoute["POST /api/3/accountCustomFieldData/bulkCreate"], 1);
    assert.equal(sent.byRoute["POST /api/3/accountCustomFieldData"], undefined);
    assert.equal(sent.byRoute["PUT /api/3/accountCustomFieldData/:id"], 1, "the adopted value set to the declared one");
    assert.match(
      (results[0] as PromiseRejectedResult).reason.message,
      new RegExp(
        `a value of field ${fields[0]} for account ${accountId} is taken by the existing object ${refusedId}; remove that value first, or, only if no stack manages that object, set adoptExisting: true`,
      ),
    );
    const value = async (id: string) => (await emulatorCall(emulator, "GET", `/api/3/accountCustomFieldData/${id}`)).body.accountCustomFieldDatum.fieldValue;
    assert.equal(await value(refusedId), "theirs", "left as it was");
    const adopted = (results[1] as PromiseFulfilledResult<{ id: string; outs: Record<string, unknown> }>).value;
    assert.deepEqual([adopted.id, adopted.outs.fieldValue, await value(adoptedId)], [adoptedId, "ours", "ours"]);
    for (const result of results.slice(2)) assert.equal(await value((result as PromiseFulfilledResult<{ id: string }>).value.id), "ours");
  });

  it("sent only operations of the reference, each body valid against its request schema", () => {
    assert.ok(proxy.requests.some((request) => request.path.endsWith("/bulkCreate")));
    assert.deepEqual(nonConformingRequests(proxy.requests), []);
  });
});
