// Issue 46's programs on the real CLI: examples/agency in Pulumi YAML on the native plugin and
// in TypeScript on the dynamic classes, each declaring a list, two tags, a dropdown field of
// contacts on the list, a variable and a webhook of the list (with the agency's other objects).
// Each deploys with its references, a second up sends nothing, a change behind the program's
// back (a tag renamed, an option removed, the webhook's URL changed) is caught by the drift
// check, naming the field, and repaired by `up --refresh`, and destroy leaves the account as found.

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { repoRoot } from "../../scripts/harness/packed-program";
import { installProgram } from "../../scripts/harness/packed-program";
import { emulatorCallWhenAdmitted, emulatorRead, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { assertNoOpUp, installYamlProgram } from "../../scripts/harness/plugin-program";
import { CHANGES_NOT_EXPECTED, CliStack } from "../../scripts/harness/pulumi-cli";

const contactSide = ["/lists", "/tags", "/fields", "/personalizations", "/webhooks"];

for (const [door, project, install] of [
  [
    "Pulumi YAML on the native plugin",
    "crm-agency",
    async () => (await installYamlProgram(join(repoRoot, "examples", "agency", "yaml"), "contact-side-yaml")).program,
  ],
  [
    "TypeScript on the dynamic classes",
    "crm-agency-ts",
    async () => installProgram(join(repoRoot, "examples", "agency", "typescript"), "contact-side-ts", { typeCheck: "once" }),
  ],
] as const) {
  describe(`the contacts' side of examples/agency, ${door}, on the real CLI`, function () {
    this.timeout(20 * 60_000);
    let emulator: RunningEmulator;
    let stack: CliStack;
    const read = (path: string) => emulatorRead(emulator, path);
    const change = (path: string, body: unknown) => emulatorCallWhenAdmitted(emulator, "PUT", `/api/3${path}`, body);
    let found: Record<string, unknown[]>;

    before(async () => {
      emulator = await startEmulator({ port: 0, rateLimit: 5 });
      found = Object.fromEntries(await Promise.all(contactSide.map(async (path) => [path, (await read(path))[path.slice(1)]])));
      const settings = { clientName: "Acme", senderEmail: "news@acme.example", street: "1 Main Street", city: "Chicago", country: "US" };
      const config = Object.fromEntries(Object.entries(settings).map(([key, value]) => [`${project}:${key}`, value]));
      stack = await CliStack.create(await install(), "dev", stackOnEmulator(emulator, config));
    });
    after(async () => {
      await emulator?.close();
      stack?.remove();
    });

    it("up makes the list first, then the field on it and the webhook of it", async () => {
      const up = await stack.up("--skip-preview");
      assert.equal(up.exitCode, 0, up.lines.join("\n"));
      const { newsListId } = await stack.outputs();
      const tags = (await read("/tags")).tags.map((tag: { tag: string }) => tag.tag).sort();
      assert.deepEqual(tags, ["Customer", "Prospect"]);
      const [field] = (await read("/fields")).fields;
      const answer = await read(`/fields/${field.id}`);
      assert.deepEqual(
        answer.fieldOptions.map((option: { value: string }) => option.value),
        ["Products", "Events", "Offers"],
      );
      assert.deepEqual(
        answer.fieldRels.map((rel: { relid: unknown }) => String(rel.relid)),
        [String(newsListId)],
      );
      assert.equal(String((await read("/webhooks")).webhooks[0].listid), String(newsListId));
      assert.equal((await read("/personalizations")).personalizations[0].tag, "signature");
    });

    it("a second up, its preview included, changes nothing and sends no request", () => assertNoOpUp(stack, emulator));

    it("a tag renamed, an option removed and the webhook's URL changed are drift, named by field, and up --refresh repairs them", async () => {
      const tag = (await read("/tags")).tags.find((found: { tag: string }) => found.tag === "Prospect");
      await change(`/tags/${tag.id}`, { tag: { tag: "Lead" } });
      const [field] = (await read("/fields")).fields;
      const offers = (await read(`/fields/${field.id}`)).fieldOptions.find((option: { value: string }) => option.value === "Offers");
      await emulatorCallWhenAdmitted(emulator, "DELETE", `/api/3/fieldOptions/${offers.id}`);
      const [webhook] = (await read("/webhooks")).webhooks;
      await change(`/webhooks/${webhook.id}`, { webhook: { url: "https://elsewhere.example/hook" } });

      const check = await stack.driftCheck("--diff");
      assert.equal(check.exitCode, CHANGES_NOT_EXPECTED, check.lines.join("\n"));
      assert.match(check.stdout, /tag\s*:\s*"Prospect" => "Lead"/);
      assert.match(check.stdout, /url\s*:\s*"https:\/\/reports\.agency\.example\/crm" => "https:\/\/elsewhere\.example\/hook"/);
      assert.match(check.stdout, /options/);

      const repair = await stack.up("--refresh", "--skip-preview");
      assert.equal(repair.exitCode, 0, repair.lines.join("\n"));
      // All three in place: the field's last option is added back after the others, the field kept with its contacts' values.
      assert.deepEqual([repair.steps.update, repair.steps.replace], [3, 0], repair.lines.join("\n"));
      assert.equal((await stack.driftCheck()).exitCode, 0);
      assert.deepEqual(
        (await read(`/fields/${field.id}`)).fieldOptions.map((option: { value: string }) => option.value),
        ["Products", "Events", "Offers"],
      );
      assert.equal((await read(`/tags/${tag.id}`)).tag.tag, "Prospect");
      assert.equal((await read(`/webhooks/${webhook.id}`)).webhook.url, "https://reports.agency.example/crm");
    });

    it("destroy leaves the contacts' side of the account as found", async () => {
      const destroy = await stack.destroy("--skip-preview");
      assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
      for (const path of contactSide) assert.deepEqual((await read(path))[path.slice(1)], found[path], path);
    });
  });
}
