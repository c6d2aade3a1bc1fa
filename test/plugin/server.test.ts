// The native plugin's gRPC service, driven in this process over loopback gRPC as the
// engine drives it, against two emulators: two provider instances, each configured for
// its own account, in one process.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { startEmulator } from "../../emulator";
import { servePlugin } from "../../provider/plugin/server";
import { grpc, providerProto, providerServices, structProto } from "../../provider/plugin/sdk-modules";
import { emulatorStats, requestCount, RunningEmulator } from "../support/emulator";
import { secretSignature } from "../support/pulumi-cli";

const secret = (value: unknown) => ({ [secretSignature]: "1b47061264138c4ac30d75fd1eb44270", value });
const struct = (value: Record<string, unknown>) => structProto.Struct.fromJavaScript(value as Record<string, never>);
const plain = (value: Struct | undefined) => (value?.toJavaScript() ?? {}) as Record<string, any>;
const accountUrn = (name: string) => `urn:pulumi:dev::plugin-test::crm:index:Account::${name}`;

/** A client of one plugin instance, its calls as promises; check and create are of resources of type `type`. */
class PluginClient {
  private readonly client: InstanceType<typeof providerServices.ResourceProviderClient>;
  constructor(
    port: number,
    private readonly type = "crm:index:Account",
  ) {
    this.client = new providerServices.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  }

  call<Response>(method: string, request: unknown): Promise<Response> {
    return new Promise((resolve, reject) =>
      (this.client as unknown as Record<string, Function>)[method].call(this.client, request, (error: Error | null, response: Response) => (error ? reject(error) : resolve(response))),
    );
  }

  configure(settings: Record<string, unknown>) {
    return this.call("configure", new providerProto.ConfigureRequest().setArgs(struct(settings)).setAcceptsecrets(true));
  }

  async check(name: string, news: Record<string, unknown>, olds: Record<string, unknown> = {}) {
    const response = await this.call<InstanceType<typeof providerProto.CheckResponse>>(
      "check",
      new providerProto.CheckRequest().setUrn(this.urn(name)).setType(this.type).setOlds(struct(olds)).setNews(struct(news)),
    );
    return { inputs: plain(response.getInputs()), failures: response.getFailuresList().map((failure) => [failure.getProperty(), failure.getReason()]) };
  }

  async create(name: string, inputs: Record<string, unknown>) {
    const response = await this.call<InstanceType<typeof providerProto.CreateResponse>>(
      "create",
      new providerProto.CreateRequest().setUrn(this.urn(name)).setType(this.type).setProperties(struct(inputs)),
    );
    return { id: response.getId(), outs: plain(response.getProperties()) };
  }

  async read(name: string, id: string) {
    const response = await this.call<InstanceType<typeof providerProto.ReadResponse>>("read", new providerProto.ReadRequest().setId(id).setUrn(this.urn(name)).setType(this.type));
    return { id: response.getId(), props: plain(response.getProperties()), inputs: plain(response.getInputs()) };
  }

  urn(name: string) {
    return `urn:pulumi:dev::plugin-test::${this.type}::${name}`;
  }

  close() {
    this.client.close();
  }
}

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

  it("names an unknown setting, with the known ones", async () => {
    const response = await a.call<InstanceType<typeof providerProto.CheckResponse>>(
      "checkConfig",
      new providerProto.CheckRequest().setUrn("urn:pulumi:dev::plugin-test::pulumi:providers:crm::client-a").setOlds(struct({})).setNews(struct({ apiUrl: "https://x.api-us1.com", apiTokn: "t", version: "0.1.0" })),
    );
    assert.deepEqual(
      response.getFailuresList().map((failure) => [failure.getProperty(), failure.getReason()]),
      [["apiTokn", "pulumi:providers:crm: apiTokn is not a setting of the crm provider; its settings are apiUrl, apiToken, requestsPerSecond."]],
    );
  });

  it("tells a changed setting in DiffConfig", async () => {
    const response = await a.call<InstanceType<typeof providerProto.DiffResponse>>(
      "diffConfig",
      new providerProto.DiffRequest().setOldInputs(struct({ apiUrl: "https://a.api-us1.com", apiToken: secret("t") })).setOlds(struct({})).setNews(struct({ apiUrl: "https://b.api-us1.com", apiToken: secret("t") })),
    );
    assert.equal(response.getChanges(), providerProto.DiffResponse.DiffChanges.DIFF_SOME);
    assert.deepEqual(response.getDiffsList(), ["apiUrl"]);
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
      ["name", 'crm.Account "WAYNE Enterprises": two resources of this program declare the account name "WAYNE Enterprises" (account names are unique regardless of case); give each its own account name.'],
    ]);
    // Another provider's account is another account.
    assert.deepEqual((await b.check("second", { name: "WAYNE Enterprises" })).failures, []);
  });

  it("diffs in detail, ignoring the __provider of a stack moved from the dynamic classes", async () => {
    const { id, outs } = await a.create("initech", { name: "Initech" });
    const diff = (news: Record<string, unknown>) =>
      a.call<InstanceType<typeof providerProto.DiffResponse>>(
        "diff",
        new providerProto.DiffRequest().setId(id).setUrn(accountUrn("initech")).setType("crm:index:Account").setOlds(struct({ ...outs, __provider: "exports.handler = ..." })).setNews(struct(news)),
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
    const response = await b.call<InstanceType<typeof providerProto.ReadResponse>>("read", new providerProto.ReadRequest().setId(id).setUrn(accountUrn("umbrella")).setType("crm:index:Account"));
    assert.equal(response.getId(), id);
    assert.deepEqual(plain(response.getInputs()), { name: "Umbrella", accountUrl: "https://umbrella.example" });
    assert.deepEqual(plain(response.getProperties()), { name: "Umbrella", accountUrl: "https://umbrella.example" });
  });

  it("updates and deletes", async () => {
    const { id, outs } = await a.create("hooli", { name: "Hooli" });
    const updated = await a.call<InstanceType<typeof providerProto.UpdateResponse>>(
      "update",
      new providerProto.UpdateRequest().setId(id).setUrn(accountUrn("hooli")).setType("crm:index:Account").setOlds(struct(outs)).setNews(struct({ name: "Hooli XYZ", accountUrl: null })),
    );
    assert.deepEqual(plain(updated.getProperties()), { name: "Hooli XYZ", accountUrl: null });
    await a.call("delete", new providerProto.DeleteRequest().setId(id).setUrn(accountUrn("hooli")).setType("crm:index:Account").setProperties(updated.getProperties()));
    const read = await a.call<InstanceType<typeof providerProto.ReadResponse>>("read", new providerProto.ReadRequest().setId(id).setUrn(accountUrn("hooli")).setType("crm:index:Account"));
    assert.equal(read.getId(), "", "a deleted account reads as gone");
  });

  it("runs a lookup as Invoke, on its provider's account", async () => {
    await b.create("stark", { name: "Stark" });
    const response = await b.call<InstanceType<typeof providerProto.InvokeResponse>>("invoke", new providerProto.InvokeRequest().setTok("crm:index:getAccount").setArgs(struct({ name: "stark" })));
    assert.equal(plain(response.getReturn()).name, "Stark");
    await assert.rejects(
      a.call("invoke", new providerProto.InvokeRequest().setTok("crm:index:getAccount").setArgs(struct({ name: "stark" }))),
      /crm.getAccount: no account has the name "stark"/,
    );
  });

  it("names a resource type it does not serve", async () => {
    await assert.rejects(
      a.call("check", new providerProto.CheckRequest().setUrn("urn:pulumi:dev::p::crm:index:Nope::x").setType("crm:index:Nope").setOlds(struct({})).setNews(struct({}))),
      /pulumi-resource-crm has no resource type crm:index:Nope; it serves crm:index:Account, /,
    );
  });

  it("sent every request of a provider to its own emulator only", async () => {
    // Each emulator saw its own token only: a request with another one would be a 401.
    for (const emulator of emulators) assert.equal((await emulatorStats(emulator)).byStatus["401"] ?? 0, 0);
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
    await assert.rejects(chat.read("welcome", created.id), new RegExp(`chat.FlowRun ${created.id} cannot be imported: its id alone does not give what it was declared with.`));
  });

  it("serves chat's resources only", async () => {
    await assert.rejects(
      chat.call("check", new providerProto.CheckRequest().setUrn(accountUrn("x")).setType("crm:index:Account").setOlds(struct({})).setNews(struct({ name: "x" }))),
      /pulumi-resource-chat has no resource type crm:index:Account; it serves chat:index:FlowRun\./,
    );
  });
});
