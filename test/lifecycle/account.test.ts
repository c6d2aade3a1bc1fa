// crm.Account end to end on the real `pulumi` CLI: the packed package installed into the
// quickstart program, the newest Node.js 24 and the newest @pulumi/pulumi, the emulator as the
// service.
// The same lifecycle runs once more on the machine's Node.js 20 with the lowest @pulumi/pulumi
// that package.json accepts, so the declared range is tested at both ends.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { programNodeVersion } from "../../scripts/toolchain";
import { installExample, repoRoot } from "../../scripts/harness/packed-program";
import { emulatorCall, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { CHANGES_NOT_EXPECTED, CliStack, secretSignature, type StackOptions } from "../../scripts/harness/pulumi-cli";

/** The lowest @pulumi/pulumi that package.json's peer range accepts. */
const lowestSdk = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).peerDependencies["@pulumi/pulumi"] as string).replace(/^\^/, "");

const runs: Array<{ title: string; node: StackOptions["node"]; sdkVersion?: string }> = [
  { title: `Node.js ${programNodeVersion}, the newest @pulumi/pulumi`, node: programNodeVersion },
  { title: `the machine's Node.js, @pulumi/pulumi ${lowestSdk}`, node: "machine", sdkVersion: lowestSdk },
];

for (const run of runs) {
  describe(`crm.Account lifecycle on the pulumi CLI (${run.title})`, function () {
    this.timeout(300_000);
    let emulator: RunningEmulator;
    let stack: CliStack;

    before(async () => {
      // The real service's limit, so that the provider's shared limiter is exercised.
      emulator = await startEmulator({ port: 0, rateLimit: 5 });
      const program = installExample("quickstart", `lifecycle-account-${run.node}`, { typeCheck: "once", sdkVersion: run.sdkVersion });
      stack = await CliStack.create(program, "dev", {
        node: run.node,
        config: { "crm:apiUrl": emulator.crmUrl },
        secrets: { "crm:apiToken": emulator.apiToken },
      });
    });
    after(async () => {
      await emulator?.close();
      stack?.remove();
    });

    const accounts = async () =>
      (await emulatorCall(emulator, "GET", "/api/3/accounts?limit=100")).body.accounts as Array<{ id: string; name: string; accountUrl: string | null }>;
    const acmeId = () => stack.resources().find((r) => r.outputs?.name === "Acme Inc")!.id!;

    it("up creates the accounts", async () => {
      const result = await stack.up();
      assert.equal(result.exitCode, 0, result.lines.join("\n"));
      assert.equal(result.steps.create, 3); // the stack and two accounts
      assert.deepEqual((await accounts()).map((a) => a.name).sort(), ["Acme Inc", "Globex Corporation"]);
    });

    it("a second up, its preview included, is all `same` and sends no request", async () => {
      const before = await requestCount(emulator);
      // The whole `pulumi up` a user runs: what a no-op up promises holds for its preview too.
      const result = await stack.up();
      assert.equal(result.exitCode, 0, result.lines.join("\n"));
      assert.deepEqual(result.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 3 });
      assert.match(result.stdout, /3 unchanged/);
      assert.equal((await requestCount(emulator)) - before, 0);
    });

    it("an unchanged account passes the drift check (exit 0)", async () => {
      const result = await stack.driftCheck();
      assert.equal(result.exitCode, 0, result.lines.join("\n"));
      assert.equal(result.changes, false);
    });

    it("a rename out of band is drift: the drift check exits 7 naming the field, writes nothing, and up --refresh restores the name", async () => {
      const id = acmeId();
      await emulatorCall(emulator, "PUT", `/api/3/accounts/${id}`, { account: { name: "Acme Renamed" } });
      const check = await stack.driftCheck("--diff");
      assert.equal(check.exitCode, CHANGES_NOT_EXPECTED, check.lines.join("\n"));
      assert.match(check.stdout, /name\s*:\s*"Acme Inc" => "Acme Renamed"/);
      // The check wrote nothing: the service still has the rename, the state the old name.
      assert.equal(stack.resources().find((r) => r.id === id)!.outputs!.name, "Acme Inc");

      const repair = await stack.up("--refresh", "--skip-preview");
      assert.equal(repair.exitCode, 0, repair.lines.join("\n"));
      assert.equal(repair.steps.update, 1);
      const account = (await emulatorCall(emulator, "GET", `/api/3/accounts/${id}`)).body.account;
      assert.deepEqual([account.name, account.accountUrl], ["Acme Inc", "https://acme.example"]);
      assert.equal((await stack.driftCheck()).exitCode, 0);
    });

    it("an account deleted out of band leaves the state on refresh and is created again by up", async () => {
      const id = acmeId();
      await emulatorCall(emulator, "DELETE", `/api/3/accounts/${id}`);
      const refresh = await stack.refresh("--skip-preview");
      assert.equal(refresh.exitCode, 0, refresh.lines.join("\n"));
      assert.ok(!stack.resources().some((r) => r.id === id), "the deleted account is still in the state");
      const up = await stack.deploy();
      assert.equal(up.steps.create, 1);
      assert.ok((await accounts()).some((a) => a.name === "Acme Inc"));
    });

    it("keeps the token out of the state file but in encrypted secrets, and every __provider small", () => {
      const text = stack.stateText();
      assert.ok(!text.includes(emulator.apiToken), "the API token is in the state file in plain text");
      const resources = stack.resources();
      const provider = resources.find((r) => r.type === "pulumi:providers:pulumi-nodejs")!;
      assert.equal(
        provider.inputs!["crm:apiToken"][secretSignature],
        "1b47061264138c4ac30d75fd1eb44270",
        "crm:apiToken is not secret-marked in the default provider's inputs",
      );
      const sizes = resources.filter((r) => r.inputs?.__provider).map((r) => Buffer.byteLength(JSON.stringify(r.inputs!.__provider)));
      assert.equal(sizes.length, 2);
      assert.ok(Math.max(...sizes) <= 2048, `__provider sizes ${sizes}`);
    });

    it("destroy leaves no account", async () => {
      const result = await stack.destroy("--skip-preview");
      assert.equal(result.exitCode, 0, result.lines.join("\n"));
      assert.equal(result.steps.delete, 3);
      assert.deepEqual(await accounts(), []);
    });
  });
}
