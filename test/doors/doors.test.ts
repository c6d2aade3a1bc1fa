// Both doors, one core: what the native plugin answers is what the resource's core decides,
// as the dynamic class answers it. Each case here is one the plugin once re-derived, and got
// wrong: an unfinished action, an import's associations, the provider named in messages, the
// unknown settings, the plugin's lines, a key given as plain config.

import assert from "node:assert/strict";
import { closedPort } from "../support/loopback";
import { startEmulator } from "../../emulator";
import * as flowRun from "../../provider/chat/flow-run";
import * as account from "../../provider/crm/account";
import * as contactCustomField from "../../provider/crm/contact-custom-field";
import * as contactSync from "../../provider/crm/contact-sync";
import * as tag from "../../provider/crm/tag";
import * as webhook from "../../provider/crm/webhook";
import { DeclaredNames } from "../../provider/kit/unique-names";
import { unknownValue } from "../../provider/kit/inputs";
import { PartlyDoneError } from "../../provider/kit/write-errors";
import { dynamicLifecycle } from "../../provider/dynamic/door";
import { explicitProvider, servePlugin } from "../../provider/plugin/server";
import { providerProto } from "../../provider/plugin/sdk-modules";
import { unknownSettingWarnings, useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { startFakeEngine } from "../support/fake-engine";
import { plain, PluginClient, secret, struct } from "../support/plugin-client";
import { secretSignature } from "../../scripts/harness/pulumi-cli";

const { DIFF_SOME, DIFF_NONE } = providerProto.DiffResponse.DiffChanges;

describe("both doors, one core", () => {
  let emulator: RunningEmulator;
  let engine: Awaited<ReturnType<typeof startFakeEngine>>;
  const plugins: { port: number; stop(): Promise<void> }[] = [];
  const clients: PluginClient[] = [];

  /** A plugin instance of `pkg` logging to the fake engine, configured as the provider `name` (`default` for the stack's). */
  async function plugin(type: string, settings: Record<string, unknown>, name = "default"): Promise<PluginClient> {
    const served = await servePlugin(type.startsWith("chat") ? "chat" : "crm", { engine: engine.address });
    plugins.push(served);
    const client = new PluginClient(served.port, type);
    clients.push(client);
    await client.configure(settings, name);
    return client;
  }

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 0, executionDurationMs: 60_000 });
    engine = await startFakeEngine();
  });
  after(async () => {
    for (const client of clients) client.close();
    for (const served of plugins) await served.stop();
    await engine.stop();
    await emulator.close();
  });

  describe("an action's run that did not finish is carried on by the next up, through either door", () => {
    it("crm.ContactSync stopped part way", async () => {
      const crm = await plugin("crm:index:ContactSync", { apiUrl: emulator.crmUrl, apiToken: emulator.apiToken });
      const { inputs } = await crm.check("sync", { contacts: [{ email: "ada@example.com" }, { email: "grace@example.com" }] });
      const stopped = { ...inputs, created: 1, updated: 0, failed: 0, failures: [], unconfirmed: 0, pending: 1, batchIds: ["1"] };
      assert.equal((await contactSync.diff("sync-1", stopped, inputs)).changes, true, "the dynamic class");
      const diff = await crm.diff("sync", "sync-1", stopped, inputs);
      assert.equal(diff.getChanges(), DIFF_SOME, "the plugin");
      assert.deepEqual(diff.getReplacesList(), []);
      // Finished, the same inputs are no change in either.
      const finished = { ...stopped, pending: 0 };
      assert.equal((await contactSync.diff("sync-1", finished, inputs)).changes, false);
      assert.equal((await crm.diff("sync", "sync-1", finished, inputs)).getChanges(), DIFF_NONE);
    });

    it("chat.FlowRun whose wait timed out", async () => {
      const chat = await plugin("chat:index:FlowRun", { apiUrl: emulator.chatUrl, apiToken: emulator.apiToken, channel: "chat" });
      const { inputs, failures } = await chat.check("run", {
        flowId: "2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31",
        contacts: [{ phone: "+15550100" }],
        waitForCompletion: true,
      });
      assert.deepEqual(failures, []);
      const timedOut = { ...inputs, executionId: "e-1", createdOn: "2026-11-27T10:00:00Z", status: "RUNNING", finishedOn: null, statusReason: null };
      assert.equal((await flowRun.diff("e-1", timedOut, inputs)).changes, true, "the dynamic class");
      assert.equal((await chat.diff("run", "e-1", timedOut, inputs)).getChanges(), DIFF_SOME, "the plugin");
      const ended = { ...timedOut, status: "COMPLETED" };
      assert.equal((await flowRun.diff("e-1", ended, inputs)).changes, false);
      assert.equal((await chat.diff("run", "e-1", ended, inputs)).getChanges(), DIFF_NONE);
    });
  });

  it("an import of an address from its id alone declares its group and list, as pulumi-crm export does", async () => {
    const made = await emulatorCall(emulator, "POST", "/api/3/addresses", {
      address: { company_name: "Made Elsewhere", address_1: "1 Side St", country: "US", groupid: 3, listid: 7 },
    });
    const id = String((made.body as { address: { id: unknown } }).address.id);
    const crm = await plugin("crm:index:Address", { apiUrl: emulator.crmUrl, apiToken: emulator.apiToken });
    const imported = await crm.read("imported", id);
    assert.equal(imported.id, id);
    assert.deepEqual([imported.inputs.groupId, imported.inputs.listId], ["3", "7"]);
    assert.deepEqual([imported.props.groupId, imported.props.listId], ["3", "7"]);
    // What the import declares is what a refresh of it reads back: no change after the import.
    const refreshed = await crm.call<InstanceType<typeof providerProto.ReadResponse>>(
      "read",
      new providerProto.ReadRequest()
        .setId(id)
        .setUrn(crm.urn("imported"))
        .setType("crm:index:Address")
        .setProperties(struct(imported.props))
        .setInputs(struct(imported.inputs)),
    );
    assert.deepEqual(plain(refreshed.getInputs()), imported.inputs);
  });

  it("refuses to import an action by its declared reason, before any request", async () => {
    const crm = await plugin("crm:index:ContactSync", { apiUrl: emulator.crmUrl, apiToken: emulator.apiToken });
    const before = await requestCount(emulator);
    await assert.rejects(
      crm.read("imported", "run-1"),
      /crm\.ContactSync run-1 cannot be imported: its id names a run, which does not tell what the run was declared with/,
    );
    assert.equal(await requestCount(emulator), before);
  });

  describe("names an explicit provider by its name in every message, the default provider by the stack key", () => {
    it("a malformed address", async () => {
      const explicit = await plugin("crm:index:Account", { apiUrl: "127.0.0.1:4100", apiToken: "k" }, "client");
      assert.deepEqual((await explicit.check("a", { name: "A" })).failures, [
        ["", 'crm.Account "A": apiUrl of the provider "client" must be an absolute URL such as https://myaccount.api-us1.com, got "127.0.0.1:4100".'],
      ]);
      const byDefault = await plugin("crm:index:Account", { apiUrl: "127.0.0.1:4100", apiToken: "k" });
      assert.deepEqual((await byDefault.check("a", { name: "A" })).failures, [
        ["", 'crm.Account "A": crm:apiUrl must be an absolute URL such as https://myaccount.api-us1.com, got "127.0.0.1:4100".'],
      ]);
    });

    it("a refused connection", async () => {
      const address = `http://127.0.0.1:${await closedPort()}`;
      const explicit = await plugin("crm:index:Account", { apiUrl: address, apiToken: "k" }, "client");
      await assert.rejects(explicit.create("a", { name: "A" }), (error: Error) =>
        error.message.includes(`apiUrl of the provider "client" is ${address}, which refused the connection`),
      );
    });

    it("a refused key", async () => {
      const explicit = await plugin("crm:index:Account", { apiUrl: emulator.crmUrl, apiToken: "wrong-key-4242" }, "eu");
      await assert.rejects(explicit.create("a", { name: "Refused Key Co" }), (error: Error) => {
        assert.match(
          error.message,
          /the service refused the key in apiToken of the provider "eu": check that it is valid for this account \(give the provider "eu" its apiToken setting\)/,
        );
        assert.doesNotMatch(error.message, /crm:apiToken|wrong-key/);
        return true;
      });
    });

    it("tells the default provider from an explicit one by what the engine says, not by a name pattern", () => {
      const keys = ["apiUrl", "apiToken", "requestsPerSecond"];
      const stack = JSON.stringify({ apiUrl: "https://acme.api-us1.com", apiToken: "k" });
      const asStack = { apiUrl: "https://acme.api-us1.com", apiToken: "k" };
      // The engine's own names for its default provider, with the stack's settings.
      assert.equal(explicitProvider("default", asStack, keys, stack), undefined);
      assert.equal(explicitProvider("default_0_1_0", { ...asStack, version: "0.1.0" }, keys, stack), undefined);
      assert.equal(explicitProvider("default_0_1_0_github_//api.github.com/pulumi-crm/pulumi-crm", { ...asStack, version: "0.1.0" }, keys, stack), undefined);
      // An explicit provider named like it: another name than the engine gives, or other settings than the stack's.
      assert.equal(explicitProvider("default_eu", asStack, keys, stack), "default_eu");
      assert.equal(explicitProvider("default_0_1_0", asStack, keys, stack), "default_0_1_0");
      assert.equal(explicitProvider("default", { ...asStack, apiToken: "other" }, keys, stack), "default");
    });

    it("a missing key", async () => {
      const explicit = await plugin("crm:index:Account", { apiUrl: emulator.crmUrl }, "client");
      assert.match((await explicit.check("a", { name: "A" })).failures[0][1], /give the provider "client" its apiToken setting/);
    });
  });

  it("warns of an unknown setting as the dynamic classes do, naming the closest key, and fails nothing", async () => {
    const checkConfig = (client: PluginClient, name: string, news: Record<string, unknown>) =>
      client.call<InstanceType<typeof providerProto.CheckResponse>>(
        "checkConfig",
        new providerProto.CheckRequest().setUrn(`urn:pulumi:dev::shop::pulumi:providers:crm::${name}`).setOlds(struct({})).setNews(struct(news)),
      );
    const client = await plugin("crm:index:Account", { apiUrl: emulator.crmUrl, apiToken: emulator.apiToken });
    const explicit = await checkConfig(client, "client", { apiUrl: "https://x.api-us1.com", apiTokn: "t", version: "0.1.0" });
    assert.deepEqual(explicit.getFailuresList(), []);
    const byDefault = await checkConfig(client, "default_0_1_0", { apiUrl: "https://x.api-us1.com", requestPerSecond: 2, version: "0.1.0" });
    assert.deepEqual(byDefault.getFailuresList(), []);
    const warnings = engine.lines.filter((line) => line.severity === "warning" && line.urn.includes("pulumi:providers:crm")).map((line) => line.message);
    assert.deepEqual(warnings, [
      'pulumi-crm: apiTokn of the provider "client" is not a setting of pulumi-crm and is ignored; its settings of crm are, closest first: apiToken of the provider "client", apiUrl of the provider "client", requestsPerSecond of the provider "client".',
      // The dynamic classes' warning of the same stack key, word for word.
      ...unknownSettingWarnings(["crm:requestPerSecond"], "shop"),
    ]);
  });

  it("returns the API key marked secret from CheckConfig, so that the state encrypts it even when given as plain config", async () => {
    const client = await plugin("crm:index:Account", { apiUrl: emulator.crmUrl, apiToken: emulator.apiToken });
    const response = await client.call<InstanceType<typeof providerProto.CheckResponse>>(
      "checkConfig",
      new providerProto.CheckRequest()
        .setUrn("urn:pulumi:dev::shop::pulumi:providers:crm::default")
        .setOlds(struct({}))
        .setNews(struct({ apiUrl: emulator.crmUrl, apiToken: "plain-key" })),
    );
    const inputs = response.getInputs()!.toJavaScript() as Record<string, unknown>;
    assert.deepEqual(inputs.apiToken, secret("plain-key"));
    assert.equal(inputs.apiUrl, emulator.crmUrl);
    assert.ok(secretSignature in (inputs.apiToken as object));
  });

  it("sends its lines to the engine's log, attached to the resource whose call said them", async () => {
    const existing = await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: "Taken Over Co" } });
    const id = String((existing.body as { account: { id: unknown } }).account.id);
    const crm = await plugin("crm:index:Account", { apiUrl: emulator.crmUrl, apiToken: emulator.apiToken });
    const { inputs } = await crm.check("taken", { name: "Taken Over Co", adoptId: id });
    await crm.create("taken", inputs);
    // The line travels beside the answer, as every engine log call does.
    const takeOvers = () => engine.lines.filter((line) => line.message.includes("took over"));
    for (let waited = 0; !takeOvers().length && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(takeOvers(), [{ severity: "info", message: `crm.Account "Taken Over Co": took over existing object ${id}`, urn: crm.urn("taken") }]);
  });

  it("the dynamic door records what a write that failed after taking effect left behind with its provider, as the host records a write that succeeded", async () => {
    const { core } = contactSync;
    const failing = { ...core, create: async () => Promise.reject(new PartlyDoneError("stopped part way", "sync-1", { pending: 50 })) };
    const providerCode = "exports.handler = require('pulumi-crm/dist/provider/crm/contact-sync.js')";
    await assert.rejects(dynamicLifecycle(failing).create({ contacts: [], __provider: providerCode }), (error: PartlyDoneError) => {
      assert.deepEqual([error.id, error.properties], ["sync-1", { pending: 50, __provider: providerCode }]);
      return true;
    });
  });

  it("the dynamic door's check refuses a name its class saw declared twice, on the field, as the plugin's check does", async () => {
    const refused = 'crm.Account "B": two resources of this program declare the account name "B"';
    assert.deepEqual(await account.check({}, { name: "B", __declaredTwice: refused }), { failures: [{ property: "name", reason: refused }] });
    // Unknown in a preview: no refusal yet.
    assert.doesNotMatch(JSON.stringify(await account.check({}, { name: "B", __declaredTwice: unknownValue })), /two resources/);
  });

  it("refuses the contacts' side's bad inputs as the dynamic door does, naming the field and the rule, before any request", async () => {
    const hook = { name: "Hook", url: "https://hooks.example/crm", events: ["subscribe"], sources: ["public"] };
    const cases = [
      [contactCustomField, "crm:index:ContactCustomField", { title: "Plan", type: "select" }, /type must be one of text, textarea/],
      [
        contactCustomField,
        "crm:index:ContactCustomField",
        { title: "Notes", type: "text", options: ["a"] },
        /options is allowed only for a field of type dropdown, listbox, radio, checkbox, not text/,
      ],
      [webhook, "crm:index:Webhook", { ...hook, events: ["subscribed"] }, /events\[0\] must be one of bounce, click/],
      [webhook, "crm:index:Webhook", { ...hook, url: "ftp://hooks.example/crm" }, /url must be an http or https URL/],
      [tag, "crm:index:Tag", { tag: "" }, /tag must not be blank/],
    ] as const;
    useStackConfig(configOf({ "crm:apiUrl": emulator.crmUrl, "crm:apiToken": emulator.apiToken }));
    const before = await requestCount(emulator);
    for (const [module, type, news, rule] of cases) {
      const door = await plugin(type, { apiUrl: emulator.crmUrl, apiToken: emulator.apiToken });
      const dynamic = (await module.check({}, news)).failures!.map((failure) => [failure.property, failure.reason]);
      assert.match(JSON.stringify(dynamic), rule, type);
      assert.deepEqual((await door.check("bad", news)).failures, dynamic, type);
    }
    assert.equal(await requestCount(emulator), before);
  });

  it("refuses a tag declared twice in one type, and takes it in the other, as the dynamic classes do", async () => {
    const door = await plugin("crm:index:Tag", { apiUrl: emulator.crmUrl, apiToken: emulator.apiToken });
    assert.deepEqual((await door.check("first", { tag: "VIP" })).failures, []);
    assert.match(JSON.stringify((await door.check("second", { tag: "vip", tagType: "contact" })).failures), /tags are unique regardless of case, per tagType/);
    assert.deepEqual((await door.check("third", { tag: "VIP", tagType: "template" })).failures, []);
  });

  it("checks a unique name by the one rule the dynamic classes check it by", async () => {
    const crm = await plugin("crm:index:Account", { apiUrl: emulator.crmUrl, apiToken: emulator.apiToken });
    assert.deepEqual((await crm.check("first", { name: "Unique Co" })).failures, []);
    const rule = new DeclaredNames();
    rule.claim(account.core, { name: "Unique Co" }, "first");
    assert.deepEqual((await crm.check("second", { name: "UNIQUE co" })).failures, [
      ["name", rule.claim(account.core, { name: "UNIQUE co" }, "second")!.message],
    ]);
  });
});
