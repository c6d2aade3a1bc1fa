// Issue 53's done-when flow, the same steps in each door: an account set up through the API with an
// object of every setup kind is exported for any account (`--stack source`); the source stack's
// first up writes nothing; a stack on another, empty account makes the same setup with one up,
// nothing made twice; a second up sends nothing and the drift check is clean; `pulumi-crm compare`
// finds them alike, then a tag renamed in one; a change of the program rolls to both; destroy
// leaves that account as it started, and the source stack's destroy is refused by protect.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "../../emulator";
import { exportedResources, setupKinds } from "../../provider/commands/export/read-account";
import { writesByRoute, writesSince } from "./adoption";
import { emulatorCallWhenAdmitted, emulatorRead, requestCount, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { packedTarball, repoRoot } from "../../scripts/harness/packed-program";
import { CliStack, secretSignature } from "../../scripts/harness/pulumi-cli";

/** What marks a secret value in a state (Pulumi's). */
const secretValue = "1b47061264138c4ac30d75fd1eb44270";

/** The collections a setup lives in: each setup kind's, as the export reads them. */
const setupPaths = () => [
  ...new Set(exportedResources.filter((resource) => setupKinds.includes(resource.name)).map((resource) => resource.definition.exported.path)),
];

/** Every setup collection of an account, as its API lists it (ids included). */
async function setupAt(emulator: RunningEmulator): Promise<Record<string, unknown>> {
  return Object.fromEntries(await Promise.all(setupPaths().map(async (path) => [path, await emulatorRead(emulator, path)])));
}

/** How many objects each setup collection holds: alike in two accounts holding one setup. */
async function countsAt(emulator: RunningEmulator): Promise<Record<string, number>> {
  const lists = await setupAt(emulator);
  return Object.fromEntries(
    Object.entries(lists).map(([path, body]) => {
      const list = Object.values(body as Record<string, unknown>).find(Array.isArray);
      return [path, list ? list.length : 1];
    }),
  );
}

/** An object of every setup kind, made through the API as a team would have (a user without a password among them). */
async function populateSetup(emulator: RunningEmulator): Promise<void> {
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const reply = await emulatorCallWhenAdmitted(emulator, method, `/api/3${path}`, body);
    assert.ok(reply.status < 300, `${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  await call("POST", "/accountCustomFieldMeta", {
    accountCustomFieldMetum: { fieldLabel: "Industry", fieldType: "dropdown", fieldOptions: ["Software", "Retail"], fieldDefault: "Software" },
  });
  const news = (
    await call("POST", "/lists", {
      list: { name: "Acme news", stringid: "acme-news", sender_url: "https://acme.example", sender_reminder: "You signed up at acme.example." },
    })
  ).list.id;
  await call("POST", "/tags", { tag: { tag: "Customer", tagType: "contact", description: "Bought once" } });
  const interest = (await call("POST", "/fields", { field: { title: "Interest", type: "dropdown" } })).field.id;
  const options = ["Products", "Events"].map((value, index) => ({ field: Number(interest), value, label: value, orderid: index + 1, isdefault: false }));
  await call("POST", "/fieldOption/bulk", { fieldOptions: options });
  await call("POST", "/fieldRels", { fieldRel: { field: Number(interest), relid: Number(news) } });
  await call("POST", "/personalizations", { personalization: { tag: "signature", name: "Signature", format: "text", content: "The Acme team" } });
  await call("POST", "/savedResponses", { savedResponse: { title: "Follow-up", subject: "Thanks", body: "Slides attached." } });
  await call("POST", "/webhooks", {
    webhook: { name: "Subscriptions", url: "https://hooks.acme.example/crm", events: ["subscribe"], sources: ["public"], listid: Number(news) },
  });
  await call("POST", "/connections", {
    connection: {
      service: "shopify",
      externalid: "acme.myshopify.com",
      name: "Acme Corp",
      logoUrl: "https://acme.example/logo.png",
      linkUrl: "https://acme.example/apps",
    },
  });
  await call("POST", "/dealTasktypes", { dealTasktype: { title: "Demo", status: "0" } });
  // The reference's create takes the title at the top of the body.
  await call("POST", "/dealRoles", { title: "Legal" });
  await call("POST", "/taskOutcomes", { title: "Interested", sentiment: "Positive", disabled: "0" });
  await call("POST", "/dealCustomFieldMeta", {
    dealCustomFieldMetum: { fieldLabel: "Lead source", fieldType: "dropdown", fieldOptions: ["Web", "Referral"], fieldDefault: "Web" },
  });
  const reps = (await call("POST", "/groups", { group: { title: "Reps", pgDeal: true, pgContactAdd: true } })).group.id;
  // No password: the service never answers one, and the program runs without it.
  await call("POST", "/users", { user: { username: "ada", email: "ada@acme.example", firstName: "Ada", lastName: "Lovelace", group: Number(reps) } });
  // Made with its three default stages; a fourth added.
  const pipeline = (await call("POST", "/dealGroups", { dealGroup: { title: "Sales", currency: "eur", autoassign: 0 } })).dealGroup.id;
  await call("POST", "/dealStages", { dealStage: { title: "Won", group: pipeline, color: "18D499" } });
  await call("POST", "/addresses", { address: { company_name: "Acme Corp", address_1: "1 Main St", city: "Berlin", zip: "10115", country: "DE", groupid: 3 } });
  await call("POST", "/calendars", { calendar: { title: "Team tasks", type: "All", notification: 1 } });
  await call("POST", "/messages", {
    message: { fromname: "Acme News", fromemail: "news@acme.example", reply2: "help@acme.example", subject: "Hello %FIRSTNAME%" },
  });
  await call("PUT", "/brandings/1", { branding: { siteName: "Acme Marketing", footerTextValue: "© Acme" } });
  await call("PUT", "/siteTracking", { siteTracking: { enabled: false } });
  await call("POST", "/siteTrackingDomains", { siteTrackingDomain: { name: "shop.acme.example" } });
  await call("POST", "/eventTrackingEvents", { eventTrackingEvent: { name: "Signed up" } });
  const machine = {
    slug: "machine",
    labels: { singular: "Machine", plural: "Machines" },
    fields: [{ id: "serial", labels: { singular: "Serial", plural: "Serials" }, type: "text", required: true }],
    relationships: [{ id: "account", labels: { singular: "Account", plural: "Accounts" }, namespace: "accounts", hasMany: false }],
  };
  await call("POST", "/customObjects/schemas", { schema: machine });
}

/** `pulumi-crm export` as the package's bin runs it, the key from the environment. */
function exportAccount(emulator: RunningEmulator, out: string, ...flags: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return packageBin(["export", "--api-url", emulator.crmUrl, "--out", out, ...flags], { CRM_API_TOKEN: emulator.apiToken });
}

/** The package's `pulumi-crm` bin, as built into dist/, with `env` beside PATH. */
async function packageBin(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const bin = join(repoRoot, "dist", "provider", "commands", "bin.js");
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** `pulumi-crm compare` of two accounts, the keys from the environment. */
async function compareAccounts(from: RunningEmulator, to: RunningEmulator): Promise<{ code: number; stdout: string; stderr: string }> {
  return packageBin(["compare", "--from", from.crmUrl, "--to", to.crmUrl], { CRM_FROM_API_TOKEN: from.apiToken, CRM_TO_API_TOKEN: to.apiToken });
}

/** The program the export wrote holds no id of the account it read, and reads as code a person writes. */
function assertForAnyAccount(programText: string, settingsText: string, emulator: RunningEmulator): void {
  for (const [index, line] of programText.split("\n").entries())
    assert.ok(line.length <= 160, `line ${index + 1} has ${line.length} characters: ${line.slice(0, 80)}...`);
  assert.doesNotMatch(programText, /adoptId: "/, "a literal adoptId in the program");
  // An id input, or a list of them, holding digits rather than a reference.
  assert.doesNotMatch(programText, /Ids?: \[?"?\d|^\s+- "?\d+"?$/m, "a literal id in the program");
  assert.match(settingsText, new RegExp(`crm:apiUrl: "?${emulator.crmUrl.replace(/[./]/g, "\\$&")}"?`));
  assert.match(settingsText, /:protect: true/);
  assert.ok(!settingsText.includes(emulator.apiToken) && !programText.includes(emulator.apiToken), "the API token is written out");
}

export interface Door {
  /** The program folder the export's output installs as, for this door. */
  install(exported: string, name: string): Promise<string>;
  /** The export's flags for this door's language. */
  flags: string[];
}

/** The steps, in order, on two accounts. */
export function itStandsOneSetupUpInEveryAccount(name: string, door: Door): void {
  let source: RunningEmulator;
  let staging: RunningEmulator;
  let program: string;
  let sourceStack: CliStack;
  let stagingStack: CliStack;
  let fresh: Record<string, unknown>;
  const stacks: CliStack[] = [];

  before(async () => {
    // The real service's limit on the source, which the export and the stacks share.
    source = await startEmulator({ port: 0, rateLimit: 5 });
    staging = await startEmulator({ port: 0, rateLimit: 0 });
    await populateSetup(source);
    fresh = await setupAt(staging);
    // Builds dist/, whose bin the export runs: the same files the tarball ships.
    packedTarball();
  });
  after(async () => {
    for (const stack of stacks) stack.remove();
    await source?.close();
    await staging?.close();
  });

  it("export --stack source writes a program with no id of the account, and the source stack's settings", async () => {
    const out = join(repoRoot, ".work", "one-setup", name);
    rmSync(out, { recursive: true, force: true });
    const result = await exportAccount(source, out, "--stack", "source", ...door.flags);
    assert.equal(result.code, 0, result.stderr);
    const programText = readFileSync(join(out, door.flags.includes("yaml") ? "Pulumi.yaml" : "index.ts"), "utf8");
    assertForAnyAccount(programText, readFileSync(join(out, "Pulumi.source.yaml"), "utf8"), source);
    program = await door.install(out, name);
  });

  it("the source stack's first up takes every object over and writes nothing", async () => {
    // Never the repository's own folder, should the export step have failed.
    assert.ok(program, "the export step installed no program");
    sourceStack = await CliStack.create(program, "source", { secrets: stackOnEmulator(source).secrets });
    stacks.push(sourceStack);
    const before = await writesByRoute(source);
    const up = await sourceStack.up("--skip-preview");
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    assert.deepEqual(await writesSince(source, before), {});
    assert.ok(
      sourceStack
        .resources()
        .filter((resource) => resource.custom && !resource.type.startsWith("pulumi:providers:"))
        .every((resource) => resource.protect),
      "a source object not protected",
    );
  });

  it("a stack on an empty account, given only its address and key, makes the same setup with one up, nothing twice", async () => {
    stagingStack = await CliStack.create(program, "staging", stackOnEmulator(staging));
    stacks.push(stagingStack);
    // A password the export cannot read, given to this stack as its page says.
    await stagingStack.succeed(["config", "set", "--path", "--secret", "passwords.ada-user", "correct horse battery"]);
    const up = await stagingStack.up();
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    const ada = stagingStack.resources().find((resource) => resource.urn.endsWith("::ada-user"));
    assert.equal(
      (ada?.inputs?.password as Record<string, unknown> | undefined)?.[secretSignature],
      secretValue,
      "the password is not in the state, as a secret",
    );
    // Every collection holds as many objects as the source's: the built-ins taken over, never made again.
    assert.deepEqual(await countsAt(staging), await countsAt(source));
    assert.ok(
      stagingStack.resources().every((resource) => !resource.protect),
      "a staging object protected",
    );
  });

  it("the second up sends no request, and the drift check finds no change", async () => {
    const before = await requestCount(staging);
    const again = await stagingStack.up();
    assert.equal(again.exitCode, 0, again.lines.join("\n"));
    assert.equal(again.changes, false, again.lines.join("\n"));
    assert.equal((await requestCount(staging)) - before, 0);
    const drift = await stagingStack.driftCheck();
    assert.equal(drift.exitCode, 0, drift.lines.join("\n"));
  });

  it("an export of fewer kinds refers to the others by a lookup of their names, which finds them in the other account", async () => {
    const out = join(repoRoot, ".work", "one-setup", `${name}-webhooks`);
    rmSync(out, { recursive: true, force: true });
    const result = await exportAccount(source, out, "--kinds", "webhook", ...door.flags);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      readFileSync(join(out, door.flags.includes("yaml") ? "Pulumi.yaml" : "index.ts"), "utf8"),
      /getList(Output\(\{ name: "Acme news" \}\)\.id|\n)/,
    );
    const webhooks = await CliStack.create(await door.install(out, `${name}-webhooks`), "lookups", stackOnEmulator(staging));
    stacks.push(webhooks);
    // The preview runs the lookup, and fails when it finds no list of the name.
    const preview = await webhooks.preview();
    assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
    assert.equal(preview.steps.create, 2, preview.lines.join("\n"));
  });

  it("pulumi-crm compare finds the two accounts alike (exit 0); a tag renamed in one is a difference (exit 7), naming the tag and its field", async () => {
    const alike = await compareAccounts(source, staging);
    assert.equal(alike.code, 0, `${alike.stdout}${alike.stderr}`);
    const tag = (await emulatorRead(staging, "/tags")).tags.find((one: { tag: string }) => one.tag === "Customer");
    await emulatorCallWhenAdmitted(staging, "PUT", `/api/3/tags/${tag.id}`, { tag: { tag: "Client" } });
    const differ = await compareAccounts(source, staging);
    assert.equal(differ.code, 7, `${differ.stdout}${differ.stderr}`);
    assert.match(differ.stdout, /^tag +Customer tag \(contact\) +tag +"Customer" +"Client"$/m);
    for (const output of [alike, differ])
      assert.ok(![source.apiToken, staging.apiToken].some((key) => `${output.stdout}${output.stderr}`.includes(key)), "a key is printed");
  });

  it("a change of the program rolls to both stacks: the tag renamed in the program, each account holds the new name, alike again", async () => {
    const file = join(program, door.flags.includes("yaml") ? "Pulumi.yaml" : "index.ts");
    const text = readFileSync(file, "utf8");
    const renamed = text.replace(/^(\s+tag: )"?Customer"?(,?)$/m, '$1"Client"$2');
    assert.notEqual(renamed, text, "the tag's declaration is not in the program");
    writeFileSync(file, renamed);
    for (const stack of [stagingStack, sourceStack]) {
      const up = await stack.up("--skip-preview");
      assert.equal(up.exitCode, 0, up.lines.join("\n"));
    }
    for (const account of [source, staging]) assert.ok((await emulatorRead(account, "/tags")).tags.some((tag: { tag: string }) => tag.tag === "Client"));
    const alike = await compareAccounts(source, staging);
    assert.equal(alike.code, 0, `${alike.stdout}${alike.stderr}`);
  });

  it("destroy leaves the other account as it started; the source stack's destroy is refused by protect", async () => {
    const destroyed = await stagingStack.destroy("--skip-preview");
    assert.equal(destroyed.exitCode, 0, destroyed.lines.join("\n"));
    assert.deepEqual(await setupAt(staging), fresh);
    const before = await writesByRoute(source);
    const refused = await sourceStack.destroy("--skip-preview");
    assert.notEqual(refused.exitCode, 0);
    assert.match(refused.lines.join("\n"), /protect/);
    assert.deepEqual(await writesSince(source, before), {});
  });
}
