// A program on the native plugins: the test program test/plugin/programs/native-accounts
// installed as installProgram does, or a Pulumi YAML program copied as it is, with the bundled
// plugin `npm run plugins` builds, named by its Pulumi.yaml `plugins.providers` or left to a
// stack to install from its tarball.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type BuiltPlugin, buildPlugins } from "../plugin-bundle";
import { ensureToolchain, ensureYamlLanguageHost } from "../toolchain";
import { installProgram, type InstallOptions, repoRoot } from "./packed-program";
import { emulatorCallWhenAdmitted, emulatorRead, requestCount, type RunningEmulator } from "./emulator";
import { CHANGES_NOT_EXPECTED, type CliStack } from "./pulumi-cli";

const nativeAccounts = join(repoRoot, "test", "plugin", "programs", "native-accounts");

/** The native-accounts program under .work/programs/<name>, and the plugins built for it (crm's, chat's). */
export async function installNativeAccounts(
  name: string,
  options: InstallOptions = {},
): Promise<{ program: string; plugin: BuiltPlugin; chatPlugin: BuiltPlugin }> {
  const [plugin, chatPlugin] = await buildPlugins(join(repoRoot, ".work", "plugins", name));
  return { program: installProgram(nativeAccounts, name, { ...options, generatedSdks: ["crm", "chat"] }), plugin, chatPlugin };
}

/** Folders holding `pulumi-resource-<pkg>`, by package, named in the program's Pulumi.yaml `plugins.providers`, as the docs show: a bundle's, or one relative to the program. */
export function namePluginFolders(program: string, folders: Record<string, string>): void {
  const providers = Object.entries(folders).map(([pkg, folder]) => `    - name: ${pkg}\n      path: ${folder}\n`);
  appendFileSync(join(program, "Pulumi.yaml"), `plugins:\n  providers:\n${providers.join("")}`);
}

/**
 * The Pulumi YAML program in `source` under .work/programs/<name> (an empty folder for a test that
 * writes its program), its Pulumi.yaml naming the crm plugin built for it, and the chat plugin
 * with `chat`; the YAML language host built and linked beside the CLI.
 */
export async function installYamlProgram(
  source: string | undefined,
  name: string,
  options: { chat?: boolean } = {},
): Promise<{ program: string; plugin: BuiltPlugin }> {
  const [plugin, chatPlugin] = await buildPlugins(join(repoRoot, ".work", "plugins", name));
  const program = copyYamlProgram(source, name);
  namePluginFolders(program, { [plugin.pkg]: plugin.folder, ...(options.chat ? { [chatPlugin.pkg]: chatPlugin.folder } : {}) });
  return { program, plugin };
}

/**
 * The Pulumi YAML program in `source` copied as it is under .work/programs/<name> (an empty
 * folder without `source`; the CLI writes each stack's settings file beside Pulumi.yaml, which
 * stays out of the repository), the YAML language host built and linked beside the CLI. Returns
 * the copy's folder.
 */
export function copyYamlProgram(source: string | undefined, name: string): string {
  ensureYamlLanguageHost(ensureToolchain());
  const program = join(repoRoot, ".work", "programs", name);
  rmSync(program, { recursive: true, force: true });
  if (source) cpSync(source, program, { recursive: true });
  else mkdirSync(program, { recursive: true });
  return program;
}

/** Adds to a YAML program the code each `pulumi import` printed for it: the entries under its `resources:`. */
export function addPrintedCode(program: string, ...stdouts: string[]): void {
  const entries = stdouts.flatMap((stdout) => {
    const lines = stdout.split("\n");
    const start = lines.indexOf("resources:");
    if (start === -1) throw new Error(`pulumi import printed no YAML resources:\n${stdout}`);
    const end = lines.findIndex((line, index) => index > start && !line.startsWith("  "));
    return lines.slice(start + 1, end === -1 ? undefined : end);
  });
  appendFileSync(join(program, "Pulumi.yaml"), ["resources:", ...entries, ""].join("\n"));
}

/**
 * The plugin's tarball installed into the plugin cache of a stack's PULUMI_HOME (an Automation
 * API program's, given its environment), as the docs show: `pulumi plugin install resource crm <version> --file <tarball>`.
 */
export function installPluginTarball(stack: Pick<CliStack, "env">, plugin: BuiltPlugin): void {
  const version = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
  execFileSync(join(ensureToolchain().cliBin, "pulumi"), ["plugin", "install", "resource", plugin.pkg, version, "--file", plugin.tarball], {
    env: stack.env(),
    stdio: "pipe",
  });
}

/** A second `up`, its preview included, of a program on the plugin: no change, and no request to `emulator`. */
export async function assertNoOpUp(stack: CliStack, emulator: RunningEmulator): Promise<void> {
  const before = await requestCount(emulator);
  const again = await stack.up();
  assert.equal(again.exitCode, 0, again.lines.join("\n"));
  assert.equal(again.changes, false, again.lines.join("\n"));
  assert.equal(await requestCount(emulator), before);
}

/**
 * Account `accountId` of `emulator` renamed outside the stack from `name`: the drift check exits
 * 7 naming the change, `up --refresh` puts the name back with one update.
 */
export async function assertRenameRepaired(stack: CliStack, emulator: RunningEmulator, accountId: string, name: string): Promise<void> {
  await emulatorCallWhenAdmitted(emulator, "PUT", `/api/3/accounts/${accountId}`, { account: { name: `${name} Renamed` } });
  const check = await stack.driftCheck("--diff");
  assert.equal(check.exitCode, CHANGES_NOT_EXPECTED, check.lines.join("\n"));
  assert.match(check.stdout, new RegExp(`name\\s*:\\s*"${name}" => "${name} Renamed"`));
  const repair = await stack.up("--refresh", "--skip-preview");
  assert.equal(repair.exitCode, 0, repair.lines.join("\n"));
  assert.equal(repair.steps.update, 1, repair.lines.join("\n"));
  assert.equal((await emulatorRead(emulator, `/accounts/${accountId}`)).account.name, name);
}

/** A program with the code `pulumi import` printed: its preview shows no change, its `up` none and no request to `emulator`. */
export async function assertImportRoundTrips(stack: CliStack, emulator: RunningEmulator): Promise<void> {
  const preview = await stack.run(["preview", "--expect-no-changes", "--diff"]);
  assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
  const before = await requestCount(emulator);
  const up = await stack.up("--skip-preview");
  assert.equal(up.exitCode, 0, up.lines.join("\n"));
  assert.equal(up.changes, false, up.lines.join("\n"));
  assert.equal(await requestCount(emulator), before);
}
