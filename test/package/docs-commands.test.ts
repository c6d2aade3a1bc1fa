// Every `pulumi` command that README.md, sdk-docs/, docs/ (the Registry's pages) and the examples' READMEs show users is one the
// real CLI accepts: its subcommand exists and it takes each flag shown. The CLI parses a command's
// flags before it answers `--help`, so `pulumi <command> <flags> --help` fails on a flag it does
// not know, and runs nothing. What the commands do is the lifecycle tests' subject.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ensureToolchain } from "../../scripts/toolchain";
import { repoRoot } from "../../scripts/harness/packed-program";

const documents = () => [
  "README.md",
  ...readdirSync(join(repoRoot, "sdk-docs"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => `sdk-docs/${file}`),
  ...readdirSync(join(repoRoot, "docs"), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(".md"))
    .map((file) => `docs/${file}`),
  ...readdirSync(join(repoRoot, "examples"))
    .map((example) => `examples/${example}/README.md`)
    .filter((file) => readdirSync(join(repoRoot, file, "..")).includes("README.md")),
];

/** The `pulumi ...` commands of a document's code, without comments, shell plumbing or placeholders' values. */
function commandsIn(text: string): string[] {
  const code = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map(([, block]) => block).join("\n");
  return code
    .split("\n")
    .flatMap((line) => line.split(/&&|\|\||;/))
    .map((part) =>
      part
        .replace(/#.*$/, "")
        .replace(/2>\/dev\/null/, "")
        .trim(),
    )
    .filter((part) => /^(\$ )?pulumi [a-z]/.test(part))
    .map((part) => part.replace(/^\$ /, ""));
}

/** The command's words up to its first argument that is not a subcommand or a flag, as the CLI parses them. */
function subcommandAndFlags(command: string): string[] {
  const words = command.split(/\s+/).slice(1);
  const subcommand: string[] = [];
  while (words.length > 0 && /^[a-z][a-z-]*$/.test(words[0]) && subcommand.length < 2) subcommand.push(words.shift()!);
  // A flag's value is left out; its name is what the CLI must know (flagValues gives those that take one a value).
  const flags = words.filter((word) => word.startsWith("--")).map((flag) => flag.split("=")[0]);
  return [...subcommand, ...flags];
}

/** A value for each documented flag that takes one, so that the CLI does not take `--help` for it. */
const flagValues: Record<string, string> = {
  "--stack": "dev",
  "--file": "plugin.tar.gz",
  "--server": "github://api.github.com/pulumi-crm/pulumi-crm",
  "--out": "imported.yaml",
};

describe("the pulumi commands the docs show", function () {
  this.timeout(120_000);
  const commands = new Map<string, string>();
  for (const document of documents()) {
    for (const command of commandsIn(readFileSync(join(repoRoot, document), "utf8"))) commands.set(command, document);
  }

  it("are found in the docs (README, sdk-docs, docs, the examples)", () => {
    assert.ok(commands.size >= 20, `only ${commands.size} pulumi commands found`);
  });

  it("are each accepted by the real CLI, subcommand and flags", async () => {
    const { cliBin } = ensureToolchain();
    const refused: string[] = [];
    const checked = new Set<string>();
    for (const [command, document] of commands) {
      const words = subcommandAndFlags(command);
      // `config set` with a secret flag and no value would wait for one: --help answers first.
      const key = words.join(" ");
      if (checked.has(key)) continue;
      checked.add(key);
      const subcommand = words.filter((word) => !word.startsWith("--")).join(" ");
      try {
        const { stdout } = await promisify(execFile)(
          join(cliBin, "pulumi"),
          [...words.flatMap((word) => (word in flagValues ? [word, flagValues[word]] : [word])), "--help"],
          {
            env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_HOME: join(repoRoot, ".work", "docs-commands-home") },
          },
        );
        // An unknown subcommand is taken as an argument of its parent, whose help then shows.
        const usage = /Usage:\s*\n\s*(pulumi [^\n]*)/.exec(stdout)?.[1] ?? "";
        const aliases = /Aliases:\s*\n\s*([^\n]*)/.exec(stdout)?.[1].split(/,\s*/) ?? [];
        const [parent, last] = [subcommand.split(" ").slice(0, -1).join(" "), subcommand.split(" ").pop()!];
        const named =
          `${usage} `.startsWith(`pulumi ${subcommand} `) || (aliases.includes(last) && `${usage} `.startsWith(`pulumi ${parent} `.replace("  ", " ")));
        if (!named) refused.push(`${document}: ${command}\n    no subcommand \`pulumi ${subcommand}\``);
      } catch (error) {
        refused.push(`${document}: ${command}\n    ${(error as { stderr?: string }).stderr?.trim() ?? error}`);
      }
    }
    console.log(`      ${commands.size} documented commands, ${checked.size} distinct subcommand and flag sets`);
    assert.deepEqual(refused, []);
  });
});
