// examples/review-env on the real `pulumi` CLI: a review environment per branch, every name
// carrying the branch. Checks the names, that the environment is steady (a no-op up sends no
// request, a drift check finds nothing), that the stack deployed for another branch renames
// every object in place, and that destroy leaves nothing.

import assert from "node:assert/strict";
import { startEmulator } from "../../emulator";
import { installExample } from "../../scripts/harness/packed-program";
import { emulatorRead, requestCount, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { CliStack } from "../../scripts/harness/pulumi-cli";

const branchSetting = "crm-review-env:branch";

describe("examples/review-env: an environment per branch, named after it", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let stack: CliStack;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    const program = installExample("review-env", "lifecycle-review-env", { typeCheck: "once" });
    stack = await CliStack.create(program, "review-feature-login", stackOnEmulator(emulator, { [branchSetting]: "feature/login" }));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  const get = (path: string) => emulatorRead(emulator, path);
  const accountId = () => stack.resources().find((r) => r.type === "pulumi-nodejs:dynamic/crm:Account")!.id!;
  /** The names the service holds: accounts (with their websites), field labels, feed titles. */
  const names = async () => ({
    accounts: ((await get("/accounts?limit=100")).accounts as Array<{ name: string; accountUrl: string }>).map((a) => `${a.name} ${a.accountUrl}`),
    fields: ((await get("/accountCustomFieldMeta?limit=100")).accountCustomFieldMeta as Array<{ fieldLabel: string }>).map((f) => f.fieldLabel).sort(),
    feeds: ((await get("/calendars?limit=100")).calendars as Array<{ title: string }>).map((c) => c.title),
  });
  const namedAfter = (branch: string, hostLabel: string) => ({
    accounts: [`Review ${branch} https://${hostLabel}.review.acme.example`],
    fields: [`Reviewer (${branch})`, `Stage (${branch})`],
    feeds: [`Review tasks (${branch})`],
  });

  it("deploys a branch's environment, every name carrying the branch", async () => {
    const result = await stack.deploy();
    // stack, account, 2 fields, the account's value of one, feed
    assert.equal(result.steps.create, 6, result.lines.join("\n"));
    assert.deepEqual(await names(), namedAfter("feature/login", "feature-login"));
    const [value] = (await get(`/accountCustomFieldData?filters[customerAccountId]=${accountId()}`)).accountCustomFieldData as Array<{ fieldValue: string }>;
    assert.equal(value.fieldValue, "Testing");
    assert.equal((await stack.outputs()).accountName, "Review feature/login");
  });

  it("is steady: a no-op up sends no request, a drift check finds nothing", async () => {
    const before = await requestCount(emulator);
    const again = await stack.deploy();
    assert.deepEqual(again.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 6 }, again.lines.join("\n"));
    assert.equal((await requestCount(emulator)) - before, 0, "requests during the no-op up");
    const drift = await stack.driftCheck();
    assert.equal(drift.exitCode, 0, drift.lines.join("\n"));
    assert.equal(drift.changes, false, drift.lines.join("\n"));
  });

  it("deployed for another branch, every name follows it in place", async () => {
    const account = accountId();
    await stack.setConfig({ [branchSetting]: "Feature/Sign-up" });
    const result = await stack.deploy();
    // The account (name and website), the two field labels and the feed's title: renamed in place.
    assert.deepEqual(
      { update: result.steps.update, replace: result.steps.replace, create: result.steps.create },
      { update: 4, replace: 0, create: 0 },
      result.lines.join("\n"),
    );
    assert.equal(accountId(), account);
    assert.deepEqual(await names(), namedAfter("Feature/Sign-up", "feature-sign-up"));
  });

  it("destroy leaves nothing in the service or the state", async () => {
    const result = await stack.destroy("--skip-preview");
    assert.equal(result.exitCode, 0, result.lines.join("\n"));
    assert.deepEqual(await names(), { accounts: [], fields: [], feeds: [] });
    assert.deepEqual(stack.resources(), []);
  });
});
