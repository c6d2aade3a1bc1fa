// examples/ci-drift: its GitHub workflows, read as YAML and checked against the flags the real
// `pulumi` CLI lists, then run: the program deployed on the CLI, and the workflows' own
// drift-check and preview steps run by bash as written, the CLI on PATH.

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureToolchain } from "../../scripts/toolchain";
import { startEmulator } from "../../emulator";
import { installExample, repoRoot } from "../../scripts/harness/packed-program";
import { emulatorCall, emulatorCallWhenAdmitted, emulatorRead, requestCount, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { CHANGES_NOT_EXPECTED, CliStack } from "../../scripts/harness/pulumi-cli";

const yaml = require(require.resolve("js-yaml", { paths: [require.resolve("@pulumi/pulumi")] })) as { load(text: string): unknown };
const exampleDir = join(repoRoot, "examples", "ci-drift");

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { env?: Record<string, string>; strategy?: { matrix?: { stack?: string[] } }; steps: Step[] }>;
}
const workflow = (file: string) => yaml.load(readFileSync(join(exampleDir, ".github", "workflows", file), "utf8")) as Workflow;

const flagsByCommand = new Map<string, Record<string, boolean> | undefined>();

/**
 * The flags of a `pulumi` command, as `pulumi <command> --help` lists them (its own and the
 * global ones); true: the flag takes a value. Undefined: the CLI has no such command (it then
 * prints its general help).
 */
function cliFlags(command: string): Record<string, boolean> | undefined {
  if (flagsByCommand.has(command)) return flagsByCommand.get(command);
  const help = execFileSync(join(ensureToolchain().cliBin, "pulumi"), [command, "--help"], {
    encoding: "utf8",
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  });
  let flags: Record<string, boolean> | undefined;
  if (help.includes(`Usage:\n  pulumi ${command} `)) {
    flags = {};
    // "  -s, --stack string   The name of ...", "      --diff   Display ...": a type after the name takes a value.
    for (const [, short, long, type] of help.matchAll(/^\s+(?:(-\w), )?(--[\w-]+)(?: (\S+))?\s{2,}/gm)) {
      const takesValue = type !== undefined && !type.includes("[=");
      flags[long] = takesValue;
      if (short) flags[short] = takesValue;
    }
  }
  flagsByCommand.set(command, flags);
  return flags;
}

/** Each `pulumi ...` command line of a shell script, as words (quotes removed, redirections dropped). */
function pulumiCommands(script: string): string[][] {
  const commands: string[][] = [];
  for (const segment of script.replace(/\\\n/g, " ").split(/\n|&&|\|\||[|;]|\$\(/)) {
    const words = (segment.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((word) => word.replace(/^["']|["']$/g, "")).filter((word) => !/^\d*>/.test(word));
    if (words[0] === "pulumi") commands.push(words.slice(1));
  }
  return commands;
}

/** What is wrong with a command's arguments: unknown commands and flags, stray positional arguments. */
function flagProblems([command, ...args]: string[]): string[] {
  const known = cliFlags(command);
  if (!known) return [`pulumi ${command}: a command the CLI does not have`];
  const problems: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const [flag, inlineValue] = args[i].split(/=(.*)/s);
    const takesValue = known[flag];
    if (takesValue === undefined) problems.push(`pulumi ${command}: ${flag} is not a flag of this command`);
    else if (takesValue && inlineValue === undefined) i++;
    else if (!takesValue && inlineValue !== undefined) problems.push(`pulumi ${command}: ${flag} takes no value`);
  }
  return problems;
}

const runSteps = (wf: Workflow) => Object.values(wf.jobs).flatMap((job) => job.steps.filter((step) => step.run));

describe("examples/ci-drift: the workflows", () => {
  it("are valid YAML workflows: a scheduled drift check and a pull-request preview, each for every stack", () => {
    const drift = workflow("drift.yml");
    const preview = workflow("preview.yml");
    assert.ok(
      Array.isArray(drift.on.schedule) && (drift.on.schedule as Array<{ cron: string }>)[0].cron.split(" ").length === 5,
      "drift.yml runs on a cron schedule",
    );
    assert.ok("pull_request" in preview.on, "preview.yml runs on pull requests");
    for (const wf of [drift, preview]) {
      for (const job of Object.values(wf.jobs)) {
        assert.deepEqual(job.strategy?.matrix?.stack, ["dev", "prod"]);
        assert.equal(job.env?.STACK, "${{ matrix.stack }}");
      }
      // Expressions stay out of scripts (no script injection): they reach them as environment variables.
      for (const step of runSteps(wf)) assert.ok(!step.run!.includes("${{"), `${step.name}: an expression inside run`);
    }
  });

  it("run pulumi commands with flags the CLI has for them", () => {
    const problems: string[] = [];
    const seen: string[] = [];
    for (const file of ["drift.yml", "preview.yml"]) {
      for (const step of runSteps(workflow(file))) {
        for (const command of pulumiCommands(step.run!)) {
          seen.push(`${file}: pulumi ${command.join(" ")}`);
          problems.push(...flagProblems(command).map((problem) => `${file}, ${step.name}: ${problem}`));
        }
      }
    }
    assert.deepEqual(problems, []);
    const refreshes = seen.filter((command) => command.includes("pulumi refresh"));
    assert.ok(refreshes.length >= 1 && refreshes.every((command) => command.startsWith("drift.yml")));
    for (const command of refreshes) {
      for (const flag of ["--preview-only", "--expect-no-changes", "--stack", "--non-interactive"]) assert.ok(command.includes(flag), `${command}: no ${flag}`);
    }
    assert.ok(
      seen.some((command) => /^preview\.yml: pulumi preview .*--stack/.test(command)),
      seen.join("\n"),
    );
    // The check itself catches what it should.
    assert.deepEqual(flagProblems(["refresh", "--preview-only", "--expect-no-change", "--stack", "dev"]), [
      "pulumi refresh: --expect-no-change is not a flag of this command",
    ]);
    assert.deepEqual(flagProblems(["preview", "--preview-only"]), ["pulumi preview: --preview-only is not a flag of this command"]);
    assert.deepEqual(flagProblems(["drift", "--stack", "dev"]), ["pulumi drift: a command the CLI does not have"]);
  });
});

describe("examples/ci-drift: deployed, and its workflow steps run on the pulumi CLI", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let stack: CliStack;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    const program = installExample("ci-drift", "lifecycle-ci-drift", { typeCheck: "once" });
    // The dev stack's own Pulumi.dev.yaml, with the emulator's address and key.
    stack = await CliStack.create(program, "dev", stackOnEmulator(emulator));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  /** Runs a workflow's step as Actions does (bash -eo pipefail), for the dev stack; its exit code, output and job summary. */
  const runStep = async (file: string, name: string) => {
    const step = runSteps(workflow(file)).find((candidate) => candidate.name === name)!;
    const script = join(stack.home, "step.sh");
    const summary = join(stack.home, "summary.md");
    writeFileSync(script, step.run!);
    writeFileSync(summary, "");
    // Not spawnSync: the emulator answers from this process's event loop. The environment is the
    // job's: the CLI and Node.js on PATH, the backend and its passphrase.
    const run = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: stack.program,
      env: stack.env({ STACK: "dev", GITHUB_STEP_SUMMARY: summary }),
    });
    let text = "";
    run.stdout.on("data", (chunk) => (text += chunk));
    run.stderr.on("data", (chunk) => (text += chunk));
    const code = await new Promise<number | null>((resolve) => run.on("close", resolve));
    return { code, output: text, summary: readFileSync(summary, "utf8") };
  };
  const idOf = (kind: string) => stack.resources().find((r) => r.type.endsWith(`:${kind}`))!.id!;
  const accountId = () => idOf("Account");

  it("up creates the account, the field and its value; a second up sends no request", async () => {
    const up = await stack.deploy();
    assert.equal(up.steps.create, 4);
    const before = await requestCount(emulator);
    const again = await stack.deploy();
    assert.equal(again.steps.same, 4);
    assert.equal((await requestCount(emulator)) - before, 0);
  });

  it("the pull-request preview step shows no change", async () => {
    const preview = await runStep("preview.yml", "Preview");
    assert.equal(preview.code, 0, preview.output);
    assert.match(preview.summary, /### pulumi preview: `dev`/);
    assert.match(preview.output, /4 unchanged/, preview.output);
  });

  it("the drift step passes with no drift, then fails with exit code 7 and names the drifted account in the job summary", async () => {
    const clean = await runStep("drift.yml", "Check for drift");
    assert.equal(clean.code, 0, clean.output);
    assert.match(clean.summary, /`dev`: no drift/);

    await emulatorCall(emulator, "PUT", `/api/3/accounts/${accountId()}`, { account: { name: "Acme Renamed" } });
    const drifted = await runStep("drift.yml", "Check for drift");
    assert.equal(drifted.code, CHANGES_NOT_EXPECTED, drifted.output);
    assert.match(drifted.summary, /`dev`: drift/);
    assert.match(drifted.summary, /\| `~` \| `\S+:Account acme` \| changed outside Pulumi: `name` \|/, drifted.summary);
    // The workflow runs with --diff: the log shows the field and both values, as the CLI prints them.
    assert.match(drifted.output, /^ {6}~ name\s*: "\[dev\] Acme Inc" => "Acme Renamed"$/m, drifted.output);
    const table = drifted.summary.slice(0, drifted.summary.indexOf("<details>"));
    assert.doesNotMatch(table, /AccountCustomField/, `only the account drifted:\n${drifted.summary}`);
    assert.match(drifted.output, /::error title=Drift in dev::/);
  });

  it("drift in several objects: a plain up repairs nothing, up --refresh puts every object back, and the next check passes", async () => {
    // Out of band: the account renamed (it may be already), the field relabelled, the account's value of it deleted.
    const renamed = await emulatorCallWhenAdmitted(emulator, "PUT", `/api/3/accounts/${accountId()}`, { account: { name: "Acme Renamed" } });
    const relabelled = await emulatorCallWhenAdmitted(emulator, "PUT", `/api/3/accountCustomFieldMeta/${idOf("AccountCustomField")}`, {
      accountCustomFieldMetum: { fieldLabel: "Tier" },
    });
    const valueId = idOf("AccountCustomFieldValue");
    const deleted = await emulatorCallWhenAdmitted(emulator, "DELETE", `/api/3/accountCustomFieldData/${valueId}`);
    assert.deepEqual([renamed.status, relabelled.status, deleted.status], [200, 200, 200]);

    const check = await stack.driftCheck("--diff");
    assert.equal(check.exitCode, CHANGES_NOT_EXPECTED, check.lines.join("\n"));
    assert.deepEqual({ update: check.steps.update, delete: check.steps.delete }, { update: 2, delete: 1 }, check.lines.join("\n"));
    assert.match(check.stdout, /~ fieldLabel\s*: "Segment" => "Tier"/);

    // Why the advice is `up --refresh`: the state still holds the program's values, so a plain up
    // finds nothing to change and sends nothing that changes the service.
    const plain = await stack.deploy();
    assert.equal(plain.changes, false, plain.lines.join("\n"));
    assert.equal((await emulatorRead(emulator, `/accounts/${accountId()}`)).account.name, "Acme Renamed");

    const repair = await stack.up("--refresh", "--skip-preview");
    assert.equal(repair.exitCode, 0, repair.lines.join("\n"));
    assert.deepEqual({ create: repair.steps.create, update: repair.steps.update }, { create: 1, update: 2 }, repair.lines.join("\n"));
    // The update puts the name back: the CLI shows the field it changes.
    assert.match(repair.stdout, /^ ~ +pulumi-nodejs:dynamic\/crm:Account acme updated .*\[diff: [^\]]*~name[^\]]*\]/m, repair.stdout);
    // The provider's configuration holds the API token: the state keeps it encrypted only.
    assert.ok(!stack.stateText().includes(emulator.apiToken), "the API token is in the state file in plain text");
    assert.equal((await emulatorRead(emulator, `/accounts/${accountId()}`)).account.name, "[dev] Acme Inc");
    assert.equal((await emulatorRead(emulator, `/accountCustomFieldMeta/${idOf("AccountCustomField")}`)).accountCustomFieldMetum.fieldLabel, "Segment");
    const values = (await emulatorRead(emulator, "/accountCustomFieldData?limit=100")).accountCustomFieldData as Array<{ id: string; fieldValue: unknown }>;
    assert.deepEqual(
      values.map((value) => value.fieldValue),
      ["Enterprise"],
    );
    assert.notEqual(idOf("AccountCustomFieldValue"), valueId, "the deleted value was created again");

    const after = await stack.driftCheck();
    assert.equal(after.exitCode, 0, after.lines.join("\n"));
  });

  it("destroy removes everything", async () => {
    const destroy = await stack.destroy("--skip-preview");
    assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
    assert.equal(destroy.steps.delete, 4);
    assert.deepEqual((await emulatorCall(emulator, "GET", "/api/3/accounts?limit=100")).body.accounts, []);
  });
});
