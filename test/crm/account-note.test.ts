import assert from "node:assert/strict";
import * as provider from "../../provider/crm/account-note";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, emulatorForProvider, emulatorStats, requestCount, RunningEmulator } from "../support/emulator";
import { checked, createAndVerify, failuresOf, updateAndVerify } from "../support/provider-steps";

describe("crm.AccountNote provider", () => {
  let emulator: RunningEmulator;
  let accountId: string;
  before(async () => (emulator = await emulatorForProvider()));
  after(async () => emulator.close());
  beforeEach(async () => {
    await fetch(`${emulator.crmUrl}/__emulator/reset`, { method: "POST" });
    useStackConfig(configOf({ "crm:apiUrl": emulator.crmUrl, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
    accountId = (await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: "Acme" } })).body.account.id;
  });

  it("names the resource, the field and the rule for every bad input, without a request", async () => {
    const before = await requestCount(emulator);
    const failures = await failuresOf(provider, { accountId: "12a", text: "x" });
    assert.match(failures.accountId, /^crm\.AccountNote: accountId must be the id of the account/);
    assert.match(failures.note, /note is required: the note's text/);
    assert.match(failures.text, /text is not a field of this resource; the fields are: accountId, note/);
    assert.match((await failuresOf(provider, { accountId: "1", note: "  " })).note, /^crm\.AccountNote on account 1: note must not be empty/);
    assert.equal(await requestCount(emulator), before);
  });

  it("is created under its account, read back as created, and changed in place under its account", async () => {
    const { id, outs } = await createAndVerify(provider, { accountId, note: "Renewal due in March" });
    assert.deepEqual(outs, { accountId, note: "Renewal due in March" });
    const held = (await emulatorCall(emulator, "GET", `/api/3/notes/${id}`)).body.note;
    assert.deepEqual([held.reltype, held.relid], ["CustomerAccount", accountId]);
    await updateAndVerify(provider, id, outs, { accountId: Number(accountId), note: "Renewal signed" });
    const { byRoute } = await emulatorStats(emulator);
    assert.deepEqual([byRoute["POST /api/3/accounts/:id/notes"], byRoute["PUT /api/3/accounts/:id/notes/:noteid"]], [1, 1]);
  });

  it("is replaced when its account changes", async () => {
    const olds = { accountId: "1", note: "x" };
    assert.deepEqual((await provider.diff("5", olds, await checked(provider, { ...olds, accountId: "2" }))).replaces, ["accountId"]);
  });

  it("sees a change out of band, and a deletion out of band (of the note or of its account) as gone", async () => {
    const { id, outs, inputs } = await createAndVerify(provider, { accountId, note: "v1" });
    await emulatorCall(emulator, "PUT", `/api/3/notes/${id}`, { note: { note: "edited in the app" } });
    const read = await provider.read(id, outs);
    assert.equal(read.props?.note, "edited in the app");
    assert.equal((await provider.diff(id, read.props!, inputs)).changes, true);
    await emulatorCall(emulator, "DELETE", `/api/3/notes/${id}`);
    assert.deepEqual(await provider.read(id, outs), {});
    await provider.delete(id, outs);

    const again = await provider.create(await checked(provider, { accountId, note: "v2" }));
    await emulatorCall(emulator, "DELETE", `/api/3/accounts/${accountId}`);
    assert.deepEqual(await provider.read(again.id, again.outs), {});
  });
});
