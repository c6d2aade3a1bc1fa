// examples/ci-drift: its GitHub workflows, read as YAML and checked against the CLI's
// flags, then run: the program deployed through the test engine, and the workflows'
// own drift-check and preview steps run by bash with `pulumi` standing for the engine.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EngineOptions, EngineResult, runEngine } from "../../engine/engine";
import { startEmulator } from "../../emulator";
import { engineCli, installExample, repoRoot } from "../support/packed-program";
import { driftCheck, emulatorCall, emulatorCallWhenAdmitted, emulatorRead, requestCount, RunningEmulator, stackOnEmulator } from "../support/emulator";

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

/**
 * The flags the workflows may give each `pulumi` command, as `pulumi <command> --help` and
 * https://www.pulumi.com/docs/iac/cli/commands/ list them; true: the flag takes a value.
 */
const CLI_FLAGS: Record<string, Record<string, boolean>> = {
  refresh: {
    "--preview-only": false, "--expect-no-changes": false, "--stack": true, "-s": true, "--yes": false, "-y": false,
    "--skip-preview": false, "--diff": false, "--json": false, "-j": false, "--parallel": true, "-p": true,
    "--show-sames": false, "--suppress-outputs": false, "--suppress-progress": false, "--message": true, "-m": true,
    "--target": true, "-t": true, "--run-program": false,
  },
  preview: {
    "--stack": true, "-s": true, "--diff": false, "--expect-no-changes": false, "--json": false, "-j": false,
    "--refresh": false, "-r": false, "--parallel": true, "-p": true, "--show-sames": false, "--suppress-outputs": false,
    "--suppress-progress": false, "--message": true, "-m": true, "--target": true, "-t": true,
  },
  version: {},
};
/** Flags of every command (the CLI's persistent flags). */
const GLOBAL_FLAGS: Record<string, boolean> = { "--non-interactive": false, "--color": true, "--cwd": true, "-C": true, "--verbose": true, "-v": true, "--logtostderr": false, "--emoji": false };

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
  const known = CLI_FLAGS[command];
  if (!known) return [`pulumi ${command}: a command the table does not know`];
  const problems: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const [flag, inlineValue] = args[i].split(/=(.*)/s);
    const takesValue = known[flag] ?? GLOBAL_FLAGS[flag];
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
    assert.ok(Array.isArray(drift.on.schedule) && (drift.on.schedule as Array<{ cron: string }>)[0].cron.split(" ").length === 5, "drift.yml runs on a cron schedule");
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
    assert.ok(seen.some((command) => /^preview\.yml: pulumi preview .*--stack/.test(command)), seen.join("\n"));
    // The table itself catches what it should.
    assert.deepEqual(flagProblems(["refresh", "--preview-only", "--expect-no-change", "--stack", "dev"]), ["pulumi refresh: --expect-no-change is not a flag of this command"]);
    assert.deepEqual(flagProblems(["preview", "--preview-only"]), ["pulumi preview: --preview-only is not a flag of this command"]);
  });
});

describe("examples/ci-drift: deployed, and its workflow steps run against the engine", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let program: string;
  let stateFile: string;
  let bin: string;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    program = installExample("ci-drift", "lifecycle-ci-drift", { typeCheck: "once" });
    stateFile = join(program, "dev.state.json");
    rmSync(stateFile, { force: true });
    // `pulumi` for the workflow steps: the test engine, given the state file and the emulator,
    // with --non-interactive (it never prompts) dropped.
    bin = join(program, ".bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(bin, "pulumi"),
      [
        "#!/usr/bin/env bash",
        'if [ "$1" = version ]; then echo "v0.0.0-test-engine"; exit 0; fi',
        "args=()",
        'for arg in "$@"; do case "$arg" in --non-interactive) ;; *) args+=("$arg") ;; esac; done',
        `exec node "${engineCli()}" "\${args[@]}" --cwd "$PWD" --state "$TEST_STATE" --config "crm:apiUrl=$TEST_CRM_URL" --secret "crm:apiToken=$TEST_CRM_TOKEN"`,
        "",
      ].join("\n"),
    );
    chmodSync(join(bin, "pulumi"), 0o755);
  });
  after(async () => emulator?.close());

  const engine = (command: "up" | "refresh" | "destroy", options: Partial<EngineOptions> = {}) =>
    runEngine({ command, cwd: program, stack: "dev", stateFile, ...stackOnEmulator(emulator), ...options });
  // The first up keeps its preview (a fresh stack's, its ids unknown), and so does `up --refresh`, whose
  // preview refreshes too (the repair users are told to run); the others skip it (`up --skip-preview`):
  // it would see no value unknown, so its Check and Diff calls are the update's own.
  const withoutPreview = { skipPreview: true } as const;
  const output = (result: EngineResult) => [...result.lines, ...result.diagnostics].join("\n");
  /** Runs a workflow's step as Actions does (bash -eo pipefail), for the dev stack; its exit code and job summary. */
  const runStep = async (file: string, name: string) => {
    const step = runSteps(workflow(file)).find((candidate) => candidate.name === name)!;
    const script = join(program, ".step.sh");
    const summary = join(program, ".summary.md");
    writeFileSync(script, step.run!);
    writeFileSync(summary, "");
    // Not spawnSync: the emulator answers from this process's event loop.
    const run = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: program,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, STACK: "dev", GITHUB_STEP_SUMMARY: summary, TEST_STATE: stateFile, TEST_CRM_URL: emulator.crmUrl, TEST_CRM_TOKEN: emulator.apiToken },
    });
    let text = "";
    run.stdout.on("data", (chunk) => (text += chunk));
    run.stderr.on("data", (chunk) => (text += chunk));
    const code = await new Promise<number | null>((resolve) => run.on("close", resolve));
    return { code, output: text, summary: readFileSync(summary, "utf8") };
  };
  const idOf = (kind: string) => (JSON.parse(readFileSync(stateFile, "utf8")).resources as Array<{ type: string; id: string }>).find((r) => r.type.endsWith(`:${kind}`))!.id;
  const accountId = () => idOf("Account");

  it("up creates the account, the field and its value; a second up sends no request", async () => {
    const up = await engine("up");
    assert.equal(up.exitCode, 0, output(up));
    assert.equal(up.steps.create, 4);
    const before = await requestCount(emulator);
    const again = await engine("up", withoutPreview);
    assert.equal(again.exitCode, 0, output(again));
    assert.equal(again.steps.same, 4);
    assert.equal((await requestCount(emulator)) - before, 0);
  });

  it("the pull-request preview step shows no change", async () => {
    const preview = await runStep("preview.yml", "Preview");
    assert.equal(preview.code, 0, preview.output);
    assert.match(preview.summary, /### pulumi preview: `dev`/);
  });

  it("the drift step passes with no drift, then fails with exit code 7 and names the drifted account in the job summary", async () => {
    const clean = await runStep("drift.yml", "Check for drift");
    assert.equal(clean.code, 0, clean.output);
    assert.match(clean.summary, /`dev`: no drift/);

    await emulatorCall(emulator, "PUT", `/api/3/accounts/${accountId()}`, { account: { name: "Acme Renamed" } });
    const drifted = await runStep("drift.yml", "Check for drift");
    assert.equal(drifted.code, 7, drifted.output);
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
    const relabelled = await emulatorCallWhenAdmitted(emulator, "PUT", `/api/3/accountCustomFieldMeta/${idOf("AccountCustomField")}`, { accountCustomFieldMetum: { fieldLabel: "Tier" } });
    const valueId = idOf("AccountCustomFieldValue");
    const deleted = await emulatorCallWhenAdmitted(emulator, "DELETE", `/api/3/accountCustomFieldData/${valueId}`);
    assert.deepEqual([renamed.status, relabelled.status, deleted.status], [200, 200, 200]);

    const check = await engine("refresh", { ...driftCheck, diff: true });
    assert.equal(check.exitCode, 7, output(check));
    assert.deepEqual({ update: check.steps.update, delete: check.steps.delete }, { update: 2, delete: 1 }, output(check));
    assert.match(output(check), /~ fieldLabel\s*: "Segment" => "Tier"/);

    // Why the advice is `up --refresh`: the state still holds the program's values, so a plain up
    // finds nothing to change and sends nothing that changes the service.
    const plain = await engine("up", withoutPreview);
    assert.equal(plain.exitCode, 0, output(plain));
    assert.deepEqual({ create: plain.steps.create, update: plain.steps.update }, { create: 0, update: 0 }, output(plain));
    assert.equal((await emulatorRead(emulator, `/accounts/${accountId()}`)).account.name, "Acme Renamed");

    const repair = await engine("up", { refresh: true });
    assert.equal(repair.exitCode, 0, output(repair));
    assert.deepEqual({ create: repair.steps.create, update: repair.steps.update }, { create: 1, update: 2 }, output(repair));
    // The state holds the API token (the provider's configuration) in plain text, and the engine says so.
    assert.ok(repair.diagnostics.some((line) => line.startsWith(`warning: ${stateFile} holds secret values in plain text`)), output(repair));
    assert.match(repair.lines.join("\n"), /^~ \S+:Account acme refreshed \[diff: [^\]]*~name\]$/m, output(repair));
    assert.equal((await emulatorRead(emulator, `/accounts/${accountId()}`)).account.name, "[dev] Acme Inc");
    assert.equal((await emulatorRead(emulator, `/accountCustomFieldMeta/${idOf("AccountCustomField")}`)).accountCustomFieldMetum.fieldLabel, "Segment");
    const values = (await emulatorRead(emulator, "/accountCustomFieldData?limit=100")).accountCustomFieldData as Array<{ id: string; fieldValue: unknown }>;
    assert.deepEqual(values.map((value) => value.fieldValue), ["Enterprise"]);
    assert.notEqual(idOf("AccountCustomFieldValue"), valueId, "the deleted value was created again");

    const after = await engine("refresh", driftCheck);
    assert.equal(after.exitCode, 0, output(after));
  });

  it("destroy removes everything", async () => {
    const destroy = await engine("destroy");
    assert.equal(destroy.exitCode, 0, output(destroy));
    assert.equal(destroy.steps.delete, 4);
    assert.deepEqual((await emulatorCall(emulator, "GET", "/api/3/accounts?limit=100")).body.accounts, []);
  });
});
