// npm run engine -- <preview|up|refresh|destroy> --cwd DIR --stack NAME --state FILE
//     [--config KEY=VALUE]... [--secret KEY=VALUE]... [--expect-no-changes] [--preview-only] [--yes]
//     [--refresh] [--skip-preview|-f] [--diff] [--json] [--parallel N] [--clear-pending-creates] [--skip-pending-creates] [--import-pending-creates VALUE]...
import { Command, runEngine } from "./engine";
import type { StepCounts } from "./report";

const USAGE =
    "usage: engine <preview|up|refresh|destroy> --cwd DIR --stack NAME --state FILE " +
    "[--config KEY=VALUE]... [--secret KEY=VALUE]... [--expect-no-changes] [--preview-only (refresh)] [--yes] " +
    "[--refresh (up, preview)] [--skip-preview|-f (up, refresh, destroy)] [--diff] [--json] [--parallel N] [--clear-pending-creates] [--skip-pending-creates] [--import-pending-creates URN --import-pending-creates ID]... (refresh)";

// Flags without a value. --yes is accepted as the CLI needs it, and changes nothing; so is
// --skip-pending-creates, which only skips the CLI's prompt (the engine never prompts).
// --skip-preview (-f): up runs the update without a preview; refresh and destroy never preview.
const FLAGS = ["--expect-no-changes", "--preview-only", "--yes", "--refresh", "--skip-preview", "--diff", "--json", "--clear-pending-creates", "--skip-pending-creates"];
const SHORT_FLAGS: Record<string, string> = { "-f": "--skip-preview" };
const REFRESH_ONLY = ["--preview-only", "--clear-pending-creates", "--skip-pending-creates", "--import-pending-creates"];

const COMMANDS: readonly Command[] = ["preview", "up", "refresh", "destroy"];

interface Arguments {
    command: Command;
    cwd: string;
    stack: string;
    stateFile: string;
    config: Record<string, string>;
    secrets: Record<string, string>;
    expectNoChanges: boolean;
    previewOnly: boolean;
    refresh: boolean;
    skipPreview: boolean;
    diff: boolean;
    clearPendingCreates: boolean;
    importPendingCreates: Record<string, string>;
    json: boolean;
    parallel?: number;
}

function parseArguments(argv: string[]): Arguments {
    const [command, ...rest] = argv;
    if (!COMMANDS.includes(command as Command)) throw new Error(`unknown command "${command ?? ""}"`);
    const values: Record<string, string> = {};
    const config: Record<string, string> = {};
    const secrets: Record<string, string> = {};
    const flags = new Set<string>();
    // As the CLI's string array flag: one value per occurrence, read as URN, ID, URN, ID...
    const importPendingCreates: string[] = [];
    for (let i = 0; i < rest.length; i++) {
        const flag = SHORT_FLAGS[rest[i]] ?? rest[i];
        if (FLAGS.includes(flag)) {
            flags.add(flag);
            continue;
        }
        const value = rest[++i];
        if (value === undefined) throw new Error(`${flag} needs a value`);
        if (flag === "--config" || flag === "--secret") {
            const equals = value.indexOf("=");
            if (equals <= 0) throw new Error(`${flag} expects KEY=VALUE, got "${value}"`);
            (flag === "--config" ? config : secrets)[value.slice(0, equals)] = value.slice(equals + 1);
        } else if (flag === "--import-pending-creates") {
            flags.add(flag);
            importPendingCreates.push(value);
        } else if (["--cwd", "--stack", "--state", "--parallel"].includes(flag)) {
            values[flag] = value;
        } else {
            throw new Error(`unknown option ${flag}`);
        }
    }
    for (const flag of REFRESH_ONLY) {
        if (flags.has(flag) && command !== "refresh") throw new Error(`${flag} is an option of refresh only`);
    }
    if (flags.has("--refresh") && command !== "up" && command !== "preview") throw new Error("--refresh is an option of up and preview only");
    // As the CLI: preview has no --skip-preview, and refresh refuses it with --preview-only (io.go, updateFlagsToOptions).
    if (flags.has("--skip-preview") && command === "preview") throw new Error("--skip-preview is an option of up, refresh and destroy only");
    if (flags.has("--skip-preview") && flags.has("--preview-only")) throw new Error("--skip-preview and --preview-only cannot be used together");
    // The CLI's own messages (pkg/cmd/pulumi/operations/refresh.go).
    if (flags.has("--skip-pending-creates") && flags.has("--clear-pending-creates")) {
        throw new Error("cannot set both --skip-pending-creates and --clear-pending-creates");
    }
    if (importPendingCreates.length % 2 !== 0) {
        throw new Error("each URN must be followed by an ID: found an odd number of entries");
    }
    for (const required of ["--cwd", "--stack", "--state"]) {
        if (!values[required]) throw new Error(`${required} is required`);
    }
    const parallel = values["--parallel"] === undefined ? undefined : Number(values["--parallel"]);
    if (parallel !== undefined && !(Number.isInteger(parallel) && parallel > 0)) {
        throw new Error("--parallel expects a positive integer");
    }
    return {
        command: command as Command,
        cwd: values["--cwd"],
        stack: values["--stack"],
        stateFile: values["--state"],
        config,
        secrets,
        expectNoChanges: flags.has("--expect-no-changes"),
        previewOnly: flags.has("--preview-only"),
        refresh: flags.has("--refresh"),
        skipPreview: flags.has("--skip-preview"),
        diff: flags.has("--diff"),
        clearPendingCreates: flags.has("--clear-pending-creates"),
        importPendingCreates: Object.fromEntries(
            importPendingCreates.flatMap((urn, index) => (index % 2 === 0 ? [[urn, importPendingCreates[index + 1]]] : [])),
        ),
        json: flags.has("--json"),
        parallel,
    };
}

function summary(steps: StepCounts): string {
    const counts = Object.entries(steps).map(([kind, count]) => `${count} ${kind}`);
    return `Resources: ${counts.join(", ")}`;
}

async function main(): Promise<number> {
    let args: Arguments;
    try {
        args = parseArguments(process.argv.slice(2));
    } catch (e) {
        console.error(`error: ${(e as Error).message}\n${USAGE}`);
        return 2;
    }
    const result = await runEngine({
        ...args,
        onLine: (stream, line) => (stream === "stdout" ? console.log(line) : console.error(line)),
    });
    console.log(args.json ? JSON.stringify({ steps: result.steps, changes: result.changes }) : summary(result.steps));
    return result.exitCode;
}

// Exiting (rather than dying of the signal) lets the engine kill the processes it started.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));
main().then((code) => process.exit(code));
