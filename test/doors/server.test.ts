// The native plugin's gRPC service, driven in this process over loopback gRPC as the
// engine drives it, against two emulators: two provider instances, each configured for
// its own account, in one process.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { servePlugin } from "../../provider/plugin/server";
import { pluginProto, providerProto } from "../../provider/plugin/sdk-modules";
import { resources, typeOf } from "../../provider/registry";
import { emulatorStats, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { makeParents, resourceExamples } from "../support/resource-examples";
import { startFakeEngine } from "../support/fake-engine";
import { accountUrn, plain, PluginClient, secret, struct } from "../support/plugin-client";

describe("native plugin (pulumi-resource-crm), over gRPC", () => {
  const emulators: RunningEmulator[] = [];
  const plugins: { port: number; stop(): Promise<void> }[] = [];
  const clients: PluginClient[] = [];
  let a: PluginClient;
  let b: PluginClient;

  before(async () => {
    for (const _instance of [0, 1]) {
      emulators.push(await startEmulator({ port: 0, rateLimit: 0 }));
      plugins.push(await servePlugin("crm"));
    }
    [a, b] = plugins.map(({ port }) => new PluginClient(port));
    clients.push(a, b);
    // The token arrives wrapped as a secret, as the engine sends an explicit provider's secret setting.
    await a.configure({ apiUrl: emulators[0].crmUrl, apiToken: secret(emulators[0].apiToken) });
    await b.configure({ apiUrl: emulators[1].crmUrl, apiToken: secret(emulators[1].apiToken), requestsPerSecond: 0 });
  });
  after(async () => {
    for (const client of clients) client.close();
    for (const plugin of plugins) await plugin.stop();
    for (const emulator of emulators) await emulator.close();
  });

  it("answers its package schema, the one committed", async () => {
    const response = await a.call<InstanceType<typeof providerProto.GetSchemaResponse>>("getSchema", new providerProto.GetSchemaRequest());
    assert.deepEqual(JSON.parse(response.getSchema()), JSON.parse(readFileSync(join(__dirname, "../../schema/crm.json"), "utf8")));
  });

  it("tells a changed setting in DiffConfig", async () => {
    const response = await a.call<InstanceType<typeof providerProto.DiffResponse>>(
      "diffConfig",
      new providerProto.DiffRequest()
        .setOldInputs(struct({ apiUrl: "https://a.api-us1.com", apiToken: secret("t") }))
        .setOlds(struct({}))
        .setNews(struct({ apiUrl: "https://b.api-us1.com", apiToken: secret("t") })),
    );
    assert.equal(response.getChanges(), providerProto.DiffResponse.DiffChanges.DIFF_SOME);
    assert.deepEqual(response.getDiffsList(), ["apiUrl"]);
  });

  it("answers a changed address as a replacement (another account), a changed key or the same address spelt otherwise as an update", async () => {
    const diffConfig = (olds: Record<string, unknown>, news: Record<string, unknown>) =>
      a.call<InstanceType<typeof providerProto.DiffResponse>>(
        "diffConfig",
        new providerProto.DiffRequest().setOldInputs(struct(olds)).setOlds(struct({})).setNews(struct(news)),
      );
    const moved = await diffConfig({ apiUrl: "https://a.api-us1.com", apiToken: secret("t") }, { apiUrl: "https://b.api-us1.com", apiToken: secret("u") });
    assert.deepEqual(moved.getReplacesList(), ["apiUrl"]);
    assert.deepEqual(moved.getDiffsList().sort(), ["apiToken", "apiUrl"]);
    const rekeyed = await diffConfig(
      { apiUrl: "https://a.api-us1.com", apiToken: secret("t") },
      { apiUrl: "https://a.api-us1.com/api/3/", apiToken: secret("u") },
    );
    assert.deepEqual(rekeyed.getReplacesList(), []);
    assert.deepEqual(rekeyed.getDiffsList().sort(), ["apiToken", "apiUrl"]);
  });

  it("sends each provider's resources to its own account", async () => {
    const [inA, inB] = await Promise.all([a.create("acme", { name: "Acme" }), b.create("globex", { name: "Globex" })]);
    const names = async (emulator: RunningEmulator) => {
      const listed = await fetch(`${emulator.crmUrl}/api/3/accounts`, { headers: { "Api-Token": emulator.apiToken } });
      return ((await listed.json()) as { accounts: { name: string }[] }).accounts.map((account) => account.name);
    };
    assert.deepEqual(await names(emulators[0]), ["Acme"]);
    assert.deepEqual(await names(emulators[1]), ["Globex"]);
    assert.deepEqual(inA.outs, { name: "Acme", accountUrl: null });
    assert.deepEqual(inB.outs, { name: "Globex", accountUrl: null });
  });

  it("names the explicit provider whose setting is missing, and how to give it", async () => {
    const plugin = await servePlugin("crm");
    const client = new PluginClient(plugin.port);
    try {
      await client.call(
        "configure",
        new providerProto.ConfigureRequest()
          .setArgs(struct({ apiUrl: emulators[0].crmUrl }))
          .setName("client-c")
          .setUrn("urn:pulumi:dev::plugin-test::pulumi:providers:crm::client-c"),
      );
      assert.deepEqual((await client.check("lost", { name: "Lost" })).failures, [
        [
          "",
          'crm.Account "Lost": no CRM API token is configured; give the provider "client-c" its apiToken setting or set the CRM_API_TOKEN environment variable.',
        ],
      ]);
    } finally {
      client.close();
      await plugin.stop();
    }
  });

  it("checks inputs before any request, naming resource, field and rule", async () => {
    const before = await requestCount(emulators[0]);
    const { failures } = await a.check("bad", { name: "Bad", accountUrl: "ftp://x" });
    assert.deepEqual(failures, [["accountUrl", 'crm.Account "Bad": accountUrl must be an http or https URL such as https://acme.example']]);
    assert.equal(await requestCount(emulators[0]), before);
  });

  it("refuses an account name another resource of its provider declares, as the program does for dynamic classes", async () => {
    assert.deepEqual((await a.check("first", { name: "Wayne Enterprises" })).failures, []);
    // The same resource checked again (a preview, then its update) is no second declaration.
    assert.deepEqual((await a.check("first", { name: "Wayne Enterprises" })).failures, []);
    assert.deepEqual((await a.check("second", { name: "WAYNE Enterprises" })).failures, [
      [
        "name",
        'crm.Account "WAYNE Enterprises": two resources of this program declare the account name "WAYNE Enterprises" (account names are unique regardless of case); give each its own account name.',
      ],
    ]);
    // Another provider's account is another account.
    assert.deepEqual((await b.check("second", { name: "WAYNE Enterprises" })).failures, []);
  });

  it("diffs in detail, ignoring the __provider of a stack moved from the dynamic classes", async () => {
    const { id, outs } = await a.create("initech", { name: "Initech" });
    const diff = (news: Record<string, unknown>) =>
      a.call<InstanceType<typeof providerProto.DiffResponse>>(
        "diff",
        new providerProto.DiffRequest()
          .setId(id)
          .setUrn(accountUrn("initech"))
          .setType("crm:index:Account")
          .setOlds(struct({ ...outs, __provider: "exports.handler = ..." }))
          .setNews(struct(news)),
      );
    assert.equal((await diff({ name: "Initech", accountUrl: null })).getChanges(), providerProto.DiffResponse.DiffChanges.DIFF_NONE);
    const changed = await diff({ name: "Initech", accountUrl: "https://initech.example" });
    assert.equal(changed.getChanges(), providerProto.DiffResponse.DiffChanges.DIFF_SOME);
    assert.equal(changed.getHasdetaileddiff(), true);
    assert.deepEqual(
      [...changed.getDetaileddiffMap().entries()].map(([name, detail]) => [name, detail.getKind()]),
      [["accountUrl", providerProto.PropertyDiff.Kind.ADD]],
    );
  });

  it("reads from the id alone, as pulumi import does, giving the inputs too", async () => {
    const { id } = await b.create("umbrella", { name: "Umbrella", accountUrl: "https://umbrella.example" });
    const response = await b.call<InstanceType<typeof providerProto.ReadResponse>>(
      "read",
      new providerProto.ReadRequest().setId(id).setUrn(accountUrn("umbrella")).setType("crm:index:Account"),
    );
    assert.equal(response.getId(), id);
    assert.deepEqual(plain(response.getInputs()), { name: "Umbrella", accountUrl: "https://umbrella.example" });
    assert.deepEqual(plain(response.getProperties()), { name: "Umbrella", accountUrl: "https://umbrella.example" });
  });

  it("updates and deletes", async () => {
    const { id, outs } = await a.create("hooli", { name: "Hooli" });
    const updated = await a.call<InstanceType<typeof providerProto.UpdateResponse>>(
      "update",
      new providerProto.UpdateRequest()
        .setId(id)
        .setUrn(accountUrn("hooli"))
        .setType("crm:index:Account")
        .setOlds(struct(outs))
        .setNews(struct({ name: "Hooli XYZ", accountUrl: null })),
    );
    assert.deepEqual(plain(updated.getProperties()), { name: "Hooli XYZ", accountUrl: null });
    await a.call(
      "delete",
      new providerProto.DeleteRequest().setId(id).setUrn(accountUrn("hooli")).setType("crm:index:Account").setProperties(updated.getProperties()),
    );
    const read = await a.call<InstanceType<typeof providerProto.ReadResponse>>(
      "read",
      new providerProto.ReadRequest().setId(id).setUrn(accountUrn("hooli")).setType("crm:index:Account"),
    );
    assert.equal(read.getId(), "", "a deleted account reads as gone");
  });

  it("runs a lookup as Invoke, on its provider's account", async () => {
    await b.create("stark", { name: "Stark" });
    const response = await b.call<InstanceType<typeof providerProto.InvokeResponse>>(
      "invoke",
      new providerProto.InvokeRequest().setTok("crm:index:getAccount").setArgs(struct({ name: "stark" })),
    );
    assert.equal(plain(response.getReturn()).name, "Stark");
    await assert.rejects(
      a.call("invoke", new providerProto.InvokeRequest().setTok("crm:index:getAccount").setArgs(struct({ name: "stark" }))),
      /crm.getAccount: no account has the name "stark"/,
    );
  });

  it("names a resource type it does not serve", async () => {
    await assert.rejects(
      a.call(
        "check",
        new providerProto.CheckRequest().setUrn("urn:pulumi:dev::p::crm:index:Nope::x").setType("crm:index:Nope").setOlds(struct({})).setNews(struct({})),
      ),
      /pulumi-resource-crm has no resource type crm:index:Nope; it serves crm:index:Account, /,
    );
  });

  it("sent every request of a provider to its own emulator only", async () => {
    // Each emulator saw its own token only: a request with another one would be a 401.
    for (const emulator of emulators) assert.equal((await emulatorStats(emulator)).byStatus["401"] ?? 0, 0);
  });
});

describe("one plugin process serving several engines, as pulumi-crm fleet shares it among its stacks", () => {
  const emulators: RunningEmulator[] = [];
  const engines: Awaited<ReturnType<typeof startFakeEngine>>[] = [];
  let plugin: Awaited<ReturnType<typeof servePlugin>>;
  let stacks: PluginClient[];

  before(async () => {
    plugin = await servePlugin("crm");
    for (const _stack of [0, 1]) {
      emulators.push(await startEmulator({ port: 0, rateLimit: 0 }));
      engines.push(await startFakeEngine());
    }
    // Each stack's engine on a connection of its own, attached as PULUMI_DEBUG_PROVIDERS attaches it.
    stacks = emulators.map(() => new PluginClient(plugin.port, "crm:index:Account", { ownConnection: true }));
    for (const [index, stack] of stacks.entries()) {
      await stack.call("attach", new pluginProto.PluginAttach().setAddress(engines[index].address));
      await stack.configure({ apiUrl: emulators[index].crmUrl, apiToken: secret(emulators[index].apiToken) });
    }
  });
  after(async () => {
    for (const stack of stacks) stack.close();
    await plugin.stop();
    for (const engine of engines) await engine.stop();
    for (const emulator of emulators) await emulator.close();
  });

  it("keeps each connection's settings: each stack's resources go to its own account", async () => {
    await Promise.all([stacks[0].create("acme", { name: "Acme" }), stacks[1].create("globex", { name: "Globex" })]);
    for (const [index, name] of ["Acme", "Globex"].entries()) {
      const listed = await fetch(`${emulators[index].crmUrl}/api/3/accounts`, { headers: { "Api-Token": emulators[index].apiToken } });
      assert.deepEqual(
        ((await listed.json()) as { accounts: { name: string }[] }).accounts.map((account) => account.name),
        [name],
      );
    }
  });

  it("keeps each deployment's own: one unique name declared in two stacks is no clash, twice in one stack is", async () => {
    assert.deepEqual((await stacks[0].check("first", { name: "Initech" })).failures, []);
    assert.deepEqual((await stacks[1].check("initech", { name: "Initech" })).failures, []);
    assert.equal((await stacks[1].check("second", { name: "Initech" })).failures[0]?.[0], "name");
  });

  it("says each stack's lines to the engine that attached it", async () => {
    const warned = (index: number) =>
      stacks[index].call(
        "checkConfig",
        new providerProto.CheckRequest()
          .setUrn("urn:pulumi:dev::plugin-test::pulumi:providers:crm::default")
          .setNews(struct({ apiUrl: emulators[index].crmUrl, apiTokn: "x" })),
      );
    const about = (index: number) => engines[index].lines.filter((line) => /apiTokn/.test(line.message));
    await warned(1);
    // The line is sent as the call is answered: waited for, not timed.
    while (!about(1).length) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(about(1)[0].severity, "warning");
    assert.equal(about(0).length, 0);
  });
});

describe("native plugin (pulumi-resource-chat), over gRPC", () => {
  let emulator: RunningEmulator;
  let plugin: { port: number; stop(): Promise<void> };
  let chat: PluginClient;
  const flowId = "2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31";

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 0, executionDurationMs: 300 });
    plugin = await servePlugin("chat");
    chat = new PluginClient(plugin.port, "chat:index:FlowRun");
    await chat.configure({ apiUrl: emulator.chatUrl, apiToken: secret(emulator.apiToken), channel: "chat" });
  });
  after(async () => {
    chat.close();
    await plugin.stop();
    await emulator.close();
  });

  it("answers the chat schema, the one committed", async () => {
    const response = await chat.call<InstanceType<typeof providerProto.GetSchemaResponse>>("getSchema", new providerProto.GetSchemaRequest());
    assert.deepEqual(JSON.parse(response.getSchema()), JSON.parse(readFileSync(join(__dirname, "../../schema/chat.json"), "utf8")));
  });

  it("runs a flow on create, on its provider's chat account, and a refresh reads back what create returned", async () => {
    const { inputs, failures } = await chat.check("welcome", { flowId, contacts: [{ firstName: "Ada", phone: "+15550100" }] });
    assert.deepEqual(failures, []);
    const created = await chat.create("welcome", inputs);
    assert.equal(created.outs.executionId, created.id);
    const response = await chat.call<InstanceType<typeof providerProto.ReadResponse>>(
      "read",
      new providerProto.ReadRequest().setId(created.id).setUrn(chat.urn("welcome")).setType("chat:index:FlowRun").setProperties(struct(created.outs)),
    );
    assert.deepEqual(plain(response.getProperties()), created.outs);
    assert.deepEqual(plain(response.getInputs()), { flowId, contacts: inputs.contacts, hasPriority: false, triggers: [] });
    // A run is an action: its id alone does not say what was run, so it cannot be imported.
    await assert.rejects(chat.read("welcome", created.id), new RegExp(`chat.FlowRun ${created.id} cannot be imported: its id names a run`));
  });

  it("serves chat's resources only", async () => {
    await assert.rejects(
      chat.call(
        "check",
        new providerProto.CheckRequest()
          .setUrn(accountUrn("x"))
          .setType("crm:index:Account")
          .setOlds(struct({}))
          .setNews(struct({ name: "x" })),
      ),
      /pulumi-resource-chat has no resource type crm:index:Account; it serves chat:index:FlowRun\./,
    );
  });
});

describe("every resource a create makes, through the native plugin: imported from its id alone, moved from its dynamic class", () => {
  let emulator: RunningEmulator;
  let plugin: { port: number; stop(): Promise<void> };
  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 0 });
    plugin = await servePlugin("crm");
  });
  after(async () => {
    await plugin.stop();
    await emulator.close();
  });

  let parents = 0;
  for (const resource of resources.filter((entry) => resourceExamples[typeOf(entry)].roundTrip === "create")) {
    const token = resource.definition.declaration.token;
    it(`${token}: an import stores the inputs a refresh gives (and what the service chose), and the dynamic class's outputs diff as no change`, async () => {
      const client = new PluginClient(plugin.port, token);
      try {
        await client.configure({ apiUrl: emulator.crmUrl, apiToken: emulator.apiToken });
        const { inputs, failures } = await client.check("made", resourceExamples[typeOf(resource)].inputs(await makeParents(emulator, ++parents), 1));
        assert.deepEqual(failures, []);
        const created = await client.create("made", inputs);
        const refreshed = await client.call<InstanceType<typeof providerProto.ReadResponse>>(
          "read",
          new providerProto.ReadRequest()
            .setId(created.id)
            .setUrn(client.urn("made"))
            .setType(token)
            .setProperties(struct(created.outs))
            .setInputs(struct(inputs)),
        );
        const imported = await client.read("imported", created.id);
        assert.equal(imported.id, created.id);
        assert.notDeepEqual(imported.inputs, {});
        const refreshedInputs = plain(refreshed.getInputs());
        assert.deepEqual(Object.fromEntries(Object.keys(refreshedInputs).map((key) => [key, imported.inputs[key]])), refreshedInputs);
        // What the service chose where the stack declares nothing (a custom field's display order, of either twin; a field's
        // position in its group) is declared by an import, as the export declares it.
        const chosen: Record<string, string[]> = {
          "crm:index:AccountCustomField": ["displayOrder"],
          "crm:index:DealCustomField": ["displayOrder"],
          "crm:index:CustomFieldGroupMember": ["order"],
        };
        assert.deepEqual(
          Object.keys(imported.inputs).filter((key) => !(key in refreshedInputs)),
          chosen[token] ?? [],
        );
        // A stack moved from the dynamic class: its outputs, with the dynamic provider's __provider, against the same inputs.
        const moved = await client.call<InstanceType<typeof providerProto.DiffResponse>>(
          "diff",
          new providerProto.DiffRequest()
            .setId(created.id)
            .setUrn(client.urn("made"))
            .setType(token)
            .setOlds(struct({ ...created.outs, __provider: "exports.handler = ..." }))
            .setNews(struct(inputs)),
        );
        assert.equal(moved.getChanges(), providerProto.DiffResponse.DiffChanges.DIFF_NONE);
      } finally {
        client.close();
      }
    });
  }
});
