// One plugin process for every stack of a fleet command. The engine of each `pulumi up` would
// start the plugin for its one stack, and a plugin's start (a Node.js single executable
// loading its code, then running it cold) is most of what a no-op up costs the plugin. Started
// once, the release's plugin serves each stack's engine on a connection of its own, in that
// deployment's own settings and state (provider/plugin/server.ts), and each engine connects to
// it as PULUMI_DEBUG_PROVIDERS tells it (`crm:<port>`) instead of starting one. The engine's
// part is unchanged: it decrypts the stack's secrets and configures the provider with the
// stack's current settings.

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";

/** The package the fleet's programs name a plugin release of. */
const pkg = "crm";

export interface SharedPlugin {
  /** Ends the plugin once the fleet's CLIs are done with it. */
  stop(): Promise<void>;
}

/**
 * The plugin the CLI would run for the program: the release of `version` in the CLI's plugin
 * cache, where it installs the release `pluginDownloadURL` names. Undefined until the CLI has
 * installed it (the fleet's first up does), or while it is installing it.
 */
export function installedRelease(version: string, env: NodeJS.ProcessEnv): string | undefined {
  const plugins = join(env.PULUMI_HOME ?? join(homedir(), ".pulumi"), "plugins");
  const folder = join(plugins, `resource-${pkg}-v${version}`);
  const binary = join(folder, `pulumi-resource-${pkg}${process.platform === "win32" ? ".exe" : ""}`);
  return existsSync(binary) && !existsSync(`${folder}.partial`) ? binary : undefined;
}

/**
 * Starts `binary` and points the workspace's CLI calls at it. Named the fleet's
 * (PULUMI_CRM_FLEET_PID), the plugin leaves a Ctrl-C to the CLIs, which stop their updates
 * cleanly through it, and ends with the fleet (provider/plugin/server.ts, pluginMain). Should it
 * end on its own, the clients after it start their plugins as the CLI does. Undefined, and every
 * CLI starting its own, when it does not start.
 */
export async function startSharedPlugin(binary: string, workspace: LocalWorkspace, say: (line: string) => void): Promise<SharedPlugin | undefined> {
  const env = { ...process.env, ...workspace.envVars, PULUMI_CRM_FLEET_PID: String(process.pid) };
  const child = spawn(binary, [], { env, stdio: ["ignore", "pipe", "inherit"] });
  const ended = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const port = await firstLine(child);
  if (!port || !/^\d+$/.test(port)) {
    say(`the plugin ${binary} did not start (${port ? `it said "${port}"` : "it said nothing"}): each client's CLI starts its own`);
    child.kill();
    return undefined;
  }
  workspace.envVars.PULUMI_DEBUG_PROVIDERS = `${pkg}:${port}`;
  let stopping = false;
  void ended.then(() => {
    delete workspace.envVars.PULUMI_DEBUG_PROVIDERS;
    if (!stopping) say(`the shared plugin ended (exit ${child.exitCode ?? child.signalCode}): the clients after it start their own`);
  });
  return {
    stop: async () => {
      stopping = true;
      child.kill();
      await ended;
    },
  };
}

/** The plugin's first line of output, its port; undefined if it ends first, or says nothing in a minute. */
function firstLine(child: ChildProcess): Promise<string | undefined> {
  return new Promise((resolve) => {
    let said = "";
    const done = (line: string | undefined) => {
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      resolve(line?.trim());
    };
    const onData = (chunk: Buffer) => {
      said += chunk;
      if (said.includes("\n")) done(said.split("\n")[0]);
    };
    const timer = setTimeout(() => done(said || undefined), 60_000);
    child.stdout!.on("data", onData);
    child.once("close", () => done(said || undefined));
  });
}

/** Whether the fleet may share a plugin: the CLI would run the release (ambient plugins ignored, as fleetWorkspace sets), and the user attaches none of their own. */
export function sharesPlugin(workspace: LocalWorkspace): boolean {
  const ignoresAmbient = workspace.envVars.PULUMI_IGNORE_AMBIENT_PLUGINS ?? process.env.PULUMI_IGNORE_AMBIENT_PLUGINS;
  return (ignoresAmbient === "true" || ignoresAmbient === "1") && process.env.PULUMI_DEBUG_PROVIDERS === undefined;
}
