// Where the API tokens and a calendar feed's token may appear: only encrypted, in the state's
// secret-marked values. Runs examples/account-setup (its calendar feed has a secret token) on
// the pulumi CLI, whose passphrase secrets provider encrypts secrets in the state as users have
// them, and searches every artifact a user or a CI log could see: the output of each run (a run
// with a wrong key included), its engine events, the state file on disk, `stack export` without
// --show-secrets, `stack output` and the stack's config file, and the emulator's stats. Then the
// transport itself: an error that carries a URL, headers or an echoed body carries no token.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { chatService, crmService, endpointFor, type ServiceSettingsSpec, useStackConfig } from "../../provider/settings";
import { defaultRetryPolicy } from "../../provider/transport/retry";
import { Transport } from "../../provider/transport/transport";
import { configOf, emulatorCall, type RunningEmulator } from "../../scripts/harness/emulator";
import { installExample } from "../../scripts/harness/packed-program";
import { type CliResult, CliStack, type Deployment, secretSignature, type StateResource } from "../../scripts/harness/pulumi-cli";
import { sendJson, startScriptedServer } from "../support/scripted-server";

const feedType = "pulumi-nodejs:dynamic/crm:CalendarFeed";

interface Artifact {
  where: string;
  text: string;
}

/** Every text a run leaves for someone to read: its output, and its engine events (what `--event-log` and the Automation API get). */
function artifactsOf(run: string, result: CliResult): Artifact[] {
  return [
    { where: `${run}: stdout`, text: result.stdout },
    { where: `${run}: stderr`, text: result.stderr },
    { where: `${run}: engine events`, text: withoutWrappedSecrets(JSON.stringify(result.events)) },
  ];
}

/**
 * The SDK's own debug log (debug events, which the CLI shows only with `--debug`) prints each
 * RegisterResource response as a flattened protobuf Struct, where a secret output follows its
 * wrapper's signature: secret-marked, so not a leak. Those values are cut out before the search.
 */
function withoutWrappedSecrets(text: string): string {
  return text.replace(new RegExp(`${secretSignature},,,1b47061264138c4ac30d75fd1eb44270,value,,,[^,]*`, "g"), "(secret)");
}

/** Paths of secret-marked values in a state that are not in the passphrase provider's ciphertext form. */
function unencryptedSecrets(value: unknown, path = "$"): string[] {
  if (!value || typeof value !== "object") return [];
  const record = value as Record<string, unknown>;
  if (record[secretSignature] !== undefined) {
    return Object.keys(record).sort().join(",") === `${secretSignature},ciphertext` && /^v1:/.test(String(record.ciphertext)) ? [] : [path];
  }
  return Object.entries(record).flatMap(([key, child]) => unencryptedSecrets(child, `${path}.${key}`));
}

describe("reliability: secrets appear only encrypted in the state", function () {
  this.timeout(600_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  const artifacts: Artifact[] = [];
  const wrongKey = `wrong-${randomBytes(16).toString("hex")}`;
  let feedToken = "";

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 0 });
    const program = installExample("account-setup", "reliability-secrets", { typeCheck: "once" });
    stack = await CliStack.create(program, "dev", { config: { "crm:apiUrl": emulator.crmUrl }, secrets: { "crm:apiToken": wrongKey } });
  });
  after(async () => {
    stack?.remove();
    await emulator?.close();
  });

  /** The state file on disk, read now. */
  const collectState = (where: string) => artifacts.push({ where: `the state file ${where}`, text: stack.stateText() });
  /** The stack's config file beside the program, which users commit. */
  const collectConfigFile = (where: string) =>
    artifacts.push({ where: `the stack's config file ${where}`, text: readFileSync(join(stack.program, `Pulumi.${stack.name}.yaml`), "utf8") });

  it("a run with a wrong key fails naming the setting, and its messages hold neither key", async () => {
    const result = await stack.up();
    assert.notEqual(result.exitCode, 0);
    assert.match(result.stdout, /crm:apiToken/, "the failure names the setting to fix");
    artifacts.push(...artifactsOf("up with a wrong key", result));
    collectState("after the wrong-key run");
    collectConfigFile("with the wrong key");
  });

  it("up, the drift check and destroy succeed, their artifacts collected", async () => {
    await stack.setConfig({}, { "crm:apiToken": emulator.apiToken });
    collectConfigFile("with the right key");
    const up = await stack.up();
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    artifacts.push(...artifactsOf("up", up));
    collectState("after up");
    const feedId = stack.resources().find((resource) => resource.type === feedType)!.id!;
    feedToken = (await emulatorCall(emulator, "GET", `/api/3/calendars/${feedId}`)).body.calendar.token;
    assert.ok(feedToken, "the emulator gave the feed a token");
    artifacts.push({ where: "stack export", text: (await stack.succeed(["stack", "export"])).stdout });
    artifacts.push({ where: "stack output", text: (await stack.succeed(["stack", "output"])).stdout });
    // Decrypted on request (not artifacts): the secrets of the state are the tokens the deployment used.
    const shown = (await stack.succeed(["stack", "export", "--show-secrets"])).stdout;
    const provider = (JSON.parse(shown) as Deployment).deployment.resources!.find((resource) => resource.type === "pulumi:providers:pulumi-nodejs")!;
    assert.equal(JSON.parse(provider.inputs!["crm:apiToken"].plaintext), emulator.apiToken);
    assert.equal((await stack.outputs()).calendarFeedToken, feedToken);

    const drift = await stack.driftCheck();
    assert.equal(drift.exitCode, 0, drift.lines.join("\n"));
    artifacts.push(...artifactsOf("drift check", drift));
    collectState("after the drift check");
    const destroy = await stack.destroy("--skip-preview");
    assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
    artifacts.push(...artifactsOf("destroy", destroy));
    artifacts.push({ where: "emulator stats", text: await (await fetch(`${emulator.crmUrl}/__emulator/stats`)).text() });
  });

  it("no artifact holds a token, and every secret-marked value of the state is ciphertext", async () => {
    const secrets = { "the API token": emulator.apiToken, "the wrong key": wrongKey, "the feed token": feedToken };
    const leaks: string[] = [];
    for (const [name, secret] of Object.entries(secrets))
      for (const artifact of artifacts) if (artifact.text.includes(secret)) leaks.push(`${name} in ${artifact.where}`);
    const states = artifacts.filter(({ where }) => where.startsWith("the state file") || where === "stack export");
    for (const { where, text } of states) for (const path of unencryptedSecrets(JSON.parse(text))) leaks.push(`a secret not encrypted in ${where} at ${path}`);
    console.log(`      searched ${artifacts.length} artifacts, ${states.length} of them states, for ${Object.keys(secrets).length} secrets`);
    assert.deepEqual(leaks, []);
  });

  it("the search is not vacuous: each token is in the state after up, encrypted", () => {
    const deployed = JSON.parse(artifacts.find(({ where }) => where === "the state file after up")!.text).checkpoint.latest.resources as StateResource[];
    const apiToken = deployed.find((resource) => resource.type === "pulumi:providers:pulumi-nodejs")!.inputs!["crm:apiToken"];
    const feedTokenOutput = deployed.find((resource) => resource.type === feedType)!.outputs!.token;
    for (const value of [apiToken, feedTokenOutput]) assert.match(value?.ciphertext, /^v1:/);
  });
});

describe("reliability: transport errors carry no token", () => {
  const token = `tok-${randomBytes(16).toString("hex")}`;
  const noRetries = { ...defaultRetryPolicy, maxAttempts: 1 };
  const transportFor = (spec: ServiceSettingsSpec, url: string) => {
    useStackConfig(configOf({ [spec.url.key]: url, [spec.token.key]: token }));
    return new Transport({ ...endpointFor(spec, "crm.Test"), retry: noRetries });
  };
  /** The error as every consumer may see it: message, stack and own fields. */
  const everythingIn = (error: unknown) => {
    const err = error as Error;
    return [err.message, err.stack ?? "", JSON.stringify(err), JSON.stringify(Object.getOwnPropertyDescriptors(err))].join("\n");
  };
  const failureOf = async (call: Promise<unknown>) => {
    try {
      await call;
    } catch (error) {
      return error;
    }
    assert.fail("the call succeeded");
  };

  for (const spec of [crmService, chatService]) {
    it(`${spec.service}: a service that echoes the request's URL and headers in its error body`, async () => {
      const server = await startScriptedServer((req, res) => {
        const echoed = `${req.method} ${req.url} ${JSON.stringify(req.headers)}`;
        sendJson(res, 401, { message: echoed });
      });
      try {
        const transport = transportFor(spec, server.url);
        const error = await failureOf(
          transport.call({ method: "GET", path: "/accounts/1" }, { resource: "crm.Test", credentialSetting: { name: spec.token.key, howToSet: "give it" } }),
        );
        assert.ok(everythingIn(error).includes(server.url.replace("http://", "")), "the error carries the address");
        assert.ok(!everythingIn(error).includes(token), everythingIn(error));
        assert.ok(server.requests[0].headers[spec === crmService ? "api-token" : "authorization"]?.includes(token), "the token was sent");
      } finally {
        await server.close();
      }
    });

    it(`${spec.service}: an HTML error page that repeats the request in its title`, async () => {
      const server = await startScriptedServer((req, res) => {
        res.writeHead(400, { "content-type": "text/html" });
        res.end(`<html><title>Bad request ${JSON.stringify(req.headers)}</title><body>${req.url}</body></html>`);
      });
      try {
        const error = await failureOf(transportFor(spec, server.url).call({ method: "POST", path: "/accounts", body: { x: 1 } }, { resource: "crm.Test" }));
        assert.match((error as Error).message, /HTML page/);
        assert.ok(!everythingIn(error).includes(token), everythingIn(error));
      } finally {
        await server.close();
      }
    });
  }

  it("a refused connection names the address, not the token", async () => {
    const server = await startScriptedServer(() => undefined);
    const url = server.url;
    await server.close();
    const error = await failureOf(transportFor(crmService, url).call({ method: "GET", path: "/accounts" }, { resource: "crm.Test" }));
    assert.match((error as Error).message, /refused the connection/);
    assert.ok(!everythingIn(error).includes(token), everythingIn(error));
  });

  it("an address with a key in its user info is refused without repeating the key", () => {
    for (const address of [`http://user:${token}@crm.example`, `https://user:${token}@crm.example/api/3`, `ftp://${token}@crm.example`]) {
      useStackConfig(configOf({ "crm:apiUrl": address, "crm:apiToken": "k" }));
      let message = "";
      try {
        endpointFor(crmService, "crm.Test");
      } catch (error) {
        message = (error as Error).message;
      }
      assert.match(message, /crm:apiUrl/, address);
      assert.ok(!message.includes(token), message);
    }
  });
});
