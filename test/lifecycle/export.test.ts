// `pulumi-crm export`, the round trip: an account populated through the emulator's HTTP
// API (every kind, custom fields of several types, stored in the service's quirky forms)
// is exported, the program written is installed from the packed package and run on the real
// `pulumi` CLI, type-checked on every run as users have it: its first up takes every object
// over without creating or writing anything, a second up sends nothing, and a change in the
// account afterwards is drift.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { startEmulator } from "../../emulator";
import { installProgram, packedTarball, repoRoot } from "../../scripts/harness/packed-program";
import { emulatorCall, emulatorStats, requestCount, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { writesByRoute, writesSince } from "../support/adoption";
import { CHANGES_NOT_EXPECTED, CliStack, diagnostics } from "../../scripts/harness/pulumi-cli";
import { exportedResources } from "../../provider/commands/export/read-account";

interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The @pulumi/pulumi version installed in a project. */
const sdkVersionIn = (project: string): string => JSON.parse(readFileSync(join(project, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")).version;

/** Runs a command without blocking this process, where the emulator answers it. */
const run = (file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  new Promise<CommandResult>((resolve) =>
    execFile(file, args, { ...options, encoding: "utf8" }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })),
  );

describe("pulumi-crm export: the round trip on the pulumi CLI", function () {
  this.timeout(600_000);
  let emulator: RunningEmulator;
  let exportDir: string;
  let program: string;
  let stack: CliStack;
  /**
   * The objects the export should declare: what every account comes with (the branding, the two
   * switches, the four built-in task types, the admin and the admins' group, the two built-in deal
   * roles), and each POST of the test's own.
   */
  let objectsInAccount = 1 + 2 + 4 + 2 + 2;
  const calendarTokens: string[] = [];
  let noteId: string;
  let started = 0;

  /** The objects known by name only: their names are their ids. */
  const trackingNames = { domains: ["shop.acme.example", "blog.acme.example"], events: ["Signed up", "Watched demo"] };
  const namedIds = [...trackingNames.domains, ...trackingNames.events].map((name) => name.replace(/\./g, "\\.")).join("|");

  /** A call of the test's own, waiting out the account's rate limit, which the provider shares. */
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const reply = await emulatorCall(emulator, method, `/api/3${path}`, body);
    if (reply.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return call(method, path, body);
    }
    assert.ok(reply.status < 300, `${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    objectsInAccount += method === "POST" ? 1 : 0;
    return reply.body;
  };

  /** The account as a team has it: created through the API in the forms the real service stores. */
  async function populate(): Promise<void> {
    const account = async (name: string, accountUrl?: string) => (await call("POST", "/accounts", { account: { name, accountUrl } })).account.id as string;
    const acme = await account("Acme Corp", "https://acme.example");
    const globex = await account("Globex");
    // Another name that reads the same in a variable: the program names it apart.
    await account("ACME corp.");

    const field = async (metum: Record<string, unknown>) =>
      (await call("POST", "/accountCustomFieldMeta", { accountCustomFieldMetum: metum })).accountCustomFieldMetum.id as string;
    // Flags as strings, a multi-value default as `||a||`, a date default with a time, a
    // lower-case currency code, a display order as a string.
    const industry = await field({
      fieldLabel: "Industry",
      fieldType: "dropdown",
      fieldOptions: ["Software", "Retail", "Health"],
      fieldDefault: "Software",
      isFormVisible: "1",
    });
    const regions = await field({ fieldLabel: "Regions", fieldType: "multiselect", fieldOptions: ["EMEA", "APAC", "AMER"], fieldDefault: "||EMEA||" });
    const renewal = await field({ fieldLabel: "Renewal date", fieldType: "date", fieldDefault: "2027-01-01 00:00:00", isRequired: 1 });
    const contract = await field({ fieldLabel: "Contract value", fieldType: "currency", fieldDefaultCurrency: "eur", fieldDefault: 100000 });
    const employees = await field({ fieldLabel: "Employees", fieldType: "number", displayOrder: "7" });
    const kickoff = await field({ fieldLabel: "Kick-off", fieldType: "datetime" });
    const remarks = await field({ fieldLabel: "Remarks", fieldType: "textarea", fieldDefault: "two\nlines" });
    const partner = await field({ fieldLabel: "Partner?", fieldType: "checkbox", fieldOptions: ["yes"] });
    const tier = await field({ fieldLabel: "Tier", fieldType: "radio", fieldOptions: ["Gold", "Silver"] });
    const reference = await field({ fieldLabel: "Internal ref", fieldType: "hidden" });

    const value = (accountId: string, customFieldId: string, fieldValue: unknown, fieldCurrency?: string) =>
      call("POST", "/accountCustomFieldData", { accountCustomFieldDatum: { customerAccountId: accountId, customFieldId, fieldValue, fieldCurrency } });
    await value(acme, industry, "Retail");
    await value(acme, regions, "||EMEA||APAC||");
    await value(acme, renewal, "03/31/2027");
    await value(acme, contract, "12500000", "eur");
    await value(acme, employees, "420");
    await value(acme, kickoff, "2027-03-31T05:15:00-05:00");
    await value(acme, remarks, "Line 1\nLine 2");
    await value(acme, partner, ["yes"]);
    await value(acme, tier, "Gold");
    await value(acme, reference, "ACME-001");
    await value(globex, industry, "Health");
    await value(globex, employees, 12.5);

    noteId = (await call("POST", `/accounts/${acme}/notes`, { note: { note: "Renewal talks start in January." } })).note.id;
    await call("POST", `/accounts/${acme}/notes`, { note: { note: "Prefers email." } });
    await call("POST", `/accounts/${globex}/notes`, { note: { note: "Met at the fair." } });

    // Contacts are not managed by pulumi-crm, nor exported: made outside the count.
    const contact = async (email: string) => (await emulatorCall(emulator, "POST", "/api/3/contacts", { contact: { email } })).body.contact.id as string;
    const [ann, bob] = [await contact("ann@acme.example"), await contact("bob@globex.example")];
    await call("POST", "/accountContacts", { accountContact: { account: Number(acme), contact: Number(ann), jobTitle: "Head of purchasing" } });
    await call("POST", "/accountContacts", { accountContact: { account: Number(globex), contact: Number(bob) } });

    // A lower-case country, and a group and a list association; the first address becomes the default.
    await call("POST", "/addresses", {
      address: { company_name: "Acme Corp", address_1: "1 Main St", city: "Berlin", zip: "10115", country: "de", groupid: 3, listid: 7 },
    });
    await call("POST", "/addresses", { address: { company_name: "Globex HQ", address_1: "5 Elm Rd", country: "US" } });

    for (const calendar of [
      { title: "Team tasks", type: "All", notification: 1 },
      { title: "Deals", type: "Deals" },
    ]) {
      calendarTokens.push((await call("POST", "/calendars", { calendar })).calendar.token);
    }

    const sender = { fromname: "Acme News", fromemail: "news@acme.example", reply2: "help@acme.example" };
    await call("POST", "/messages", { message: { ...sender, subject: "Hello %FIRSTNAME%", preheader_text: "Our news" } });
    await call("POST", "/messages", { message: { ...sender, fromname: "Acme Support" } });

    // The contacts' side: a list, two tags, a dropdown field on the list (its options and
    // relation made by calls of their own, not counted as objects), a variable, a saved
    // response and a webhook of the list.
    const news = (
      await call("POST", "/lists", {
        list: { name: "Acme news", stringid: "acme-news", sender_url: "https://acme.example", sender_reminder: "You signed up at acme.example." },
      })
    ).list.id;
    await call("POST", "/tags", { tag: { tag: "Customer", tagType: "contact", description: "Bought once" } });
    await call("POST", "/tags", { tag: { tag: "Newsletter", tagType: "template" } });
    const interest = (await call("POST", "/fields", { field: { title: "Interest", type: "dropdown" } })).field.id;
    const options = ["Products", "Events"].map((value, index) => ({ field: Number(interest), value, label: value, orderid: index + 1, isdefault: false }));
    await emulatorCall(emulator, "POST", "/api/3/fieldOption/bulk", { fieldOptions: options });
    await emulatorCall(emulator, "POST", "/api/3/fieldRels", { fieldRel: { field: Number(interest), relid: Number(news) } });
    await call("POST", "/personalizations", { personalization: { tag: "signature", name: "Signature", format: "text", content: "The Acme team" } });
    await call("POST", "/savedResponses", { savedResponse: { title: "Follow-up", subject: "Thanks", body: "Slides attached." } });
    await call("POST", "/webhooks", {
      webhook: {
        name: "Subscriptions",
        url: "https://hooks.acme.example/crm",
        events: ["unsubscribe", "subscribe"],
        sources: ["public"],
        listid: Number(news),
      },
    });

    // The sales side: a pipeline (made with its three default stages) and a stage added to it, a
    // task type, a deal field, a deal role, a task outcome (its sentiment sent in lower case), a
    // shop connection, a user group and a user in it.
    const pipeline = (await call("POST", "/dealGroups", { dealGroup: { title: "Sales", currency: "eur", autoassign: 0 } })).dealGroup.id;
    objectsInAccount += 3;
    await call("POST", "/dealStages", { dealStage: { title: "Won", group: pipeline, color: "18D499" } });
    await call("POST", "/dealTasktypes", { dealTasktype: { title: "Demo", status: "0" } });
    await call("POST", "/dealCustomFieldMeta", {
      dealCustomFieldMetum: { fieldLabel: "Lead source", fieldType: "dropdown", fieldOptions: ["Web", "Referral"], fieldDefault: "Web", isFormVisible: 1 },
    });
    await call("POST", "/dealRoles", { dealRole: { title: "Finance" } });
    await call("POST", "/taskOutcomes", { taskOutcome: { title: "Booked a demo", sentiment: "positive" } });
    await call("POST", "/connections", {
      connection: {
        service: "shopify",
        externalid: "acme.myshopify.com",
        name: "Acme shop",
        logoUrl: "https://acme.example/logo.png",
        linkUrl: "https://acme.example/admin",
      },
    });
    const reps = (await call("POST", "/groups", { group: { title: "Reps", pgDeal: true, pgContactAdd: true } })).group.id;
    await call("POST", "/users", {
      user: { username: "ada", email: "ada@acme.example", firstName: "Ada", lastName: "Lovelace", group: Number(reps), password: "not exported" },
    });

    // The branding exists from the start; sending `links` turns external links off.
    await call("PUT", "/brandings/1", { branding: { siteName: "Acme Marketing", footerTextValue: "© Acme", links: 1 } });
    // One custom object schema: the two the account starts with deleted, one made with a field of
    // each kind the service adds to (a dropdown's option ids, a scale on every field) and a relationship.
    for (const { id } of (await call("GET", "/customObjects/schemas")).schemas) await call("DELETE", `/customObjects/schemas/${id}`);
    const machine = {
      slug: "machine",
      labels: { singular: "Machine", plural: "Machines" },
      fields: [
        { id: "serial", labels: { singular: "Serial", plural: "Serials" }, type: "text", required: true, scale: 0 },
        { id: "model", labels: { singular: "Model", plural: "Models" }, type: "dropdown", options: [{ value: "M1" }, { value: "M2" }] },
      ],
      relationships: [{ id: "account", labels: { singular: "Account", plural: "Accounts" }, namespace: "accounts", hasMany: false }],
    };
    await call("POST", "/customObjects/schemas", { schema: machine });
    // The account-wide switches exist from the start too, each exported as it is.
    await call("PUT", "/siteTracking", { siteTracking: { enabled: false } });
    // Two allowed domains and two tracked events, known by name only; and one of the service's own events, not exported.
    for (const name of trackingNames.domains) await call("POST", "/siteTrackingDomains", { siteTrackingDomain: { name } });
    for (const name of trackingNames.events) await call("POST", "/eventTrackingEvents", { eventTrackingEvent: { name } });
    await emulatorCall(emulator, "POST", "/api/3/eventTrackingEvents", { eventTrackingEvent: { name: "__pagevisit" } });
  }

  before(async () => {
    started = Date.now();
    // The real service's limit, so that the provider's shared limiter is exercised.
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    await populate();
    // Builds dist/, whose bin the export runs: the same files the tarball ships.
    packedTarball();
    exportDir = join(repoRoot, ".work", "export", "acme-crm");
    rmSync(exportDir, { recursive: true, force: true });
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
    console.log(`      lifecycle suite: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  /**
   * Requests since `before` (emulator stats): answered, and answered 429. On a loaded
   * machine the service's window may see one request too many; the 429 is waited out and
   * the request sent again.
   */
  const requestsSince = async (before: Awaited<ReturnType<typeof emulatorStats>>) => {
    const after = await emulatorStats(emulator);
    const limited = (after.byStatus["429"] ?? 0) - (before.byStatus["429"] ?? 0);
    return { answered: after.requests - before.requests - limited, limited };
  };
  const exportCli = (args: string[]) =>
    run(process.execPath, [join(repoRoot, "dist", "provider", "commands", "bin.js"), "export", ...args], {
      env: { PATH: process.env.PATH, CRM_API_TOKEN: emulator.apiToken },
    });

  it("export reads each collection once and writes a program declaring every object, taken over and protected", async () => {
    const before = await emulatorStats(emulator);
    // Every kind, the account's data too, for the stack of the test ("dev").
    const result = await exportCli(["--api-url", emulator.crmUrl, "--kinds", "all", "--stack", "dev", "--out", exportDir]);
    assert.equal(result.code, 0, result.stderr);
    const { answered, limited } = await requestsSince(before);
    console.log(`      the export: ${objectsInAccount} objects, ${answered} requests answered (${limited} more answered 429)`);
    // One page per collection (15 today), each of the 2 addresses' group and list, each of the 2 users' group (ada's, the admin's), and the pipeline's users and groups.
    const collections = exportedResources.map((resource) => resource.definition.exported.collection);
    assert.ok(collections.length >= 15, collections.join(", "));
    assert.equal(answered, collections.length + 2 * 2 + 2 + 2);
    for (const collection of collections) {
      assert.match(result.stderr, new RegExp(`^pulumi-crm export: ${collection}: \\d+ read, \\d+ exported$`, "m"));
    }

    const index = readFileSync(join(exportDir, "index.ts"), "utf8");
    assert.equal(index.match(/new crm\.\w+\(/g)?.length, objectsInAccount);
    // Each object but those every account comes with is taken over by the id the stack's settings hold for it.
    const builtIns = 1 + 2 + 4 + 2 + 2;
    assert.equal(index.match(/adoptId: adopt\["[\w-]+"\],/g)?.length, objectsInAccount - builtIns);
    const settings = readFileSync(join(exportDir, "Pulumi.dev.yaml"), "utf8");
    // An id is digits, a schema's UUID, or the name of an object known by name only.
    assert.equal(settings.match(new RegExp(`^    [\\w-]+: "?(\\d+|[0-9a-f-]{36}|${namedIds})"?$`, "gm"))?.length, objectsInAccount - builtIns, settings);
    assert.match(settings, /^config:\n {2}crm:apiUrl: "?http:\/\/127\.0\.0\.1:\d+"?\n {2}acme-crm:protect: true\n {2}acme-crm:adopt:\n {4}acme-corp: "1"\n/m);
    assert.equal(index.match(/\}, \{ protect \}\);/g)?.length, objectsInAccount);
    assert.match(
      index,
      /const acmeCorp = new crm\.Account\("acme-corp", \{\n {2}adoptId: adopt\["acme-corp"\],\n {2}name: "Acme Corp",\n {2}accountUrl: "https:\/\/acme\.example",\n\}/,
    );
    assert.match(index, /const acmeCorp2 = new crm\.Account\("acme-corp-2", \{/);
    assert.match(
      index,
      /const acmeCorpRegions = new crm\.AccountCustomFieldValue\("acme-corp-regions", \{\n {2}adoptId: adopt\["acme-corp-regions"\],\n {2}accountId: acmeCorp\.id,\n {2}customFieldId: regionsField\.id,\n {2}fieldValue: \["EMEA", "APAC"\],/,
    );
    assert.match(index, /accountId: globex\.id,\n {2}note: "Met at the fair\.",/);
    assert.match(index, /fieldValue: "2027-03-31",/);
    assert.match(index, /new crm\.SiteTracking\("[\w-]+", \{\n {2}enabled: false,\n\}/);
    assert.match(
      index,
      /new crm\.SiteTrackingDomain\("shop-acme-example-site-tracking-domain", \{\n {2}adoptId: adopt\["shop-acme-example-site-tracking-domain"\],\n {2}name: "shop\.acme\.example",\n\}/,
    );
    assert.match(settings, /^ {4}signed-up-tracked-event: Signed up$/m);
    assert.ok(!index.includes("__pagevisit"), "the service's own event is exported");
    assert.match(index, /fieldValue: 12500000,\n {2}fieldCurrency: "EUR",/);
    // Group 3 is the account's admins' group, exported too; list 7 is none, left out and said so.
    assert.match(index, /country: "DE",\n {2}isDefault: true,\n {2}allgroup: false,\n {2}groupId: adminUserGroup\.id,\n\}/);
    assert.match(index, /^\/\/ acme-corp-address: listId: the list 7 it names is no object of the account; left out$/m);
    assert.match(index, /externalLinks: false,/);
    assert.match(index, /new crm\.CustomObjectSchema\("machine[\w-]*", \{\n {2}adoptId: adopt\["machine-custom-object-schema"\],\n {2}slug: "machine",/);
    assert.match(index, /const acmeNewsList = new crm\.List\("acme-news-list", \{/);
    assert.match(
      index,
      /new crm\.ContactCustomField\("interest-contact-custom-field", \{\n {2}adoptId: adopt\["interest-contact-custom-field"\],\n {2}title: "Interest",\n {2}type: "dropdown",\n {2}options: \["Products", "Events"\],\n {2}listIds: \[acmeNewsList\.id\],/,
    );
    assert.match(index, /events: \["subscribe", "unsubscribe"\],\n {2}sources: \["public"\],\n {2}listId: acmeNewsList\.id,/);
    // Not vacuous: the two feeds' tokens, as the service answered them.
    assert.equal(
      calendarTokens.filter((token) => typeof token === "string" && token.length > 0).length,
      2,
      `the feeds' tokens: ${JSON.stringify(calendarTokens)}`,
    );
    for (const token of calendarTokens) assert.ok(!index.includes(token), "a calendar feed's token is written out");
    assert.ok(!index.includes(emulator.apiToken) && !settings.includes(emulator.apiToken), "the API token is written out");

    const tsconfig = JSON.parse(readFileSync(join(exportDir, "tsconfig.json"), "utf8"));
    assert.equal(tsconfig.compilerOptions.noCheck, undefined, "the program must be type-checked");
    const packageJson = JSON.parse(readFileSync(join(exportDir, "package.json"), "utf8"));
    const own = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
    // Run from a clone, not an install: pulumi-crm's range, said to install only once published; the SDK from the version the clone runs.
    assert.deepEqual(packageJson.dependencies, { "@pulumi/pulumi": `^${sdkVersionIn(repoRoot)}`, "pulumi-crm": `^${own.version}` });
    assert.match(result.stderr, /package\.json names pulumi-crm as "\^[\d.]+", which installs only from a registry that has this version; give --package-spec/);
    assert.match(readFileSync(join(exportDir, "Pulumi.yaml"), "utf8"), /^name: acme-crm\nruntime:\n {2}name: nodejs\n/);
  });

  it("refuses to write over a program, and names a kind it does not know", async () => {
    const again = await exportCli(["--api-url", emulator.crmUrl, "--out", exportDir]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /holds Pulumi\.yaml, package\.json, tsconfig\.json, index\.ts already; give an --out folder without a program/);
    const unknownKind = await exportCli(["--kinds", "account,contact", "--out", join(exportDir, "unused")]);
    assert.equal(unknownKind.code, 2);
    assert.match(unknownKind.stderr, /--kinds: contact is not a kind; give setup, data, all, or kinds: account, account-custom-field,/);
    assert.ok(!existsSync(join(exportDir, "unused")));
  });

  it("--kinds and --name-filter narrow the export; a reference to an object not exported is a lookup by its name, or refused without one", async () => {
    const narrowDir = join(repoRoot, ".work", "export", "globex-notes");
    rmSync(narrowDir, { recursive: true, force: true });
    const result = await exportCli(["--api-url", emulator.crmUrl, "--kinds", "account-note", "--name-filter", "globex", "--out", narrowDir]);
    assert.equal(result.code, 0, result.stderr);
    const index = readFileSync(join(narrowDir, "index.ts"), "utf8");
    assert.deepEqual(index.match(/new crm\.\w+/g), ["new crm.AccountNote"]);
    assert.match(index, /^const globexAccount = crm\.getAccountOutput\(\{ name: "Globex" \}\)\.id;$/m);
    assert.match(index, /accountId: globexAccount,\n {2}note: "Met at the fair\.",/);
    // A value's field has no lookup by name: the kind to add is named, and nothing is written.
    const valuesDir = join(repoRoot, ".work", "export", "globex-values");
    rmSync(valuesDir, { recursive: true, force: true });
    const refused = await exportCli([
      "--api-url",
      emulator.crmUrl,
      "--kinds",
      "account,account-custom-field-value",
      "--name-filter",
      "globex",
      "--out",
      valuesDir,
    ]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /refers to the account-custom-field "Industry" \(customFieldId\), which the exported kinds leave out and no lookup finds by name; add account-custom-field to --kinds/,
    );
    assert.ok(!existsSync(valuesDir));
  });

  it("the program installs from the packed package, with the pulumi-crm bin", async () => {
    // Type-checked on every run, as users run it: the one program of the suite that is.
    program = installProgram(exportDir, "lifecycle-export");
    const help = await run(join(program, "node_modules", ".bin", "pulumi-crm"), ["--help"]);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^usage: pulumi-crm export/);
    assert.match(help.stdout, /^ {2}-v, --version +\S/m);
    assert.ok(help.stdout.endsWith("\n"), "the help's last line is unfinished");
    for (const flag of ["--version", "-v"]) {
      const version = await run(join(program, "node_modules", ".bin", "pulumi-crm"), [flag]);
      assert.deepEqual(version, { code: 0, stdout: `${JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).version}\n`, stderr: "" });
    }

    // Run from an install, the program names pulumi-crm as the installing project does: here the tarball, rebased.
    const fromInstall = join(program, "exported-accounts");
    rmSync(fromInstall, { recursive: true, force: true });
    const exported = await run(
      join(program, "node_modules", ".bin", "pulumi-crm"),
      ["export", "--api-url", emulator.crmUrl, "--kinds", "account", "--out", fromInstall],
      {
        env: { PATH: process.env.PATH, CRM_API_TOKEN: emulator.apiToken },
      },
    );
    assert.equal(exported.code, 0, exported.stderr);
    assert.doesNotMatch(exported.stderr, /--package-spec/);
    const { dependencies } = JSON.parse(readFileSync(join(fromInstall, "package.json"), "utf8"));
    const spec: string = dependencies["pulumi-crm"];
    assert.match(spec, /^file:\.\.\//);
    // The SDK the installing project runs.
    assert.equal(dependencies["@pulumi/pulumi"], `^${sdkVersionIn(program)}`);
    assert.equal(resolve(fromInstall, spec.slice("file:".length)), packedTarball());
  });

  it("the first up type-checks the program and takes every object over: nothing created, nothing written", async () => {
    const before = await emulatorStats(emulator);
    const writesBefore = await writesByRoute(emulator);
    stack = await CliStack.create(program, "dev", stackOnEmulator(emulator));
    // The whole `pulumi up`, its preview of a fresh stack included.
    const result = await stack.up();
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    // The CLI's summary counts the stack too.
    assert.equal(result.steps.create, objectsInAccount + 1);
    // The dynamic provider host has no log connection to the engine: its pulumi.log.info goes to
    // stdout, which the CLI shows under the stack as the host's output ("info"): a line per
    // object taken over, then, as the engine ends the host, one line counting them.
    const said = diagnostics(result, "info").split("\n");
    const adoptions = said.filter((line) =>
      new RegExp(`^info: \\[runtime\\] crm\\.\\w+.*: took over existing object (\\d+|[0-9a-f-]{36}|siteTracking|eventTracking|${namedIds})$`).test(line),
    );
    const summaries = said.filter((line) => line.includes("pulumi-crm: this deployment took over"));
    assert.equal(adoptions.length, objectsInAccount, result.lines.join("\n"));
    assert.equal(new Set(adoptions).size, objectsInAccount, "an object's adoption said twice");
    assert.deepEqual(
      summaries.map((line) => /took over (\d+) existing objects/.exec(line)?.[1]),
      [String(objectsInAccount)],
      result.lines.join("\n"),
    );
    // The CLI prints each line twice when not on a terminal: as it comes, and under Diagnostics.
    const printed = result.lines.filter((line) => line.includes("took over"));
    console.log(`      the first up's output: ${printed.length} lines on adoption, ${printed.reduce((sum, line) => sum + line.length, 0)} characters`);
    assert.equal(stack.resources().filter((r) => r.custom && r.protect).length, objectsInAccount, "every object taken over is protected");
    const writes = await writesSince(emulator, writesBefore);
    const { answered, limited } = await requestsSince(before);
    console.log(
      `      the first up: ${result.steps.create - 1} objects adopted, ${answered} requests answered (${limited} more answered 429), writes ${JSON.stringify(writes)}`,
    );
    assert.deepEqual(writes, {});
  });

  it("a second up is all `same` and sends no request", async () => {
    const before = await requestCount(emulator);
    // Without the preview (`up --skip-preview`): it would see no value unknown, so its Check and Diff
    // calls are the update's own. The first up keeps it: a fresh stack's, its ids unknown.
    const result = await stack.deploy();
    assert.deepEqual(result.steps, { create: 0, update: 0, replace: 0, delete: 0, same: objectsInAccount + 1 });
    const sent = (await requestCount(emulator)) - before;
    console.log(`      the second up: ${sent} requests`);
    assert.equal(sent, 0);
  });

  it("the drift check finds no change; a note changed in the account afterwards is drift", async () => {
    const clean = await stack.driftCheck();
    assert.equal(clean.exitCode, 0, clean.lines.join("\n"));
    await call("PUT", `/notes/${noteId}`, { note: { note: "Renewal talks moved to March." } });
    const drifted = await stack.driftCheck("--diff");
    assert.equal(drifted.exitCode, CHANGES_NOT_EXPECTED, drifted.lines.join("\n"));
    assert.match(drifted.stdout, /note\s*:\s*"Renewal talks start in January\." => "Renewal talks moved to March\."/);
  });
});
