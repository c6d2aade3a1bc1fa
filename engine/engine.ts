// A stand-in for the Pulumi CLI: preview, up, refresh and destroy of a Node.js program whose
// custom resources are dynamic resources (or @pulumi/random's, on a stand-in of the engine's own),
// with a JSON state file.
import * as os from "os";
import * as path from "path";

import { ProgramDeployment } from "./deployment";
import { engineService, GrpcServer, LogSeverity, monitorService } from "./monitor";
import { deleteInDependencyOrder, errorMessage, Limit, refreshAll, RunContext, StepError } from "./operations";
import { Child, ProcessGroup } from "./processes";
import { ERROR_ALREADY_LOGGED, startProgram } from "./program";
import { containsSecrets } from "./properties";
import { loadProject, loadStackConfig, Project, StackConfig } from "./project";
import { ProviderHost } from "./provider-host";
import { defaultProvider, hostEnvironment, ProviderRegistry, withDefaultProvider } from "./providers";
import { OutputStream, Report, StepCounts } from "./report";
import { loadSdk, PulumiSdk } from "./sdk";
import { PendingOperation, readState, Snapshot, StackState, writeState } from "./state";

export type Command = "preview" | "up" | "refresh" | "destroy";

/** The exit code of `pulumi ... --expect-no-changes` when there are changes. */
export const CHANGES_NOT_EXPECTED = 7;

export interface EngineOptions {
    command: Command;
    /** The program directory (where Pulumi.yaml is). */
    cwd: string;
    stack: string;
    stateFile: string;
    /** Configuration by key ("ns:key", or "key" for the project's namespace). */
    config?: Record<string, string>;
    secrets?: Record<string, string>;
    /** Exit CHANGES_NOT_EXPECTED if there are changes (up and refresh apply them first). */
    expectNoChanges?: boolean;
    /** refresh only: read and report, write nothing (`pulumi refresh --preview-only`). */
    previewOnly?: boolean;
    /** refresh only: drop the pending creates from the state first (`--clear-pending-creates`). */
    clearPendingCreates?: boolean;
    /** refresh only: pending creates (by URN) that did make an object (its id), as `--import-pending-creates URN ID`. */
    importPendingCreates?: Record<string, string>;
    /**
     * up and preview: read every resource of the state first and diff the program against what
     * was read (`--refresh`); up writes the refreshed state, its preview writes nothing.
     */
    refresh?: boolean;
    /**
     * up: run the update without a preview first (`--skip-preview`, `-f`), as the CLI's
     * PreviewThenPromptThenExecute does when `SkipPreview` is set: the program runs once, and a
     * failure that a preview would have caught happens in the update, after the steps before it.
     * refresh and destroy accept it and are unchanged (they never preview); not with `previewOnly`.
     */
    skipPreview?: boolean;
    /** Show each step's property-level diff (`--diff`), as the CLI's diff display. */
    diff?: boolean;
    /** Provider operations at once; defaults to PULUMI_PARALLEL, else the CLI's 4 per CPU. */
    parallel?: number;
    /** Receives each output line as it is produced. */
    onLine?: (stream: OutputStream, line: string) => void;
}

export interface LogEntry {
    severity: LogSeverity;
    message: string;
    urn: string;
}

export interface EngineResult {
    exitCode: number;
    steps: StepCounts;
    changes: boolean;
    /** Step lines (stdout). */
    lines: string[];
    /** Errors, warnings, program and provider host output (stderr). */
    diagnostics: string[];
    /** Everything the program logged through the engine, debug and info included. */
    logs: LogEntry[];
}

interface Setup {
    sdk: PulumiSdk;
    project: Project;
    config: StackConfig;
    report: Report;
    processes: ProcessGroup;
    logs: LogEntry[];
}

/**
 * As `pulumi up --yes`, up previews first (a program run with --dry-run, only Check and Diff) and
 * updates only if the preview succeeded; the result is the update's, with the output of both.
 * With `skipPreview` (`pulumi up --skip-preview`), up is the update alone.
 */
export async function runEngine(options: EngineOptions): Promise<EngineResult> {
    if (options.command !== "up") return runOperation(options);
    if (options.skipPreview) return runOperation(options, "Updating:");
    const preview = await runOperation({ ...options, command: "preview", expectNoChanges: false }, "Previewing update:");
    if (preview.exitCode !== 0) return preview;
    const update = await runOperation(options, "Updating:");
    return {
        ...update,
        lines: [...preview.lines, ...update.lines],
        diagnostics: [...preview.diagnostics, ...update.diagnostics],
        logs: [...preview.logs, ...update.logs],
    };
}

async function runOperation(options: EngineOptions, heading?: string): Promise<EngineResult> {
    const report = new Report(options.onLine, !!options.diff);
    if (heading) report.out(heading);
    const processes = new ProcessGroup();
    const logs: LogEntry[] = [];
    let exitCode: number;
    try {
        const refreshOptions = {
            previewOnly: !!options.previewOnly,
            clearPendingCreates: !!options.clearPendingCreates,
            importPendingCreates: Object.keys(options.importPendingCreates ?? {}).length > 0,
        };
        const misplaced = Object.keys(refreshOptions).find((option) => refreshOptions[option as keyof typeof refreshOptions]);
        if (misplaced && options.command !== "refresh") throw new Error(`${misplaced} is an option of refresh only`);
        // As the CLI (pkg/cmd/pulumi/operations/io.go, updateFlagsToOptions); preview has no such flag.
        if (options.skipPreview && options.previewOnly) throw new Error("skipPreview and previewOnly cannot be used together");
        if (options.skipPreview && options.command === "preview") throw new Error("skipPreview is an option of up, refresh and destroy only");
        if (options.refresh && options.command !== "up" && options.command !== "preview") {
            throw new Error("refresh is an option of up and preview only");
        }
        const cwd = path.resolve(options.cwd);
        const sdk = loadSdk(cwd);
        const project = loadProject(sdk, cwd);
        const config = loadStackConfig(sdk, project, options.stack, options.config ?? {}, options.secrets ?? {});
        exitCode = await execute(options, { sdk, project, config, report, processes, logs });
    } catch (e) {
        if (!(e instanceof StepError)) report.error(errorMessage(e));
        exitCode = 1;
    } finally {
        processes.killAll();
    }
    if (exitCode === 0 && options.expectNoChanges && report.changes) {
        report.error("no changes were expected, but there are changes");
        exitCode = CHANGES_NOT_EXPECTED;
    }
    return {
        exitCode,
        steps: report.steps,
        changes: report.changes,
        lines: report.lines,
        diagnostics: report.diagnostics,
        logs,
    };
}

async function execute(options: EngineOptions, setup: Setup): Promise<number> {
    const { sdk, project, config, report, processes, logs } = setup;
    const { command, stack } = options;
    const stateFile = path.resolve(options.stateFile);
    const preview = command === "preview" || !!options.previewOnly;
    const currentDefaultProvider = defaultProvider(stack, project.name, config);
    if (command === "refresh") resolvePendingCreates(options, stateFile, project.name, report);
    const stored = readState(stateFile, stack, project.name);
    // As the CLI's deployment executor, an update or destroy (not a preview, not a refresh, nor
    // an update that refreshes first) warns of them.
    if ((command === "up" || command === "destroy") && !preview && !options.refresh && stored.pendingOperations.length > 0) {
        report.diagnostic(`warning: ${pendingOperationsWarning(stored.pendingOperations)}`);
    }
    let warnedOfSecrets = false;
    const persist = (state: StackState) => {
        if (preview) return;
        writeState(stateFile, stack, project.name, state);
        if (!warnedOfSecrets && holdsSecrets(state)) {
            warnedOfSecrets = true;
            report.diagnostic(`warning: ${plaintextSecretsWarning(stateFile)}`);
        }
    };
    let snapshot = new Snapshot(withDefaultProvider(stored.resources, currentDefaultProvider), stored.pendingOperations, persist);
    const parallel = options.parallel ?? parallelFromEnvironment() ?? os.cpus().length * 4;
    const servers: GrpcServer[] = [];
    let providers: ProviderRegistry | undefined;
    let deployment: ProgramDeployment | undefined;
    try {
        const engineServer = await GrpcServer.start(
            sdk,
            engineService(sdk, (severity, message, urn) => {
                logs.push({ severity, message, urn });
                // What a program logs after a failed step is about that failure, already reported.
                if ((severity === "warning" || severity === "error") && !deployment?.hasFailed) {
                    report.diagnostic(`${severity}: ${message}`);
                }
            }),
        );
        servers.push(engineServer);
        const environment = hostEnvironment(project, config);
        const startHost = () =>
            ProviderHost.start(sdk, processes, project.dir, engineServer.address, environment, (line) => report.diagnostic(line));
        providers = new ProviderRegistry(
            startHost,
            (urn) => snapshot.current(urn),
            (line) => report.diagnostic(line),
        );
        let context: RunContext = {
            stack,
            project: project.name,
            preview,
            snapshot,
            providers,
            report,
            limit: new Limit(parallel),
        };
        if (command === "refresh") {
            await refreshAll(context);
            return 0;
        }
        if (command === "destroy") {
            await deleteInDependencyOrder(context, snapshot.resources());
            return 0;
        }
        if (options.refresh) {
            // As the CLI's deployment executor: the state is refreshed, then the update starts
            // from the refreshed state as its base (rebuildBaseState).
            await refreshAll(context, true);
            snapshot = new Snapshot(snapshot.resources(), stored.pendingOperations, persist);
            context = { ...context, snapshot };
        }
        deployment = new ProgramDeployment(context, (pkg, version) => defaultProvider(stack, project.name, config, pkg, version));
        const monitorServer = await GrpcServer.start(sdk, monitorService(sdk, deployment));
        servers.push(monitorServer);
        const program = startProgram(processes, {
            sdk,
            project,
            stack,
            config,
            monitorAddress: monitorServer.address,
            engineAddress: engineServer.address,
            preview,
            parallel,
            onLine: (line) => {
                if (!deployment?.hasFailed) report.diagnostic(line);
            },
        });
        return await finishProgram(deployment, program, report);
    } finally {
        await deployment?.settle();
        await providers?.closeAll();
        for (const server of servers) server.stop();
    }
}

/** The CLI's warning (pkg/resource/deploy/deployment_executor.go, printPendingOperationsWarning). */
export function pendingOperationsWarning(operations: readonly PendingOperation[]): string {
    return (
        `Attempting to deploy or update resources with ${operations.length} pending operations from previous deployment.\n` +
        operations.map((op) => `  * ${op.resource.urn}, interrupted while ${op.type}\n`).join("") +
        "These resources are in an unknown state because the Pulumi CLI was interrupted while " +
        "waiting for changes to these resources to complete. You should confirm whether or not the " +
        "operations listed completed successfully by checking the state of the appropriate provider. " +
        "For example, if you are using AWS, you can confirm using the AWS Console.\n" +
        "\n" +
        "Once you have confirmed the status of the interrupted operations, you can repair your stack " +
        "using `pulumi refresh` which will refresh the state from the provider you are using and " +
        "clear the pending operations if there are any.\n" +
        "\n" +
        "Note that `pulumi refresh` will need to be run interactively to clear pending CREATE operations."
    );
}

/**
 * What `pulumi refresh` does to pending creates before it refreshes, as a direct edit of the
 * state (pkg/cmd/pulumi/operations/refresh.go): those named by --import-pending-creates become
 * "importing" operations with the given id (a URN that names none is warned about), then
 * --clear-pending-creates drops the rest. The engine never prompts, so the interactive choice the
 * CLI offers on a terminal is never made and the remaining pending creates stay.
 */
function resolvePendingCreates(options: EngineOptions, stateFile: string, project: string, report: Report): void {
    const imports = new Map(Object.entries(options.importPendingCreates ?? {}));
    if (imports.size === 0 && !options.clearPendingCreates) return;
    const state = readState(stateFile, options.stack, project);
    const pendingOperations = state.pendingOperations.flatMap((op): PendingOperation[] => {
        if (op.type !== "creating") return [op];
        const id = imports.get(op.resource.urn);
        imports.delete(op.resource.urn);
        if (id !== undefined) return [{ type: "importing", resource: { ...op.resource, id } }];
        return options.clearPendingCreates ? [] : [op];
    });
    for (const urn of imports.keys()) report.diagnostic(`warning: "${urn}" did not correspond to a pending create`);
    writeState(stateFile, options.stack, project, { ...state, pendingOperations });
}

/**
 * The CLI encrypts secret values in its state with the stack's secrets provider (a passphrase or
 * a service key); the engine's state file holds them as plain text, so it says so once a run.
 */
export function plaintextSecretsWarning(stateFile: string): string {
    return (
        `${stateFile} holds secret values in plain text: the test engine does not encrypt them ` +
        "(the Pulumi CLI encrypts them with the stack's secrets provider). Keep the file out of version control, artifacts and logs."
    );
}

function holdsSecrets({ resources, pendingOperations }: StackState): boolean {
    return [...resources, ...pendingOperations.map((op) => op.resource)].some(
        (resource) => containsSecrets(resource.inputs) || containsSecrets(resource.outputs),
    );
}

/** PULUMI_PARALLEL, when a positive integer, as the CLI reads it. */
function parallelFromEnvironment(): number | undefined {
    const value = Number(process.env.PULUMI_PARALLEL);
    return Number.isInteger(value) && value > 0 ? value : undefined;
}

async function finishProgram(deployment: ProgramDeployment, program: Child, report: Report): Promise<number> {
    const outcome = await Promise.race([program.exited, deployment.failed.then(() => "step failed" as const)]);
    if (outcome === "step failed" || deployment.hasFailed) {
        // As the CLI does after a failed step: let the running steps finish, then stop the program.
        await deployment.settle();
        program.process.kill("SIGKILL");
        await program.exited;
        return 1;
    }
    if (outcome !== 0) {
        if (outcome !== ERROR_ALREADY_LOGGED) report.error(`the program exited with code ${outcome}`);
        return 1;
    }
    await deployment.deleteUndeclared();
    return 0;
}
