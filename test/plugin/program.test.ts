// The native plugin pulumi-resource-crm on the real `pulumi` CLI: the bundled plugin that
// `npm run plugins` builds, named by the program's Pulumi.yaml `plugins.providers` or
// installed from its tarball with `pulumi plugin install`, serving
// a TypeScript program on the generated Node.js SDKs. Two
// emulators are two CRM accounts: the stack's (the default provider) and a client's.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { BUILT_IN_FLOWS } from "../../emulator/src/chat";
import { emulatorCall, flowRunsStarted, requestCount, type RunningEmulator, writeCount } from "../../scripts/harness/emulator";
import { repoRoot } from "../../scripts/harness/packed-program";
import { installNativeAccounts, installPluginTarball, namePluginFolders } from "../../scripts/harness/plugin-program";
import { CHANGES_NOT_EXPECTED, CliStack, type StateResource } from "../../scripts/harness/pulumi-cli";

const accountsOf = async (emulator: RunningEmulator) =>
  ((await emulatorCall(emulator, "GET", "/api/3/accounts?limit=100")).body.accounts as Array<{ id: string; name: string; accountUrl: string | null }>)
    .map((account) => account.name)
    .sort();

const accountsIn = (stack: CliStack) => stack.resources().filter((resource) => resource.custom && !resource.type.startsWith("pulumi:providers:"));

describe("native plugin pulumi-resource-crm on the pulumi CLI", function () {
  this.timeout(600_000);
  let stackAccount: RunningEmulator;
  let clientAccount: RunningEmulator;
  let stack: CliStack;
  const declared = [
    { name: "Acme", accountUrl: "https://acme.example", client: "client-a" },
    { name: "Globex", client: "client-b" },
    { name: "Initech", client: "client-b" },
  ];
  const setAccounts = (accounts: object[]) => stack.setConfig({ accounts: JSON.stringify(accounts) });

  before(async () => {
    [stackAccount, clientAccount] = [await startEmulator({ port: 0, rateLimit: 5 }), await startEmulator({ port: 0, rateLimit: 5 })];
    const { program, plugin } = await installNativeAccounts("plugin-native-accounts", { typeCheck: "once" });
    namePluginFolders(program, { crm: plugin.folder });
    const clients = {
      // client-a is the stack's own account reached through an explicit provider; client-b another account.
      "client-a": { apiUrl: stackAccount.crmUrl, apiToken: stackAccount.apiToken },
      "client-b": { apiUrl: clientAccount.crmUrl, apiToken: clientAccount.apiToken },
    };
    stack = await CliStack.create(program, "dev", {
      config: { "crm:apiUrl": stackAccount.crmUrl, accounts: JSON.stringify(declared) },
      secrets: { "crm:apiToken": stackAccount.apiToken, clients: JSON.stringify(clients) },
    });
  });
  after(async () => {
    await stackAccount?.close();
    await clientAccount?.close();
    stack?.remove();
  });

  it("up creates each account in its own provider's account", async () => {
    const result = await stack.up();
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    assert.equal(result.steps.create, 6, result.lines.join("\n")); // the stack, two providers, three accounts
    assert.deepEqual(await accountsOf(stackAccount), ["Acme"]);
    assert.deepEqual(await accountsOf(clientAccount), ["Globex", "Initech"]);
    const acme = accountsIn(stack).find((resource) => resource.outputs?.name === "Acme")!;
    assert.equal(acme.type, "crm:index:Account");
    assert.deepEqual(acme.outputs, { name: "Acme", accountUrl: "https://acme.example" });
    // The explicit provider's token is a secret in the state, never plain text.
    assert.doesNotMatch(stack.stateText(), new RegExp(clientAccount.apiToken));
  });

  it("a second up, its preview included, is all `same` and sends no request", async () => {
    const before = [await requestCount(stackAccount), await requestCount(clientAccount)];
    const result = await stack.up();
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    assert.equal(result.changes, false, result.lines.join("\n"));
    assert.deepEqual([await requestCount(stackAccount), await requestCount(clientAccount)], before);
  });

  it("a change out of band is drift: the drift check exits 7 naming the field, and up --refresh repairs it", async () => {
    const initech = accountsIn(stack).find((resource) => resource.outputs?.name === "Initech")!;
    await emulatorCall(clientAccount, "PUT", `/api/3/accounts/${initech.id}`, { account: { name: "Initech Renamed" } });
    const check = await stack.driftCheck("--diff");
    assert.equal(check.exitCode, CHANGES_NOT_EXPECTED, check.lines.join("\n"));
    assert.match(check.stdout, /name\s*:\s*"Initech" => "Initech Renamed"/);

    const repair = await stack.up("--refresh", "--skip-preview");
    assert.equal(repair.exitCode, 0, repair.lines.join("\n"));
    assert.equal(repair.steps.update, 1, repair.lines.join("\n"));
    assert.deepEqual(await accountsOf(clientAccount), ["Globex", "Initech"]);
    assert.equal((await stack.driftCheck()).exitCode, 0);
  });

  it("an update goes to the account's own provider", async () => {
    await setAccounts(declared.map((account) => (account.name === "Globex" ? { ...account, accountUrl: "https://globex.example" } : account)));
    const result = await stack.up("--skip-preview");
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    assert.equal(result.steps.update, 1);
    const globex = (await emulatorCall(clientAccount, "GET", "/api/3/accounts?search=Globex")).body.accounts[0];
    assert.equal(globex.accountUrl, "https://globex.example");
  });

  it("pulumi import takes an account by its id; the next preview shows no change and up writes nothing", async () => {
    const created = await emulatorCall(stackAccount, "POST", "/api/3/accounts", { account: { name: "Umbrella", accountUrl: "https://umbrella.example" } });
    const id = String(created.body.account.id);
    const imported = await stack.run(["import", "crm:index:Account", "Umbrella", id, "--yes", "--generate-code=false", "--protect=false"]);
    assert.equal(imported.exitCode, 0, imported.lines.join("\n"));
    // Ids are per account: another emulator may hold an account of this id too.
    const umbrella = accountsIn(stack).find((resource) => resource.urn.endsWith("::Umbrella"))!;
    assert.equal(umbrella.id, id);
    assert.deepEqual(umbrella.inputs, { name: "Umbrella", accountUrl: "https://umbrella.example" });

    await setAccounts(
      [...declared, { name: "Umbrella", accountUrl: "https://umbrella.example" }].map((account) =>
        account.name === "Globex" ? { ...account, accountUrl: "https://globex.example" } : account,
      ),
    );
    const preview = await stack.run(["preview", "--expect-no-changes", "--diff"]);
    assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
    const before = await writeCount(stackAccount);
    const up = await stack.up("--skip-preview");
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    assert.equal(up.changes, false, up.lines.join("\n"));
    assert.equal(await writeCount(stackAccount), before);
  });

  it("a lookup runs in its provider's plugin, on its account (crm:index:getAccount as Invoke)", async () => {
    await stack.setConfig({ lookup: "Initech" });
    const result = await stack.up("--skip-preview");
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    const initech = accountsIn(stack).find((resource) => resource.urn.endsWith("::Initech"))!;
    const { lookedUp } = await stack.outputs();
    assert.deepEqual([lookedUp.id, lookedUp.name], [initech.id, "Initech"]);
  });

  it("destroy deletes every account from its own account", async () => {
    const result = await stack.destroy();
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    assert.deepEqual(await accountsOf(stackAccount), []);
    assert.deepEqual(await accountsOf(clientAccount), []);
  });
});

describe("a stack of the dynamic crm.Account moved to the native plugin", function () {
  this.timeout(600_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  const accounts = () => stack.resources().filter((resource) => resource.custom && !resource.type.startsWith("pulumi:providers:")) as StateResource[];

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    const { program, plugin } = await installNativeAccounts("plugin-moved-stack", { typeCheck: "once" });
    stack = await CliStack.create(program, "dev", {
      config: {
        "crm:apiUrl": emulator.crmUrl,
        mode: "dynamic",
        accounts: JSON.stringify([{ name: "Acme", accountUrl: "https://acme.example" }, { name: "Globex" }]),
      },
      secrets: { "crm:apiToken": emulator.apiToken },
    });
    // This stack's CLI finds the plugin in its plugin cache, installed from the tarball.
    installPluginTarball(stack, plugin);
    const made = await stack.up("--skip-preview");
    assert.equal(made.exitCode, 0, made.lines.join("\n"));
    assert.deepEqual(new Set(accounts().map((resource) => resource.type)), new Set(["pulumi-nodejs:dynamic/crm:Account"]));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  it("moves through the schema's alias, which the generated SDK's class carries: no replacement, no write", async () => {
    const schema = JSON.parse(readFileSync(join(repoRoot, "schema", "crm.json"), "utf8"));
    assert.deepEqual(schema.resources["crm:index:Account"].aliases, [{ type: "pulumi-nodejs:dynamic/crm:Account" }]);
    await stack.setConfig({ mode: "native" });
    const before = await writeCount(emulator);
    const moved = await stack.up();
    assert.equal(moved.exitCode, 0, moved.lines.join("\n"));
    assert.deepEqual([moved.steps.create, moved.steps.update, moved.steps.replace], [0, 0, 0], moved.lines.join("\n"));
    assert.equal(await writeCount(emulator), before);
    assert.deepEqual(new Set(accounts().map((resource) => resource.type)), new Set(["crm:index:Account"]));
  });

  it("one refresh leaves no __provider in the state", async () => {
    const refreshed = await stack.refresh("--skip-preview");
    assert.equal(refreshed.exitCode, 0, refreshed.lines.join("\n"));
    assert.doesNotMatch(stack.stateText(), /__provider/);
    assert.equal((await stack.driftCheck()).exitCode, 0);
    const noOp = await stack.up();
    assert.equal(noOp.changes, false, noOp.lines.join("\n"));
  });

  it("destroy through the plugin deletes the accounts", async () => {
    const result = await stack.destroy();
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    assert.deepEqual(await accountsOf(emulator), []);
  });
});

describe("the npm bin pulumi-resource-crm on the pulumi CLI", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let stack: CliStack;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    const { program } = await installNativeAccounts("plugin-npm-bin", { typeCheck: "once" });
    // The bin npm installs with the package, named relative to the project's folder.
    namePluginFolders(program, { crm: "node_modules/.bin" });
    stack = await CliStack.create(program, "dev", {
      config: { "crm:apiUrl": emulator.crmUrl, accounts: JSON.stringify([{ name: "Acme" }]) },
      secrets: { "crm:apiToken": emulator.apiToken },
    });
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  it("serves up, a no-op up with no request, and destroy", async () => {
    const made = await stack.up("--skip-preview");
    assert.equal(made.exitCode, 0, made.lines.join("\n"));
    assert.deepEqual(await accountsOf(emulator), ["Acme"]);
    const before = await requestCount(emulator);
    const noOp = await stack.up();
    assert.equal(noOp.changes, false, noOp.lines.join("\n"));
    assert.equal(await requestCount(emulator), before);
    assert.equal((await stack.destroy()).exitCode, 0);
    assert.deepEqual(await accountsOf(emulator), []);
  });
});

describe("the chat plugin pulumi-resource-chat on the pulumi CLI", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let stack: CliStack;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5, executionDurationMs: 300 });
    const { program, plugin, chatPlugin } = await installNativeAccounts("plugin-chat", { typeCheck: "once" });
    namePluginFolders(program, { crm: plugin.folder, chat: chatPlugin.folder });
    stack = await CliStack.create(program, "dev", {
      config: { "chat:apiUrl": emulator.chatUrl, accounts: "[]", flowId: BUILT_IN_FLOWS[0].id },
      secrets: { "chat:apiToken": emulator.apiToken },
    });
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  it("runs a flow once on up, not on a no-op up, and forgets it on destroy", async () => {
    const made = await stack.up();
    assert.equal(made.exitCode, 0, made.lines.join("\n"));
    assert.equal(await flowRunsStarted(emulator), 1);
    const run = stack.resources().find((resource) => resource.type === "chat:index:FlowRun")!;
    assert.equal(run.outputs!.executionId, run.id);
    const before = await requestCount(emulator);
    const noOp = await stack.up();
    assert.equal(noOp.changes, false, noOp.lines.join("\n"));
    assert.equal(await requestCount(emulator), before);
    assert.equal((await stack.destroy()).exitCode, 0);
    assert.equal(await flowRunsStarted(emulator), 1);
  });
});
