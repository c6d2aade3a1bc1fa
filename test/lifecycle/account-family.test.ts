// The account family end to end on the real `pulumi` CLI: examples/account-family (an
// account, five custom fields, a value of each, a note and a contact's association) from the
// packed package, against the emulator.

import assert from "node:assert/strict";
import { startEmulator } from "../../emulator";
import { installExample } from "../../scripts/harness/packed-program";
import {
  emulatorCall,
  emulatorCallWhenAdmitted,
  emulatorRead,
  emulatorStats,
  requestCount,
  type RunningEmulator,
  stackOnEmulator,
} from "../../scripts/harness/emulator";
import { CHANGES_NOT_EXPECTED, CliStack } from "../../scripts/harness/pulumi-cli";

const dynamicType = (name: string) => `pulumi-nodejs:dynamic/crm:${name}`;

describe("account family lifecycle on the pulumi CLI", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  let contactId: string;
  let started = 0;

  before(async () => {
    started = Date.now();
    // The real service's limit, so that the provider's shared limiter is exercised.
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    const program = installExample("account-family", "lifecycle-account-family", { typeCheck: "once" });
    // The contact exists before the stack, which only associates it with the account.
    contactId = (await emulatorCall(emulator, "POST", "/api/3/contacts", { contact: { email: "buyer@globex.example", firstName: "Hank" } })).body.contact.id;
    stack = await CliStack.create(program, "dev", stackOnEmulator(emulator, { "crm-account-family:contactId": contactId }));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
    console.log(`      lifecycle suite: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  /** A read of the test's own, waiting out the account's rate limit, which the provider shares. */
  const get = (path: string) => emulatorRead(emulator, path);
  /** A change made out of band, likewise waiting out the rate limit: a refused change would be no drift at all. */
  const changeOutOfBand = async (method: "PUT" | "DELETE", path: string, body?: unknown): Promise<void> => {
    const reply = await emulatorCallWhenAdmitted(emulator, method, `/api/3${path}`, body);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
  };
  const resource = (type: string, where: (outputs: any) => boolean = () => true) =>
    stack.resources().find((r) => r.type === dynamicType(type) && where(r.outputs))!;
  const field = (label: string) => resource("AccountCustomField", (outputs) => outputs.fieldLabel === label);

  it("up creates the account, the fields, their values, the note and the association", async () => {
    // The whole `pulumi up`, its preview of a fresh stack included.
    const result = await stack.up();
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    // The CLI's summary counts the stack too.
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
    // Without the preview: it would see no value unknown, so its Check and Diff calls are the update's own.
    const result = await stack.deploy();
    assert.deepEqual(result.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 14 });
    const sent = (await requestCount(emulator)) - before;
    console.log(`      requests during the no-op up: ${sent}`);
    assert.equal(sent, 0);
  });

  it("the drift check right after finds no change, reading the fields and the values from one page each", async () => {
    const before = await emulatorStats(emulator);
    const result = await stack.driftCheck();
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    assert.equal(result.changes, false);
    const after = await emulatorStats(emulator);
    // Answered requests by route and status; a 429 (the limit is shared with this test's own calls) is retried.
    const sent = Object.entries(after.byRouteAndStatus).flatMap(([route, statuses]) =>
      Object.entries(statuses)
        .map(([status, count]) => [`${route} ${status}`, count - (before.byRouteAndStatus[route]?.[status] ?? 0)] as const)
        .filter(([, count]) => count > 0),
    );
    console.log(`      requests during the drift check: ${sent.map(([request, count]) => `${count} x ${request}`).join(", ")}`);
    assert.ok(
      sent.every(([request]) => request.startsWith("GET ")),
      JSON.stringify(sent),
    );
    const answered = (request: string) => sent.filter(([sentRequest]) => sentRequest === `${request} 200`).reduce((sum, [, count]) => sum + count, 0);
    // 13 objects: the 5 fields and the 5 values read together from a page each; the account, the note and the association alone.
    // Which reads arrive together depends on timing, so a straggler may still be read alone: never more than one request per object.
    assert.equal(answered("GET /api/3/accountCustomFieldMeta"), 1);
    assert.equal(answered("GET /api/3/accountCustomFieldData"), 1);
    const total = sent.filter(([request]) => request.endsWith(" 200")).reduce((sum, [, count]) => sum + count, 0);
    assert.ok(total >= 5 && total <= 8, `${total} requests answered`);
  });

  it("a value changed, a value deleted and a field relabelled out of band are drift: the check exits 7, and up --refresh restores them", async () => {
    const employees = resource("AccountCustomFieldValue", (outputs) => outputs.fieldType === "number");
    const regions = resource("AccountCustomFieldValue", (outputs) => outputs.fieldType === "multiselect");
    const industry = field("Industry");
    await changeOutOfBand("PUT", `/accountCustomFieldData/${employees.id}`, { accountCustomFieldDatum: { fieldValue: "7" } });
    await changeOutOfBand("DELETE", `/accountCustomFieldData/${regions.id}`);
    await changeOutOfBand("PUT", `/accountCustomFieldMeta/${industry.id}`, { accountCustomFieldMetum: { fieldLabel: "Sector" } });
    const check = await stack.driftCheck("--diff");
    assert.equal(check.exitCode, CHANGES_NOT_EXPECTED, check.lines.join("\n"));
    assert.match(check.stdout, /fieldLabel\s*:\s*"Industry" => "Sector"/);

    // The refresh drops the deleted value from the state; the update then makes it again and writes the other two back.
    const restore = await stack.deploy("--refresh");
    assert.deepEqual([restore.steps.create, restore.steps.update], [1, 2], restore.lines.join("\n"));
    assert.equal((await get(`/accountCustomFieldData/${employees.id}`)).accountCustomFieldDatum.fieldValue, "420");
    assert.equal((await get(`/accountCustomFieldMeta/${industry.id}`)).accountCustomFieldMetum.fieldLabel, "Industry");
    const regionsAgain = resource("AccountCustomFieldValue", (outputs) => outputs.fieldType === "multiselect");
    assert.notEqual(regionsAgain.id, regions.id);
    assert.equal((await get(`/accountCustomFieldData/${regionsAgain.id}`)).accountCustomFieldDatum.fieldValue, "||EMEA||APAC||");
    assert.equal((await stack.driftCheck()).exitCode, 0);
  });

  it("a note deleted out of band leaves the state on refresh and is made again by up", async () => {
    const noteId = resource("AccountNote").id!;
    await changeOutOfBand("DELETE", `/notes/${noteId}`);
    assert.equal((await stack.driftCheck()).exitCode, CHANGES_NOT_EXPECTED);
    const refresh = await stack.refresh("--skip-preview");
    assert.equal(refresh.exitCode, 0, refresh.lines.join("\n"));
    assert.equal(resource("AccountNote"), undefined, "the deleted note is still in the state");
    const up = await stack.deploy();
    assert.equal(up.steps.create, 1);
    const again = resource("AccountNote");
    assert.notEqual(again.id, noteId);
    assert.equal((await get(`/notes/${again.id}`)).note.note, "Renewal talks start in January.");
  });

  it("destroy removes every object the stack made, dependents first, and leaves the contact", async () => {
    const before = await emulatorStats(emulator);
    const result = await stack.destroy("--skip-preview");
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
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
    assert.deepEqual(
      notFound.filter(([, count]) => count !== 0),
      [],
    );
  });
});
