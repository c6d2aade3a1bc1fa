// The account-wide setup end to end: examples/account-setup (an address, a calendar
// feed, a message and the branding) from the packed package, run by the test engine
// against the emulator.

import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { EngineOptions, runEngine } from "../../engine/engine";
import { startEmulator } from "../../emulator";
import { installExample } from "../support/packed-program";
import { driftCheck, emulatorCall, requestCount, RunningEmulator, stackOnEmulator } from "../support/emulator";

const secretSignature = "4dabf18193072939515e22adb298388d";

describe("account setup lifecycle through the test engine", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let program: string;
  let stateFile: string;
  let brandingBefore: Record<string, unknown>;
  let started = 0;

  before(async () => {
    started = Date.now();
    // The real service's limit, so that the provider's shared limiter is exercised.
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    program = installExample("account-setup", "lifecycle-account-setup", { typeCheck: "once" });
    stateFile = join(program, "state.json");
    rmSync(stateFile, { force: true });
    brandingBefore = await branding();
  });
  after(async () => {
    await emulator?.close();
    console.log(`      lifecycle suite: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  /** `drift`: the CI drift check, `refresh --preview-only --expect-no-changes`. */
  const engine = (command: "up" | "refresh" | "destroy", drift = false, skipPreview = false) => {
    const options: EngineOptions = {
      command,
      cwd: program,
      stack: "dev",
      stateFile,
      ...stackOnEmulator(emulator),
      ...(drift ? driftCheck : {}),
      skipPreview,
    };
    return runEngine(options);
  };
  // Ups after the first skip the preview (`up --skip-preview`): it would see no value unknown, so its
  // Check and Diff calls are the update's own; the first up's preview, of a fresh stack, is kept.
  const upWithoutPreview = () => engine("up", false, true);
  /** A call of this test's own, in the account's rate limit like the provider's: a 429 waits its Retry-After (1 s) and tries again. */
  const call = async (method: string, path: string, body?: unknown) => {
    for (;;) {
      const reply = await emulatorCall(emulator, method, `/api/3${path}`, body);
      if (reply.status !== 429) return reply;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  const get = async (path: string) => (await call("GET", path)).body;
  const branding = async () => (await get("/brandings/1")).branding as Record<string, unknown>;
  const state = () => JSON.parse(readFileSync(stateFile, "utf8")) as { resources: Array<{ type: string; id?: string; inputs: any; outputs: any }> };
  const idOf = (type: string) => state().resources.find((r) => r.type === type)!.id!;

  it("up creates the address, the feed and the message, and takes the branding over", async () => {
    const result = await engine("up");
    assert.equal(result.exitCode, 0, [...result.lines, ...result.diagnostics].join("\n"));
    // Like the CLI's summary, steps count the stack too.
    assert.equal(result.steps.create, 5);
    const address = (await get(`/addresses/${idOf("pulumi-nodejs:dynamic/crm:Address")}`)).address;
    assert.deepEqual([address.companyName, address.country, address.isDefault], ["Acme Inc", "US", "1"]);
    assert.equal((await get(`/addresses/${address.id}/addressGroup`)).addressGroups[0].groupid, "3");
    assert.equal((await get(`/messages/${idOf("pulumi-nodejs:dynamic/crm:Message")}`)).message.subject, "Welcome to %LISTNAME%, %FIRSTNAME%");
    assert.equal((await get(`/calendars/${idOf("pulumi-nodejs:dynamic/crm:CalendarFeed")}`)).calendar.title, "Team tasks");
    const taken = await branding();
    assert.deepEqual([taken.siteName, taken.headerTextValue, taken.favicon, taken.links], ["Acme Marketing", "Acme Inc", "https://acme.example/favicon.ico", "0"]);
    assert.equal(taken.footerTextValue, brandingBefore.footerTextValue, "a field the program does not set is not touched");
  });

  it("a second up is all `same` and sends no request", async () => {
    const before = await requestCount(emulator);
    const result = await upWithoutPreview();
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    assert.deepEqual(result.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 5 });
    const sent = (await requestCount(emulator)) - before;
    console.log(`      requests during the no-op up: ${sent}`);
    assert.equal(sent, 0);
  });

  it("the drift check right after finds no change", async () => {
    const result = await engine("refresh", true);
    assert.equal(result.exitCode, 0, [...result.lines, ...result.diagnostics].join("\n"));
    assert.equal(result.changes, false);
  });

  it("an address and a message changed out of band are drift: the check exits 7, and refresh then up restore them", async () => {
    const addressId = idOf("pulumi-nodejs:dynamic/crm:Address");
    const messageId = idOf("pulumi-nodejs:dynamic/crm:Message");
    await call("PUT", `/addresses/${addressId}`, { address: { city: "Boston", zip: "02108" } });
    await call("PUT", `/messages/${messageId}`, { message: { subject: "Changed out of band" } });
    const check = await engine("refresh", true);
    assert.equal(check.exitCode, 7, check.lines.join("\n"));

    assert.equal((await engine("refresh")).exitCode, 0);
    const restore = await upWithoutPreview();
    assert.equal(restore.exitCode, 0, [...restore.lines, ...restore.diagnostics].join("\n"));
    assert.equal(restore.steps.update, 2);
    const address = (await get(`/addresses/${addressId}`)).address;
    assert.deepEqual([address.city, address.zip], ["Chicago", "60601"]);
    assert.equal((await get(`/messages/${messageId}`)).message.subject, "Welcome to %LISTNAME%, %FIRSTNAME%");
    assert.equal((await engine("refresh", true)).exitCode, 0);
  });

  it("keeps the feed token and the API token out of the state except in secret-marked values", async () => {
    const feedToken = (await get(`/calendars/${idOf("pulumi-nodejs:dynamic/crm:CalendarFeed")}`)).calendar.token as string;
    const findings: string[] = [];
    const visit = (value: unknown, insideSecret: boolean, path: string) => {
      if (typeof value === "string") {
        for (const secret of [feedToken, emulator.apiToken]) if (value.includes(secret) && !insideSecret) findings.push(path);
      } else if (value && typeof value === "object") {
        const secret = insideSecret || (value as Record<string, unknown>)[secretSignature] !== undefined;
        for (const [key, child] of Object.entries(value)) visit(child, secret, `${path}.${key}`);
      }
    };
    const text = readFileSync(stateFile, "utf8");
    visit(JSON.parse(text), false, "$");
    assert.deepEqual(findings, []);
    const feed = state().resources.find((r) => r.type === "pulumi-nodejs:dynamic/crm:CalendarFeed")!;
    assert.equal(feed.outputs.token?.[secretSignature] !== undefined, true, "the token output is secret-marked");
  });

  it("destroy deletes the three objects and puts the branding back as it was before the first up", async () => {
    const result = await engine("destroy");
    assert.equal(result.exitCode, 0, [...result.lines, ...result.diagnostics].join("\n"));
    assert.equal(result.steps.delete, 5);
    assert.equal((await get("/addresses")).meta.total, "0");
    assert.equal((await get("/calendars")).meta.total, "0");
    assert.equal((await get("/messages")).meta.total, "0");
    assert.deepEqual(await branding(), brandingBefore);
  });
});
