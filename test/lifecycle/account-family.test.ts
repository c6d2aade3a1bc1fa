// The account family end to end: examples/account-family (an account, five custom fields,
// a value of each, a note and a contact's association) from the packed package, run by
// the test engine against the emulator.

import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { runEngine } from "../../engine/engine";
import { startEmulator } from "../../emulator";
import { installExample } from "../support/packed-program";
import { driftCheck, emulatorCall, emulatorRead, emulatorStats, requestCount, RunningEmulator, stackOnEmulator } from "../support/emulator";

const dynamicType = (name: string) => `pulumi-nodejs:dynamic/crm:${name}`;

describe("account family lifecycle through the test engine", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let program: string;
  let stateFile: string;
  let contactId: string;
  let started = 0;

  before(async () => {
    started = Date.now();
    // The real service's limit, so that the provider's shared limiter is exercised.
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    program = installExample("account-family", "lifecycle-account-family", { typeCheck: "once" });
    stateFile = join(program, "state.json");
    rmSync(stateFile, { force: true });
    // The contact exists before the stack, which only associates it with the account.
    contactId = (await emulatorCall(emulator, "POST", "/api/3/contacts", { contact: { email: "buyer@globex.example", firstName: "Hank" } })).body.contact.id;
  });
  after(async () => {
    await emulator?.close();
    console.log(`      lifecycle suite: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  /** `drift`: the CI drift check, `refresh --preview-only --expect-no-changes`. */
  const engine = (command: "up" | "refresh" | "destroy", drift = false, skipPreview = false) =>
    runEngine({
      command,
      cwd: program,
      stack: "dev",
      stateFile,
      ...stackOnEmulator(emulator, { "crm-account-family:contactId": contactId }),
      ...(drift ? driftCheck : {}),
      skipPreview,
    });
  // Ups after the first skip the preview (`up --skip-preview`): it would see no value unknown, so its
  // Check and Diff calls are the update's own; the first up's preview, of a fresh stack, is kept.
  const upWithoutPreview = () => engine("up", false, true);
  const output = (result: { lines: string[]; diagnostics: string[] }) => [...result.lines, ...result.diagnostics].join("\n");
  /** A read of the test's own, waiting out the account's rate limit, which the provider shares. */
  const get = (path: string) => emulatorRead(emulator, path);
  /** A change made out of band, likewise waiting out the rate limit: a refused change would be no drift at all. */
  const changeOutOfBand = async (method: "PUT" | "DELETE", path: string, body?: unknown): Promise<void> => {
    const reply = await emulatorCall(emulator, method, `/api/3${path}`, body);
    if (reply.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return changeOutOfBand(method, path, body);
    }
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
  };
  const state = () => JSON.parse(readFileSync(stateFile, "utf8")) as { resources: Array<{ type: string; id?: string; outputs: any }> };
  const resource = (type: string, where: (outputs: any) => boolean = () => true) => state().resources.find((r) => r.type === dynamicType(type) && where(r.outputs))!;
  const field = (label: string) => resource("AccountCustomField", (outputs) => outputs.fieldLabel === label);

  it("up creates the account, the fields, their values, the note and the association", async () => {
    const result = await engine("up");
    assert.equal(result.exitCode, 0, output(result));
    // Like the CLI's summary, steps count the stack too.
    assert.equal(result.steps.create, 14);
    const accountId = resource("Account").id!;
    const values = (await get(`/accountCustomFieldData?filters[customerAccountId]=${accountId}`)).accountCustomFieldData as Array<Record<string, unknown>>;
    const byField = Object.fromEntries(values.map((value) => [String(value.customFieldId), value.fieldValue]));
    assert.deepEqual(byField, {
      [field("Industry").id!]: "Retail",
      [field("Regions").id!]: "||EMEA||APAC||",
      [field("Renewal date").id!]: "2027-03-31",
      [field("Contract value").id!]: 12500000,
      [field("Employees").id!]: "420",
    });
    const association = (await get(`/accountContacts?filters[contact]=${contactId}`)).accountContacts[0];
    assert.deepEqual([association.account, association.jobTitle], [accountId, "Head of purchasing"]);
    assert.equal((await get(`/notes/${resource("AccountNote").id}`)).note.relid, accountId);
  });

  it("a second up is all `same` and sends no request", async () => {
    const before = await requestCount(emulator);
    const result = await upWithoutPreview();
    assert.equal(result.exitCode, 0, output(result));
    assert.deepEqual(result.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 14 });
    const sent = (await requestCount(emulator)) - before;
    console.log(`      requests during the no-op up: ${sent}`);
    assert.equal(sent, 0);
  });

  it("the drift check right after finds no change, reading the fields and the values from one page each", async () => {
    const before = await emulatorStats(emulator);
    const result = await engine("refresh", true);
    assert.equal(result.exitCode, 0, output(result));
    assert.equal(result.changes, false);
    const after = await emulatorStats(emulator);
    // Answered requests by route and status; a 429 (the limit is shared with this test's own calls) is retried.
    const sent = Object.entries(after.byRouteAndStatus).flatMap(([route, statuses]) =>
      Object.entries(statuses)
        .map(([status, count]) => [`${route} ${status}`, count - (before.byRouteAndStatus[route]?.[status] ?? 0)] as const)
        .filter(([, count]) => count > 0),
    );
    console.log(`      requests during the drift check: ${sent.map(([request, count]) => `${count} x ${request}`).join(", ")}`);
    assert.ok(sent.every(([request]) => request.startsWith("GET ")), JSON.stringify(sent));
    const answered = (request: string) => sent.filter(([sentRequest]) => sentRequest === `${request} 200`).reduce((sum, [, count]) => sum + count, 0);
    // 13 objects: the 5 fields and the 5 values read together from a page each; the account, the note and the association alone.
    // Which reads arrive together depends on timing, so a straggler may still be read alone: never more than one request per object.
    assert.equal(answered("GET /api/3/accountCustomFieldMeta"), 1);
    assert.equal(answered("GET /api/3/accountCustomFieldData"), 1);
    const total = sent.filter(([request]) => request.endsWith(" 200")).reduce((sum, [, count]) => sum + count, 0);
    assert.ok(total >= 5 && total <= 8, `${total} requests answered`);
  });

  it("a value and a field label changed out of band are drift: the check exits 7, and refresh then up restore them", async () => {
    const value = resource("AccountCustomFieldValue", (outputs) => outputs.fieldType === "number");
    const industry = field("Industry");
    await changeOutOfBand("PUT", `/accountCustomFieldData/${value.id}`, { accountCustomFieldDatum: { fieldValue: "7" } });
    await changeOutOfBand("PUT", `/accountCustomFieldMeta/${industry.id}`, { accountCustomFieldMetum: { fieldLabel: "Sector" } });
    const check = await engine("refresh", true);
    assert.equal(check.exitCode, 7, output(check));

    assert.equal((await engine("refresh")).exitCode, 0);
    const restore = await upWithoutPreview();
    assert.equal(restore.exitCode, 0, output(restore));
    assert.equal(restore.steps.update, 2);
    assert.equal((await get(`/accountCustomFieldData/${value.id}`)).accountCustomFieldDatum.fieldValue, "420");
    assert.equal((await get(`/accountCustomFieldMeta/${industry.id}`)).accountCustomFieldMetum.fieldLabel, "Industry");
    assert.equal((await engine("refresh", true)).exitCode, 0);
  });

  it("a note deleted out of band leaves the state on refresh and is made again by up", async () => {
    const noteId = resource("AccountNote").id!;
    await changeOutOfBand("DELETE", `/notes/${noteId}`);
    assert.equal((await engine("refresh", true)).exitCode, 7);
    assert.equal((await engine("refresh")).exitCode, 0);
    const up = await upWithoutPreview();
    assert.equal(up.exitCode, 0, output(up));
    assert.equal(up.steps.create, 1);
    const again = resource("AccountNote");
    assert.notEqual(again.id, noteId);
    assert.equal((await get(`/notes/${again.id}`)).note.note, "Renewal talks start in January.");
  });

  it("destroy removes every object the stack made, dependents first, and leaves the contact", async () => {
    const before = await emulatorStats(emulator);
    const result = await engine("destroy");
    assert.equal(result.exitCode, 0, output(result));
    assert.equal(result.steps.delete, 14);
    assert.equal((await get("/accounts")).meta.total, "0");
    assert.deepEqual((await get("/accountCustomFieldMeta")).accountCustomFieldMeta, []);
    assert.equal((await get("/accountCustomFieldData")).meta.total, 0);
    assert.equal((await get("/notes")).meta.total, "0");
    assert.equal((await get("/accountContacts")).meta.total, "0");
    assert.equal((await get(`/contacts/${contactId}`)).contact.email, "buyer@globex.example");
    // Each object was deleted while its account and field still existed: no delete found it gone.
    const after = await emulatorStats(emulator);
    const deletes = Object.entries(after.byRouteAndStatus).filter(([route]) => route.startsWith("DELETE "));
    const notFound = deletes.map(([route, statuses]) => [route, (statuses["404"] ?? 0) - (before.byRouteAndStatus[route]?.["404"] ?? 0)]);
    assert.deepEqual(notFound.filter(([, count]) => count !== 0), []);
  });
});
