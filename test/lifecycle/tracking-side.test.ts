// Issue 47's tracking side on the real CLI, in TypeScript on the dynamic classes: site tracking
// with two allowed domains and event tracking with two events deploy; a second up sends nothing;
// a domain and an event removed behind the program's back are drift (gone from the list), and
// `up --refresh` makes them again; destroy leaves the account as found, the switches as they were.

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { installProgram } from "../../scripts/harness/packed-program";
import { emulatorCallWhenAdmitted, emulatorRead, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { assertNoOpUp } from "../../scripts/harness/plugin-program";
import { CHANGES_NOT_EXPECTED, CliStack } from "../../scripts/harness/pulumi-cli";

describe("the tracking side, TypeScript on the dynamic classes, on the real CLI", function () {
  this.timeout(20 * 60_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  const names = async (path: string) => (await emulatorRead(emulator, path))[path.slice(1)].map((object: { name: string }) => object.name).sort();
  const enabled = async (path: string) => (await emulatorRead(emulator, path))[path.slice(1)].enabled;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    // As the stack finds the account: site tracking off, event tracking on, a domain of its own.
    await emulatorCallWhenAdmitted(emulator, "PUT", "/api/3/siteTracking", { siteTracking: { enabled: false } });
    await emulatorCallWhenAdmitted(emulator, "POST", "/api/3/siteTrackingDomains", { siteTrackingDomain: { name: "theirs.example" } });
    const program = installProgram(join(__dirname, "programs", "tracking-side"), "lifecycle-tracking-side", { typeCheck: "once" });
    stack = await CliStack.create(program, "dev", stackOnEmulator(emulator));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  it("up turns both switches on and adds the two domains and the two events", async () => {
    const up = await stack.up("--skip-preview");
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    assert.deepEqual([await enabled("/siteTracking"), await enabled("/eventTracking")], [true, true]);
    assert.deepEqual(await names("/siteTrackingDomains"), ["blog.acme.example", "shop.acme.example", "theirs.example"]);
    assert.deepEqual(await names("/eventTrackingEvents"), ["Signed up", "Watched demo"]);
  });

  it("a second up, its preview included, changes nothing and sends no request", () => assertNoOpUp(stack, emulator));

  it("a domain and an event removed behind its back are drift, and up --refresh makes them again", async () => {
    await emulatorCallWhenAdmitted(emulator, "DELETE", "/api/3/siteTrackingDomains/blog.acme.example");
    await emulatorCallWhenAdmitted(emulator, "DELETE", "/api/3/eventTrackingEvents/Signed%20up");
    const check = await stack.driftCheck();
    assert.equal(check.exitCode, CHANGES_NOT_EXPECTED, check.lines.join("\n"));
    assert.match(check.stdout, /crm:SiteTrackingDomain\s+blog\s+delete/);
    assert.match(check.stdout, /crm:TrackedEvent\s+signed-up\s+delete/);

    const repair = await stack.up("--refresh", "--skip-preview");
    assert.equal(repair.exitCode, 0, repair.lines.join("\n"));
    assert.equal(repair.steps.create, 2, repair.lines.join("\n"));
    assert.equal((await stack.driftCheck()).exitCode, 0);
    assert.deepEqual(await names("/siteTrackingDomains"), ["blog.acme.example", "shop.acme.example", "theirs.example"]);
    assert.deepEqual(await names("/eventTrackingEvents"), ["Signed up", "Watched demo"]);
  });

  it("destroy leaves the account as found: its own domain kept, the switches as they were", async () => {
    const destroy = await stack.destroy("--skip-preview");
    assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
    assert.deepEqual(await names("/siteTrackingDomains"), ["theirs.example"]);
    assert.deepEqual(await names("/eventTrackingEvents"), []);
    assert.deepEqual([await enabled("/siteTracking"), await enabled("/eventTracking")], [false, true]);
  });
});
