// Where the API tokens and a calendar feed's token may appear: only secret-marked in the
// state. Runs examples/account-setup (its calendar feed has a secret token) through the
// test engine and searches every artifact a user or a CI log could see: the state file,
// each run's step lines, diagnostics (provider host output included) and logs, the error
// messages of a run with a wrong key, the serialized providers, and the emulator's stats.
// Then the transport itself: an error that carries a URL, headers or an echoed body
// carries no token.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { chatService, crmService, endpointFor, ServiceSettingsSpec, useStackConfig } from "../../provider/settings";
import { defaultRetryPolicy } from "../../provider/transport/retry";
import { Transport } from "../../provider/transport/transport";
import { EngineResult, runEngine } from "../../engine/engine";
import { configOf, driftCheck, emulatorCall, RunningEmulator, stackOnEmulator } from "../support/emulator";
import { installExample } from "../support/packed-program";
import { sendJson, startScriptedServer } from "../support/scripted-server";

const secretSignature = "4dabf18193072939515e22adb298388d";
const feedType = "pulumi-nodejs:dynamic/crm:CalendarFeed";

interface Artifact {
  where: string;
  text: string;
}

/** Every text a run leaves for someone to read. */
function artifactsOf(run: string, result: EngineResult): Artifact[] {
  return [
    { where: `${run}: step lines`, text: result.lines.join("\n") },
    { where: `${run}: diagnostics`, text: result.diagnostics.join("\n") },
    { where: `${run}: logs`, text: withoutWrappedSecrets(JSON.stringify(result.logs)) },
  ];
}

/**
 * The SDK's own debug log (shown only with `--debug`) prints each RegisterResource
 * response as a flattened protobuf Struct, where a secret output follows its wrapper's
 * signature: secret-marked, so not a leak. Those values are cut out before the search.
 */
function withoutWrappedSecrets(text: string): string {
  return text.replace(new RegExp(`${secretSignature},,,1b47061264138c4ac30d75fd1eb44270,value,,,[^,]*`, "g"), "(secret)");
}

/** Paths in a state file where a secret appears outside Pulumi's secret wrapper. */
function plainOccurrences(value: unknown, secret: string, insideSecret = false, path = "$"): string[] {
  if (typeof value === "string") return value.includes(secret) && !insideSecret ? [path] : [];
  if (!value || typeof value !== "object") return [];
  const wrapped = insideSecret || (value as Record<string, unknown>)[secretSignature] !== undefined;
  return Object.entries(value).flatMap(([key, child]) => plainOccurrences(child, secret, wrapped, `${path}.${key}`));
}

/** Paths where a secret appears inside the wrapper: proof that the search looks where the secret is. */
function wrappedOccurrences(value: unknown, secret: string, path = "$"): string[] {
  if (!value || typeof value !== "object") return [];
  const record = value as Record<string, unknown>;
  if (record[secretSignature] !== undefined) return JSON.stringify(record).includes(secret) ? [path] : [];
  return Object.entries(record).flatMap(([key, child]) => wrappedOccurrences(child, secret, `${path}.${key}`));
}

describe("reliability: secrets appear only secret-marked in the state", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let program: string;
  const artifacts: Artifact[] = [];
  const states: Array<{ where: string; state: unknown }> = [];
  const wrongKey = `wrong-${randomBytes(16).toString("hex")}`;
  let feedToken = "";

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 0 });
    program = installExample("account-setup", "reliability-secrets", { typeCheck: "once" });
  });
  after(async () => emulator?.close());

  const engine = (command: "up" | "refresh" | "destroy", stateFile: string, apiToken = emulator.apiToken, drift = false) =>
    runEngine({
      command,
      cwd: program,
      stack: "dev",
      stateFile,
      ...stackOnEmulator(emulator, {}, apiToken),
      ...(drift ? driftCheck : {}),
    });
  const readState = (stateFile: string) => JSON.parse(readFileSync(stateFile, "utf8")) as { resources: Array<{ type: string; id?: string; inputs: Record<string, unknown> }> };

  it("a run with a wrong key fails naming the setting, and its messages hold neither key", async () => {
    const stateFile = join(program, "wrong-key.json");
    rmSync(stateFile, { force: true });
    const result = await engine("up", stateFile, wrongKey);
    assert.notEqual(result.exitCode, 0);
    const output = [...result.lines, ...result.diagnostics].join("\n");
    assert.match(output, /crm:apiToken/, "the failure names the setting to fix");
    artifacts.push(...artifactsOf("up with a wrong key", result));
    states.push({ where: "state after the wrong-key run", state: readState(stateFile) });
  });

  it("up, the drift check and destroy succeed, their artifacts collected", async () => {
    const stateFile = join(program, "state.json");
    rmSync(stateFile, { force: true });
    const up = await engine("up", stateFile);
    assert.equal(up.exitCode, 0, [...up.lines, ...up.diagnostics].join("\n"));
    artifacts.push(...artifactsOf("up", up));
    const state = readState(stateFile);
    const feedId = state.resources.find((resource) => resource.type === feedType)!.id!;
    feedToken = (await emulatorCall(emulator, "GET", `/api/3/calendars/${feedId}`)).body.calendar.token;
    assert.ok(feedToken, "the emulator gave the feed a token");
    states.push({ where: "state after up", state });
    for (const provider of state.resources.map((resource) => resource.inputs?.__provider).filter(Boolean)) {
      artifacts.push({ where: "a serialized provider (__provider)", text: String(provider) });
    }

    const drift = await engine("refresh", stateFile, emulator.apiToken, true);
    assert.equal(drift.exitCode, 0, drift.lines.join("\n"));
    artifacts.push(...artifactsOf("drift check", drift));
    states.push({ where: "state after the drift check", state: readState(stateFile) });
    const destroy = await engine("destroy", stateFile);
    assert.equal(destroy.exitCode, 0, destroy.diagnostics.join("\n"));
    artifacts.push(...artifactsOf("destroy", destroy));
    artifacts.push({ where: "emulator stats", text: await (await fetch(`${emulator.crmUrl}/__emulator/stats`)).text() });
  });

  it("no artifact holds a token, and the state holds them only inside the secret wrapper", () => {
    const secrets = { "the API token": emulator.apiToken, "the wrong key": wrongKey, "the feed token": feedToken };
    const leaks: string[] = [];
    for (const [name, secret] of Object.entries(secrets)) {
      for (const artifact of artifacts) if (artifact.text.includes(secret)) leaks.push(`${name} in ${artifact.where}`);
      for (const { where, state } of states) for (const path of plainOccurrences(state, secret)) leaks.push(`${name} in plain text in the ${where} at ${path}`);
    }
    console.log(`      searched ${artifacts.length} artifacts and ${states.length} states for ${Object.keys(secrets).length} secrets`);
    assert.deepEqual(leaks, []);
    // The search is not vacuous: each token the deployment used is in the state, secret-marked.
    const deployed = states.find(({ where }) => where === "state after up")!.state;
    assert.notDeepEqual(wrappedOccurrences(deployed, emulator.apiToken), [], "the API token is kept, secret-marked, in the provider's inputs");
    assert.notDeepEqual(wrappedOccurrences(deployed, feedToken), [], "the feed token is kept, secret-marked, in the feed's outputs");
  });
});

describe("reliability: transport errors carry no token", function () {
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
        const error = await failureOf(transport.call({ method: "GET", path: "/accounts/1" }, { resource: "crm.Test", credentialSetting: spec.token.key }));
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
