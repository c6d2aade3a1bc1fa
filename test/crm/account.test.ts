import assert from "node:assert/strict";
import * as provider from "../../provider/crm/account";
import { unknownValue } from "../../provider/kit/inputs";
import { withEveryOutput } from "../../provider/dynamic/door";
import { useStackConfig } from "../../provider/settings";
import { type ScriptedServer, sendJson, startScriptedServer } from "../support/scripted-server";
import { itAdoptsById } from "../support/adoption";
import { configOf, emulatorCall, emulatorForProvider, emulatorStats, requestCount, type RunningEmulator, setFaults } from "../../scripts/harness/emulator";

const providerCode = "exports.handler = ...";

describe("crm.Account provider", () => {
  let emulator: RunningEmulator;
  before(async () => (emulator = await emulatorForProvider()));
  after(async () => emulator.close());
  beforeEach(async () => {
    await fetch(`${emulator.crmUrl}/__emulator/reset`, { method: "POST" });
    useStackConfig(configOf({ "crm:apiUrl": emulator.crmUrl, "crm:apiToken": emulator.apiToken }));
  });

  const checked = async (news: Record<string, unknown>) => {
    const result = await provider.check({}, { ...news, __provider: providerCode });
    assert.equal(result.failures, undefined, JSON.stringify(result.failures));
    return result.inputs!;
  };

  describe("check", () => {
    it("normalizes inputs and keeps __provider", async () => {
      assert.deepEqual(await checked({ name: "Acme" }), {
        name: "Acme",
        accountUrl: null,
        __neverCompared: { adoptExisting: false },
        __provider: providerCode,
      });
    });

    it("names the field and the rule for every bad input, without a request", async () => {
      const before = await requestCount(emulator);
      const result = await provider.check({}, { accountUrl: "ftp://x", adoptExisting: "yes", colour: "red", __provider: providerCode });
      const reasons = Object.fromEntries((result.failures ?? []).map((f) => [f.property, f.reason]));
      assert.match(reasons.name, /^crm\.Account: name is required/);
      assert.match(reasons.accountUrl, /accountUrl must be an http or https URL/);
      assert.match(reasons.adoptExisting, /adoptExisting must be true or false/);
      assert.match(reasons.colour, /colour is not a field of this resource; the fields are: name, accountUrl, adoptExisting/);
      const nameReason = async (name: string) => (await provider.check({}, { name, __provider: providerCode })).failures?.map((f) => f.reason);
      assert.deepEqual(await nameReason("   "), ["crm.Account: name must not be blank"]);
      assert.deepEqual(await nameReason(" Acme"), ['crm.Account " Acme": name must not start or end with spaces']);
      assert.equal(await requestCount(emulator), before);
    });

    it("fails on a missing or malformed setting before any request, so a preview reports it", async () => {
      useStackConfig(configOf({ "crm:apiUrl": emulator.crmUrl }));
      const problem = async () => (await provider.check({}, { name: "Acme" })).failures;
      assert.match(String((await problem())?.[0].reason), /^crm\.Account "Acme": no CRM API token is configured; run `pulumi config set --secret crm:apiToken/);
      assert.equal((await problem())?.[0].property, "");
      useStackConfig(configOf({ "crm:apiUrl": "http://crm.example.com", "crm:apiToken": "k" }));
      assert.match(String((await problem())?.[0].reason), /crm:apiUrl must use https/);
    });

    it("names an argument the class passes through that the resource does not have", async () => {
      const args = { name: "Typo Co", accountURL: "https://typo.example" };
      const result = await provider.check({}, withEveryOutput(args, ["name", "accountUrl"]));
      assert.match(result.failures?.[0]?.reason ?? "", /accountURL is not a field of this resource; the fields are: name, accountUrl, adoptExisting/);
    });

    it("lets values unknown in a preview through unvalidated", async () => {
      const inputs = await checked({ name: unknownValue, accountUrl: "https://a.example" });
      assert.equal(inputs.name, unknownValue);
    });
  });

  describe("diff", () => {
    const olds = { name: "Acme", accountUrl: null, adoptExisting: false, __provider: "old code" };
    it("ignores __provider and adoptExisting, so an upgrade or an opt-in shows no change", async () => {
      const result = await provider.diff("1", olds, { ...olds, adoptExisting: true, __provider: "new code" });
      assert.equal(result.changes, false);
    });
    it("updates in place when name or accountUrl changes, and counts unknowns as changes", async () => {
      assert.deepEqual(await provider.diff("1", olds, { ...olds, accountUrl: "https://a.example" }), {
        changes: true,
        replaces: [],
        deleteBeforeReplace: false,
      });
      assert.equal((await provider.diff("1", olds, { ...olds, name: unknownValue })).changes, true);
    });
  });

  describe("adoption by id", () => {
    let serial = 0;
    itAdoptsById(provider, {
      type: "crm.Account",
      emulator: () => emulator,
      existing: async () => {
        const declared = { name: `Adopted ${++serial}`, accountUrl: "https://adopted.example" };
        return { id: (await emulatorCall(emulator, "POST", "/api/3/accounts", { account: declared })).body.account.id, inputs: declared };
      },
      changes: { name: "Taken over", accountUrl: "https://taken-over.example" },
      updateRoute: "PUT /api/3/accounts/:id",
    });
  });

  describe("create, read, update, delete", () => {
    it("reads back exactly what create returned", async () => {
      const created = await provider.create(await checked({ name: "Acme", accountUrl: "https://acme.example" }));
      assert.match(created.id, /^\d+$/);
      assert.deepEqual(created.outs, { name: "Acme", accountUrl: "https://acme.example" });
      const read = await provider.read(created.id, { ...created.outs, __provider: providerCode });
      assert.deepEqual(read, { id: created.id, props: created.outs, inputs: created.outs });
    });

    it("refuses to take over an existing account of the same name unless adoptExisting is set", async () => {
      const existing = await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: "Initech", accountUrl: "https://old.example" } });
      await assert.rejects(provider.create(await checked({ name: "Initech", accountUrl: "https://new.example" })), (error: Error) => {
        assert.match(error.message, /^crm\.Account "Initech": the service answered 422 \(duplicate\) for field "name"/);
        assert.match(error.message, /set adoptExisting: true/);
        return true;
      });
      const untouched = await emulatorCall(emulator, "GET", `/api/3/accounts/${existing.body.account.id}`);
      assert.equal(untouched.body.account.accountUrl, "https://old.example");

      const adopted = await provider.create(await checked({ name: "Initech", accountUrl: "https://new.example", adoptExisting: true }));
      assert.equal(adopted.id, existing.body.account.id);
      assert.deepEqual(adopted.outs, { name: "Initech", accountUrl: "https://new.example" });
    });

    it("refuses a second resource of the program that declares the same name, before any request and without advising adoption", async () => {
      await provider.create(await checked({ name: "Twin Co" }));
      const before = await requestCount(emulator);
      await assert.rejects(provider.create(await checked({ name: "twin co", adoptExisting: true })), (error: Error) => {
        assert.match(error.message, /two resources of this program declare the account name "twin co"/);
        assert.doesNotMatch(error.message, /adopt/);
        return true;
      });
      assert.equal(await requestCount(emulator), before);
    });

    it("says once that the name exists, and that adoption is only for an account no stack manages", async () => {
      await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: "Umbrella" } });
      await assert.rejects(provider.create(await checked({ name: "Umbrella" })), (error: Error) => {
        assert.equal(error.message.split("already exists").length, 2, error.message);
        assert.match(error.message, /only if no stack manages that account, set adoptExisting: true/);
        return true;
      });
    });

    it("updates name and clears the website", async () => {
      const created = await provider.create(await checked({ name: "Hooli", accountUrl: "https://hooli.example" }));
      const news = await checked({ name: "Hooli XYZ" });
      const updated = await provider.update(created.id, created.outs, news);
      assert.deepEqual(updated.outs, { name: "Hooli XYZ", accountUrl: null });
      const read = await provider.read(created.id, { ...updated.outs, __provider: providerCode });
      assert.deepEqual(read.props, updated.outs);
    });

    it("deletes, treats an already deleted account as gone, and reads it as gone", async () => {
      const created = await provider.create(await checked({ name: "Vandelay" }));
      await provider.delete(created.id, created.outs);
      await provider.delete(created.id, created.outs);
      assert.deepEqual(await provider.read(created.id, created.outs), {});
    });

    it("reports a rejected key without the key", async () => {
      useStackConfig(configOf({ "crm:apiUrl": emulator.crmUrl, "crm:apiToken": "wrong-key-4242" }));
      await assert.rejects(provider.create(await checked({ name: "Acme Refused" })), (error: Error) => {
        assert.match(error.message, /^crm\.Account "Acme Refused": the service answered 403.*the service refused the key in crm:apiToken/);
        assert.ok(!error.message.includes("wrong-key-4242"));
        return true;
      });
    });
  });
});

describe("crm.Account requests", () => {
  let server: ScriptedServer;
  afterEach(async () => server?.close());

  it("leaves an unset website out of the create, sends null to clear it, and fails a write the service did not take", async () => {
    server = await startScriptedServer((req, res) => {
      const sent = JSON.parse(req.body).account;
      // Like the real service given a wrong root key: 200, and nothing changed.
      const account = req.method === "PUT" ? { id: "7", name: "Old", accountUrl: "https://kept.example" } : { id: "7", accountUrl: null, ...sent };
      sendJson(res, req.method === "POST" ? 201 : 200, { account });
    });
    useStackConfig(configOf({ "crm:apiUrl": server.url, "crm:apiToken": "k" }));
    await provider.create({ name: "Sparse", accountUrl: null, adoptExisting: false });
    assert.deepEqual(JSON.parse(server.requests[0].body), { account: { name: "Sparse" } });
    await assert.rejects(provider.update("7", {}, { name: "Sparse", accountUrl: null, adoptExisting: false }), (error: Error) => {
      assert.match(
        error.message,
        /^crm\.Account "Sparse": the service accepted the write but did not take name \(sent "Sparse", service has "Old"\), accountUrl/,
      );
      return true;
    });
    assert.deepEqual(JSON.parse(server.requests[1].body), { account: { name: "Sparse", accountUrl: null } });
  });

  it("takes an account over with a PUT of only the fields that differ", async () => {
    server = await startScriptedServer((req, res) => {
      const held = { id: "5", name: "Five", accountUrl: "https://old.example" };
      sendJson(res, 200, { account: req.method === "PUT" ? { ...held, ...JSON.parse(req.body).account } : held });
    });
    useStackConfig(configOf({ "crm:apiUrl": server.url, "crm:apiToken": "k" }));
    const adopted = await provider.create({ name: "Five", accountUrl: "https://new.example", adoptExisting: false, adoptId: "5" });
    assert.deepEqual(adopted, { id: "5", outs: { name: "Five", accountUrl: "https://new.example" } });
    assert.deepEqual(
      server.requests.map((request) => `${request.method} ${request.url}`),
      ["GET /api/3/accounts/5", "PUT /api/3/accounts/5"],
    );
    assert.deepEqual(JSON.parse(server.requests[1].body), { account: { accountUrl: "https://new.example" } });
  });

  it("deletes accounts that arrive together in one bulk delete, and each on its own when the service refuses it", async () => {
    let refuse = false;
    server = await startScriptedServer((req, res) => {
      if (req.url.startsWith("/api/3/accounts/bulk_delete"))
        return sendJson(res, refuse ? 400 : 200, refuse ? { errors: [{ title: "Refused" }] } : { meta: { success: true } });
      sendJson(res, req.url.endsWith("/9") ? 404 : 200, {});
    });
    useStackConfig(configOf({ "crm:apiUrl": server.url, "crm:apiToken": "k" }));
    const deleteTogether = () => Promise.all(["7", "8", "9"].map((id) => provider.delete(id, { name: `Account ${id}`, accountUrl: null })));
    await deleteTogether();
    refuse = true;
    await deleteTogether();
    const bulk = "DELETE /api/3/accounts/bulk_delete?ids%5B%5D=7&ids%5B%5D=8&ids%5B%5D=9";
    assert.deepEqual(
      server.requests.map((request) => `${request.method} ${request.url}`),
      [bulk, bulk, "DELETE /api/3/accounts/7", "DELETE /api/3/accounts/8", "DELETE /api/3/accounts/9"],
    );
  });
});

describe("crm.Account provider under injected faults", () => {
  let emulator: RunningEmulator;
  // Every kind of failure, including answers lost after the account was made; seeded, and
  // the creates run one after another, so the sequence of faults is the same on every run.
  before(async () => (emulator = await emulatorForProvider({ rateLimit: 5, faults: "429=0.1,503=0.1,reset=0.1,lost=0.15", seed: 7 })));
  after(async () => emulator.close());

  it("creates every account exactly once", async () => {
    const names = Array.from({ length: 12 }, (_, i) => `Faulty ${i}`);
    for (const name of names) {
      const created = await provider.create({ name, accountUrl: null, adoptExisting: false });
      assert.equal(created.outs.name, name);
    }
    await setFaults(emulator, "");
    const stats = await emulatorStats(emulator);
    assert.ok((stats.byStatus.lost ?? 0) > 0 && (stats.byStatus.reset ?? 0) > 0 && (stats.byStatus["503"] ?? 0) > 0, JSON.stringify(stats.byStatus));
    // The provider used this second's share of the account's rate limit.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const listed = (await emulatorCall(emulator, "GET", "/api/3/accounts?limit=100")).body.accounts.map((a: { name: string }) => a.name);
    assert.deepEqual(listed.sort(), [...names].sort());
  });
});
