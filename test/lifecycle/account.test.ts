// crm.Account end to end: the packed package installed into a program, run by the
// test engine (real SDK, real dynamic provider host) against the emulator.

import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { runEngine } from "../../engine/engine";
import { startEmulator } from "../../emulator";
import { installExample } from "../support/packed-program";
import { emulatorCall, requestCount, RunningEmulator, stackOnEmulator } from "../support/emulator";

const secretSignature = "4dabf18193072939515e22adb298388d";

describe("crm.Account lifecycle through the test engine", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let program: string;
  let stateFile: string;
  let started = 0;

  before(async () => {
    started = Date.now();
    // The real service's limit, so that the provider's shared limiter is exercised.
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    program = installExample("quickstart", "lifecycle-account", { typeCheck: "once" });
    stateFile = join(program, "state.json");
    rmSync(stateFile, { force: true });
  });
  after(async () => {
    await emulator?.close();
    console.log(`      lifecycle suite: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  const engine = (command: "up" | "refresh" | "destroy" | "preview", expectNoChanges = false, skipPreview = false) =>
    runEngine({
      command,
      cwd: program,
      stack: "dev",
      stateFile,
      ...stackOnEmulator(emulator),
      expectNoChanges,
      previewOnly: expectNoChanges,
      skipPreview,
    });
  // Ups after the first skip the preview (`up --skip-preview`): it would see no value unknown, so its
  // Check and Diff calls are the update's own; the first up's preview, of a fresh stack, is kept.
  const upWithoutPreview = () => engine("up", false, true);
  const accounts = async () => (await emulatorCall(emulator, "GET", "/api/3/accounts?limit=100")).body.accounts as Array<{ id: string; name: string; accountUrl: string | null }>;
  const state = () => JSON.parse(readFileSync(stateFile, "utf8")) as { resources: Array<{ type: string; id?: string; inputs: any; outputs: any }> };
  const acmeId = () => state().resources.find((r) => r.outputs?.name === "Acme Inc" || r.inputs?.name === "Acme Inc")!.id!;

  it("up creates the accounts", async () => {
    const result = await engine("up");
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    // Like the CLI's summary, steps count the stack too.
    assert.equal(result.steps.create, 3);
    assert.deepEqual((await accounts()).map((a) => a.name).sort(), ["Acme Inc", "Globex Corporation"]);
  });

  it("a second up, its preview included, is all `same` and sends no request", async () => {
    const before = await requestCount(emulator);
    // The whole `pulumi up` a user runs: what a no-op up promises holds for its preview too.
    const result = await engine("up");
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    assert.deepEqual(result.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 3 });
    const sent = (await requestCount(emulator)) - before;
    console.log(`      requests during the no-op up: ${sent}`);
    assert.equal(sent, 0);
  });

  it("an unchanged account refreshes with no changes", async () => {
    const result = await engine("refresh", true);
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    assert.equal(result.changes, false);
  });

  it("a rename out of band is drift: refresh --expect-no-changes exits 7, and up restores the name", async () => {
    const id = acmeId();
    await emulatorCall(emulator, "PUT", `/api/3/accounts/${id}`, { account: { name: "Acme Renamed" } });
    const check = await engine("refresh", true);
    assert.equal(check.exitCode, 7, check.lines.join("\n"));
    assert.equal(check.changes, true);

    assert.equal((await engine("refresh")).exitCode, 0);
    const restore = await upWithoutPreview();
    assert.equal(restore.exitCode, 0, restore.lines.join("\n"));
    assert.equal(restore.steps.update, 1);
    const account = (await emulatorCall(emulator, "GET", `/api/3/accounts/${id}`)).body.account;
    assert.equal(account.name, "Acme Inc");
    assert.equal(account.accountUrl, "https://acme.example");
  });

  it("an account deleted out of band leaves the state on refresh and is created again by up", async () => {
    const id = acmeId();
    await emulatorCall(emulator, "DELETE", `/api/3/accounts/${id}`);
    const refresh = await engine("refresh");
    assert.equal(refresh.exitCode, 0, refresh.lines.join("\n"));
    assert.ok(!state().resources.some((r) => r.id === id), "the deleted account is still in the state");
    const up = await upWithoutPreview();
    assert.equal(up.steps.create, 1);
    assert.ok((await accounts()).some((a) => a.name === "Acme Inc"));
  });

  it("keeps the token out of the state except in secret-marked values, and every __provider small", () => {
    const text = readFileSync(stateFile, "utf8");
    const findings: string[] = [];
    const visit = (value: unknown, insideSecret: boolean) => {
      if (typeof value === "string") {
        if (value.includes(emulator.apiToken) && !insideSecret) findings.push(value.slice(0, 80));
      } else if (value && typeof value === "object") {
        const secret = insideSecret || (value as Record<string, unknown>)[secretSignature] !== undefined;
        for (const child of Object.values(value)) visit(child, secret);
      }
    };
    visit(JSON.parse(text), false);
    assert.deepEqual(findings, []);
    const sizes = state()
      .resources.filter((r) => r.inputs?.__provider)
      .map((r) => Buffer.byteLength(typeof r.inputs.__provider === "string" ? r.inputs.__provider : JSON.stringify(r.inputs.__provider)));
    assert.equal(sizes.length, 2);
    console.log(`      largest __provider: ${Math.max(...sizes)} bytes`);
    assert.ok(Math.max(...sizes) <= 2048, `__provider sizes ${sizes}`);
  });

  it("destroy leaves no account", async () => {
    const result = await engine("destroy");
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    assert.equal(result.steps.delete, 3);
    assert.deepEqual(await accounts(), []);
  });
});
