// examples/review-env: a review environment per branch, named with a RandomPet from @pulumi/random
// kept by the branch. The random provider plugin cannot be downloaded here: these runs serve its
// RandomPet on the test engine's stand-in (engine/random-provider.ts), and say so. Checks the
// names the pet gives, that the environment is steady (a no-op up sends no request, a drift check
// finds nothing), that another branch gets another pet name, and that destroy leaves nothing.

import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { EngineResult, runEngine } from "../../engine/engine";
import { startEmulator } from "../../emulator";
import { installExample } from "../support/packed-program";
import { driftCheck, emulatorRead, requestCount, RunningEmulator, stackOnEmulator } from "../support/emulator";

const STAND_IN_NOTICE = /^info: random [\d.]+: served by the test engine's stand-in for the random provider plugin$/;

describe("examples/review-env: an environment per branch, its RandomPet served by the test engine's stand-in for @pulumi/random", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let program: string;
  let stateFile: string;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    program = installExample("review-env", "lifecycle-review-env", { typeCheck: "once" });
    stateFile = join(program, "review.state.json");
    rmSync(stateFile, { force: true });
  });
  after(async () => emulator?.close());

  const engine = (command: "up" | "refresh" | "destroy", branch: string, drift = false, skipPreview = false) =>
    runEngine({
      command,
      cwd: program,
      stack: "review",
      stateFile,
      ...stackOnEmulator(emulator, { "crm-review-env:branch": branch }),
      ...(drift ? driftCheck : {}),
      skipPreview,
    });
  const output = (result: EngineResult) => [...result.lines, ...result.diagnostics].join("\n");
  const succeeded = (result: EngineResult) => {
    assert.equal(result.exitCode, 0, output(result));
    return result;
  };
  const get = (path: string) => emulatorRead(emulator, path);
  const resources = () => JSON.parse(readFileSync(stateFile, "utf8")).resources as Array<{ type: string; id: string; outputs: any; delete?: boolean }>;
  const petName = () => resources().find((r) => r.type === "random:index/randomPet:RandomPet")!.id;
  const accountId = () => resources().find((r) => r.type === "pulumi-nodejs:dynamic/crm:Account")!.id;
  /** The names the service holds: accounts, field labels, feed titles. */
  const names = async () => ({
    accounts: ((await get("/accounts?limit=100")).accounts as Array<{ name: string }>).map((a) => a.name),
    fields: ((await get("/accountCustomFieldMeta?limit=100")).accountCustomFieldMeta as Array<{ fieldLabel: string }>).map((f) => f.fieldLabel).sort(),
    feeds: ((await get("/calendars?limit=100")).calendars as Array<{ title: string }>).map((c) => c.title),
  });
  const namedAfter = (pet: string) => ({
    accounts: [`Review ${pet}`],
    fields: [`Reviewer (${pet})`, `Stage (${pet})`],
    feeds: [`Review tasks (${pet})`],
  });

  it("deploys a branch's environment, every name suffixed with the pet name the stand-in generated", async () => {
    const result = succeeded(await engine("up", "feature/login"));
    assert.ok(result.diagnostics.some((line) => STAND_IN_NOTICE.test(line)), output(result));
    // stack, pet, account, 2 fields, the account's value of one, feed
    assert.equal(result.steps.create, 7, output(result));
    const pet = petName();
    assert.match(pet, /^[a-z]+-[a-z]+$/);
    assert.deepEqual(await names(), namedAfter(pet));
    const [value] = (await get(`/accountCustomFieldData?filters[customerAccountId]=${accountId()}`)).accountCustomFieldData as Array<{ fieldValue: string }>;
    assert.equal(value.fieldValue, "Testing");
  });

  it("is steady: a no-op up keeps the pet name and sends no request, a drift check finds nothing", async () => {
    const pet = petName();
    const before = await requestCount(emulator);
    // Without the preview (`up --skip-preview`): it would see no value unknown, so its Check and Diff
    // calls are the update's own. The other ups keep it: their previews see the pet name unknown.
    const again = succeeded(await engine("up", "feature/login", false, true));
    assert.deepEqual(again.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 7 }, output(again));
    assert.equal((await requestCount(emulator)) - before, 0, "requests during the no-op up");
    assert.equal(petName(), pet);
    const drift = succeeded(await engine("refresh", "feature/login", true));
    assert.equal(drift.changes, false, output(drift));
  });

  it("another branch gets another pet name: the pet is replaced and every name follows it", async () => {
    const [oldPet, account] = [petName(), accountId()];
    const result = succeeded(await engine("up", "feature/signup"));
    assert.ok(result.lines.includes("+- random:index/randomPet:RandomPet suffix [diff: ~keepers]"), output(result));
    assert.equal(result.steps.replace, 1, output(result));
    const pet = petName();
    assert.notEqual(pet, oldPet);
    assert.equal(resources().filter((r) => r.delete).length, 0, "the old pet is gone from the state");
    // The account, the field labels and the feed's title change in place (crm.Account renames in place).
    assert.equal(result.steps.update, 4, output(result));
    assert.equal(accountId(), account);
    assert.deepEqual(await names(), namedAfter(pet));
  });

  it("destroy leaves nothing in the service or the state", async () => {
    succeeded(await engine("destroy", "feature/signup"));
    assert.deepEqual(await names(), { accounts: [], fields: [], feeds: [] });
    assert.deepEqual(resources(), []);
  });
});
