// Runs a program as the Node.js language host does: `cmd/run` of the program's own SDK.
import * as path from "path";

import { Child, ProcessGroup } from "./processes";
import { configEnvironment, Project, StackConfig } from "./project";
import type { PulumiSdk } from "./sdk";

/** cmd/run's exit code when the error was already reported through Engine.Log. */
export const ERROR_ALREADY_LOGGED = 32;

export interface ProgramRun {
    sdk: PulumiSdk;
    project: Project;
    stack: string;
    config: StackConfig;
    monitorAddress: string;
    engineAddress: string;
    preview: boolean;
    parallel: number;
    onLine: (line: string) => void;
}

export function startProgram(processes: ProcessGroup, run: ProgramRun): Child {
    const { sdk, project } = run;
    const args = [
        ...project.nodeArgs,
        path.join(sdk.dir, "cmd", "run"),
        `--monitor=${run.monitorAddress}`,
        `--engine=${run.engineAddress}`,
        "--organization=organization",
        `--project=${project.name}`,
        `--root-directory=${project.dir}`,
        `--stack=${run.stack}`,
        `--pwd=${project.dir}`,
        `--parallel=${run.parallel}`,
        ...(run.preview ? ["--dry-run"] : []),
        project.main,
    ];
    const env: Record<string, string> = { ...configEnvironment(run.config) };
    if (project.typescript) env.PULUMI_NODEJS_TYPESCRIPT = "true";
    if (project.tsconfig) env.PULUMI_NODEJS_TSCONFIG_PATH = project.tsconfig;
    return processes.spawn(args, { cwd: project.dir, env, onLine: (_stream, line) => run.onLine(line) });
}
