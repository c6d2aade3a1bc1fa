// What the fleet reads of the program every client's stack runs: its project's name, the
// settings its Pulumi.yaml declares (`config:`), so that a clients file's misspelt key is refused
// before any stack is written, and whether it names where its plugin is released.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { closestFirst, knownSettingKeys } from "../../settings";
import { type ClientsFile, ClientsFileError } from "./clients";

export interface ProgramSettings {
  project: string;
  /** The project's settings its Pulumi.yaml declares under `config:`; undefined where it declares none (a TypeScript program reading its config in code). */
  declared?: string[];
  /**
   * Whether the program names where its plugin comes from (`pluginDownloadURL` in a resource's
   * options): the release's single executable, which the CLI installs into its plugin cache.
   */
  namesPluginRelease: boolean;
  /**
   * The one version of the plugin the program names beside `pluginDownloadURL`, which the CLI runs
   * from its plugin cache; undefined where it names none, or several, or names a plugin's folder
   * (`plugins:`), which the CLI runs instead.
   */
  pluginVersion?: string;
}

/** Reads the program's Pulumi.yaml: its `name:` and the keys of its top-level `config:` block. */
export function programSettings(program: string): ProgramSettings {
  const path = ["Pulumi.yaml", "Pulumi.yml"].map((name) => join(program, name)).find((candidate) => existsSync(candidate));
  if (!path) throw new ClientsFileError(`${program} holds no Pulumi.yaml: give the program's folder ("program" in the clients file, or --program)`);
  const lines = readFileSync(path, "utf8").split(/\r?\n/);
  const project = lines.map((line) => /^name:\s*["']?([^"'\s#]+)/.exec(line)?.[1]).find(Boolean);
  if (!project) throw new ClientsFileError(`${path} names no project (name:)`);
  const releaseLines = lines.filter((line) => /^[^#]*\bpluginDownloadURL\s*:/.test(line));
  const namesPluginRelease = releaseLines.length > 0;
  const versions = new Set(releaseLines.map((line) => /\bversion\s*:\s*["']?v?(\d[^"',\s}]*)/.exec(line)?.[1]));
  const namesPluginFolder = lines.some((line) => /^plugins:/.test(line));
  const pluginVersion = versions.size === 1 && !namesPluginFolder ? [...versions][0] : undefined;
  const start = lines.findIndex((line) => /^config:\s*(#.*)?$/.test(line));
  if (start === -1) return { project, namesPluginRelease, pluginVersion };
  // The block's keys: its lines at its first indentation, up to the next top-level line.
  const block = lines.slice(start + 1);
  const end = block.findIndex((line) => /^\S/.test(line));
  const body = (end === -1 ? block : block.slice(0, end)).filter((line) => line.trim() && !line.trim().startsWith("#"));
  const indent = body.length ? /^\s*/.exec(body[0])![0].length : 0;
  const declared = body.flatMap((line) => {
    const match = /^(\s*)["']?([^"':\s]+(?::[^"':\s]+)?)["']?\s*:/.exec(line);
    return match && match[1].length === indent ? [match[2]] : [];
  });
  return { project, declared, namesPluginRelease, pluginVersion };
}

/**
 * Refuses a client's setting the program does not read, naming the closest one: a key of
 * pulumi-crm's namespaces (`crm:`, `chat:`) that is none of its settings, and a key of the
 * project's that its Pulumi.yaml does not declare (where it declares its settings). A misspelt
 * key would otherwise be written and ignored.
 */
export function refuseUnknownSettings(file: ClientsFile, program: ProgramSettings): void {
  for (const client of file.clients) {
    for (const key of Object.keys(client.config)) {
      const namespace = key.includes(":") ? key.split(":")[0] : program.project;
      const name = key.includes(":") ? key.split(":")[1] : key;
      const known =
        namespace === program.project
          ? program.declared?.flatMap((declared) => (declared.includes(":") ? [] : [declared]))
          : ["crm", "chat"].includes(namespace)
            ? knownSettingKeys.filter((setting) => setting.startsWith(`${namespace}:`))
            : undefined;
      if (!known || known.includes(namespace === program.project ? name : key)) continue;
      const closest = closestFirst(namespace === program.project ? name : key, known);
      const where = namespace === program.project ? `the program ${program.project} declares` : `pulumi-crm reads of ${namespace}`;
      throw new ClientsFileError(
        `${file.path}: client "${client.stack}": config key "${key}" is no setting ${where}; did you mean "${closest[0]}"? (${closest.length > 1 ? `the others: ${closest.slice(1).join(", ")}` : "the only one"})`,
      );
    }
  }
}
