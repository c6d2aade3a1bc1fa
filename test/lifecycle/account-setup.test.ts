// The account-wide setup end to end on the real `pulumi` CLI: examples/account-setup (an
// address, a calendar feed, a message and the branding) from the packed package, against the
// emulator.

import assert from "node:assert/strict";
import { startEmulator } from "../../emulator";
import { installExample } from "../../scripts/harness/packed-program";
import { emulatorCallWhenAdmitted, emulatorRead, requestCount, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { CHANGES_NOT_EXPECTED, CliStack, secretSignature } from "../../scripts/harness/pulumi-cli";

const dynamicType = (name: string) => `pulumi-nodejs:dynamic/crm:${name}`;

describe("account setup lifecycle on the pulumi CLI", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  let brandingBefore: Record<string, unknown>;
  let started = 0;

  before(async () => {
    started = Date.now();
    // The real service's limit, so that the provider's shared limiter is exercised.
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    const program = installExample("account-setup", "lifecycle-account-setup", { typeCheck: "once" });
    stack = await CliStack.create(program, "dev", stackOnEmulator(emulator));
    brandingBefore = await branding();
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
    console.log(`      lifecycle suite: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  /** A read of the test's own, in the account's rate limit like the provider's. */
  const get = (path: string) => emulatorRead(emulator, path);
  const branding = async () => (await get("/brandings/1")).branding as Record<string, unknown>;
  const idOf = (type: string) => stack.resources().find((r) => r.type === dynamicType(type))!.id!;

  it("up creates the address, the feed and the message, and takes the branding over", async () => {
    // The whole `pulumi up`, its preview of a fresh stack included.
    const result = await stack.up();
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    // The CLI's summary counts the stack too.
    assert.equal(result.steps.create, 5);
    const address = (await get(`/addresses/${idOf("Address")}`)).address;
    assert.deepEqual([address.companyName, address.country, address.isDefault], ["Acme Inc", "US", "1"]);
    assert.equal((await get(`/addresses/${address.id}/addressGroup`)).addressGroups[0].groupid, "3");
    assert.equal((await get(`/messages/${idOf("Message")}`)).message.subject, "Welcome to %LISTNAME%, %FIRSTNAME%");
    assert.equal((await get(`/calendars/${idOf("CalendarFeed")}`)).calendar.title, "Team tasks");
    const taken = await branding();
    assert.deepEqual(
      [taken.siteName, taken.headerTextValue, taken.favicon, taken.links],
      ["Acme Marketing", "Acme Inc", "https://acme.example/favicon.ico", "0"],
    );
    assert.equal(taken.footerTextValue, brandingBefore.footerTextValue, "a field the program does not set is not touched");
  });

  it("a second up is all `same` and sends no request", async () => {
    const before = await requestCount(emulator);
    // Without the preview: it would see no value unknown, so its Check and Diff calls are the update's own.
    const result = await stack.deploy();
    assert.deepEqual(result.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 5 });
    const sent = (await requestCount(emulator)) - before;
    console.log(`      requests during the no-op up: ${sent}`);
    assert.equal(sent, 0);
  });

  it("the drift check right after finds no change", async () => {
    const result = await stack.driftCheck();
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    assert.equal(result.changes, false);
  });

  it("an address and a message changed out of band are drift: the check exits 7, and up --refresh restores them", async () => {
    const addressId = idOf("Address");
    const messageId = idOf("Message");
    await emulatorCallWhenAdmitted(emulator, "PUT", `/api/3/addresses/${addressId}`, { address: { city: "Boston", zip: "02108" } });
    await emulatorCallWhenAdmitted(emulator, "PUT", `/api/3/messages/${messageId}`, { message: { subject: "Changed out of band" } });
    const check = await stack.driftCheck();
    assert.equal(check.exitCode, CHANGES_NOT_EXPECTED, check.lines.join("\n"));

    const restore = await stack.deploy("--refresh");
    assert.equal(restore.steps.update, 2, restore.lines.join("\n"));
    const address = (await get(`/addresses/${addressId}`)).address;
    assert.deepEqual([address.city, address.zip], ["Chicago", "60601"]);
    assert.equal((await get(`/messages/${messageId}`)).message.subject, "Welcome to %LISTNAME%, %FIRSTNAME%");
    assert.equal((await stack.driftCheck()).exitCode, 0);
  });

  it("keeps the feed token and the API token out of the state except in secret-marked values", async () => {
    const feedToken = (await get(`/calendars/${idOf("CalendarFeed")}`)).calendar.token as string;
    assert.ok(feedToken, "the feed has a token");
    const findings: string[] = [];
    const visit = (value: unknown, insideSecret: boolean, path: string) => {
      if (typeof value === "string") {
        for (const secret of [feedToken, emulator.apiToken]) if (value.includes(secret) && !insideSecret) findings.push(path);
      } else if (value && typeof value === "object") {
        const secret = insideSecret || (value as Record<string, unknown>)[secretSignature] !== undefined;
        for (const [key, child] of Object.entries(value)) visit(child, secret, `${path}.${key}`);
      }
    };
    const text = stack.stateText();
    visit(JSON.parse(text), false, "$");
    assert.deepEqual(findings, []);
    // The passphrase provider encrypts secrets in the state: neither token is in it at all.
    for (const secret of [feedToken, emulator.apiToken]) assert.ok(!text.includes(secret), "a token is in the state file in plain text");
    const feed = stack.resources().find((r) => r.type === dynamicType("CalendarFeed"))!;
    assert.equal(feed.outputs!.token?.[secretSignature] !== undefined, true, "the token output is secret-marked");
    assert.equal((await stack.outputs()).calendarFeedToken, feedToken);
  });

  it("destroy deletes the three objects and puts the branding back as it was before the first up", async () => {
    const result = await stack.destroy("--skip-preview");
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    assert.equal(result.steps.delete, 5);
    assert.equal((await get("/addresses")).meta.total, "0");
    assert.equal((await get("/calendars")).meta.total, "0");
    assert.equal((await get("/messages")).meta.total, "0");
    assert.deepEqual(await branding(), brandingBefore);
  });
});
