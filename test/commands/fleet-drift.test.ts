// The fleet's drift check of a stack read in this process (provider/commands/fleet/drift.ts), on the
// emulator over real HTTP: a state shaped as `pulumi stack export` gives it, made by the cores'
// own check and create as the plugin's are, then changed behind its back.

import assert from "node:assert/strict";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { startEmulator } from "../../emulator";
import { driftOfState, type ExportedState, holdsEncryptedSecrets, readableHere } from "../../provider/commands/fleet/drift";
import { resources } from "../../provider/registry";
import { withProviderSettings } from "../../provider/settings";
import { emulatorCall, type RunningEmulator } from "../../scripts/harness/emulator";

const core = (token: string) => resources.find((resource) => resource.definition.declaration.token === token)!.definition.core;
const stackUrn = "urn:pulumi:acme::crm-agency";
const providerUrn = `${stackUrn}::crm-agency::pulumi:providers:crm::default_0_1_0`;

describe("the fleet's drift check, read in process from an exported state", () => {
  let emulator: RunningEmulator;
  let settings: ConfigMap;
  let state: ExportedState;

  /** A resource of the state as the engine records it: the inputs the core's check gave, the outputs its create returned. */
  async function deployed(token: string, name: string, news: Record<string, unknown>) {
    const source = { get: (key: string) => settings[key]?.value };
    return withProviderSettings(source, async () => {
      const { inputs } = await core(token).check({}, news);
      const { id, outs } = await core(token).create(inputs!);
      return JSON.parse(
        JSON.stringify({
          urn: `${stackUrn}::crm-agency::${token}::${name}`,
          type: token,
          custom: true,
          id,
          inputs,
          outputs: outs,
          provider: `${providerUrn}::5c6a`,
        }),
      );
    });
  }

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 0 });
    settings = { "crm:apiUrl": { value: emulator.crmUrl }, "crm:apiToken": { value: emulator.apiToken, secret: true } };
    state = {
      deployment: {
        resources: [
          { urn: `${stackUrn}::crm-agency::pulumi:pulumi:Stack::crm-agency-acme`, type: "pulumi:pulumi:Stack", custom: false },
          { urn: providerUrn, type: "pulumi:providers:crm", custom: true, id: "5c6a", inputs: { version: "0.1.0", apiUrl: emulator.crmUrl } },
          await deployed("crm:index:Message", "newsletter", {
            fromname: "Acme",
            fromemail: "news@acme.example",
            reply2: "news@acme.example",
            subject: "News from Acme",
          }),
          await deployed("crm:index:Tag", "customerTag", { tag: "Customer", description: "Bought at least once" }),
          await deployed("crm:index:AccountCustomField", "tier", {
            fieldLabel: "Client tier",
            fieldType: "dropdown",
            fieldOptions: ["Bronze", "Silver", "Gold"],
          }),
        ],
      },
    };
  });
  after(() => emulator?.close());

  it("finds no drift in objects as they were made", async () => {
    assert.equal(readableHere(state), true);
    assert.deepEqual(await driftOfState(state, settings), { status: "no change" });
  });

  it("names the resource and field changed behind the stack's back, and the resource gone from the account", async () => {
    const [, , message, tag] = state.deployment!.resources!;
    assert.equal((await emulatorCall(emulator, "PUT", `/api/3/messages/${message.id}`, { message: { fromname: "Changed" } })).status, 200);
    assert.equal((await emulatorCall(emulator, "DELETE", `/api/3/tags/${tag.id}`)).status, 200);
    assert.deepEqual(await driftOfState(state, settings), {
      status: "drift",
      drift: [
        { resource: "crm:index:Message newsletter", how: "changed", fields: ["fromname"] },
        { resource: "crm:index:Tag customerTag", how: "gone", fields: [] },
      ],
    });
  });

  it("reads with the settings it is given: a wrong key fails, naming the resource and never the key", async () => {
    const wrong = { ...settings, "crm:apiToken": { value: "not-the-key", secret: true } };
    await assert.rejects(driftOfState(state, wrong), (error: Error) => /crm\.Message/.test(error.message) && !error.message.includes("not-the-key"));
  });

  it("leaves to the engine a stack holding a dynamic resource, an explicit provider's resource, a kind it does not serve or an object left to delete", () => {
    const [stack, provider, message] = state.deployment!.resources!;
    const holding = (...more: unknown[]) => ({ deployment: { resources: [stack, provider, message, ...more] } }) as ExportedState;
    assert.equal(
      readableHere(holding({ ...message, type: "pulumi-nodejs:dynamic:Resource", urn: `${stackUrn}::crm-agency::pulumi-nodejs:dynamic:Resource::n` })),
      false,
    );
    const explicit = { ...provider, urn: `${stackUrn}::crm-agency::pulumi:providers:crm::default_eu` };
    assert.equal(readableHere(holding(explicit, { ...message, urn: `${message.urn}2`, provider: `${explicit.urn}::77` })), false);
    assert.equal(readableHere(holding({ ...message, type: "random:index:RandomPet" })), false);
    assert.equal(readableHere(holding({ ...message, urn: `${message.urn}-old`, delete: true })), false);
    // A default provider named with its download URL, as the engine names one the program gives a pluginDownloadURL.
    const downloaded = { ...provider, urn: `${providerUrn}_github_//api.github.com/pulumi-crm/pulumi-crm` };
    assert.equal(readableHere({ deployment: { resources: [stack, downloaded, { ...message, provider: `${downloaded.urn}::9` }] } }), true);
  });

  it("reads a secret the CLI decrypted (--show-secrets) as its value, and tells a state whose secrets are encrypted", async () => {
    const [stack, provider, message] = state.deployment!.resources!;
    const secret = (value: unknown) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(value) });
    const decrypted = { deployment: { resources: [stack, provider, { ...message, inputs: { ...message.inputs, fromname: secret("Changed") } }] } };
    assert.deepEqual(await driftOfState(decrypted, settings), { status: "no change" });
    const encrypted = {
      deployment: {
        resources: [
          stack,
          provider,
          {
            ...message,
            inputs: { ...message.inputs, fromname: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" } },
          },
        ],
      },
    };
    assert.equal(holdsEncryptedSecrets(encrypted), true);
    assert.equal(holdsEncryptedSecrets(state), false);
  });
});
