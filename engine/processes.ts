// Child processes of one engine run: spawned with a clean environment, their output split into
// lines, and all of them killed when the run ends, fails, or the engine process exits.
import { ChildProcess, spawn } from "child_process";
import * as readline from "readline";

const live = new Set<ChildProcess>();
process.on("exit", () => {
    for (const child of live) child.kill("SIGKILL");
});

/** Variables through which the engine talks to programs and hosts; never inherited. */
function isEngineVariable(name: string): boolean {
    return name.startsWith("PULUMI_NODEJS_") || name === "PULUMI_CONFIG" || name === "PULUMI_CONFIG_SECRET_KEYS";
}

export interface Child {
    process: ChildProcess;
    /** Resolves with the exit code (1 if killed by a signal) once the output is all read. */
    exited: Promise<number>;
}

export class ProcessGroup {
    private readonly children = new Set<ChildProcess>();

    spawn(
        args: string[],
        options: { cwd: string; env?: Record<string, string>; onLine: (stream: "stdout" | "stderr", line: string) => void },
    ): Child {
        const env: NodeJS.ProcessEnv = {};
        for (const [name, value] of Object.entries(process.env)) {
            if (!isEngineVariable(name)) env[name] = value;
        }
        const child = spawn(process.execPath, args, {
            cwd: options.cwd,
            env: { ...env, ...options.env },
            stdio: ["ignore", "pipe", "pipe"],
        });
        this.children.add(child);
        live.add(child);
        for (const stream of ["stdout", "stderr"] as const) {
            readline.createInterface({ input: child[stream]! }).on("line", (line) => options.onLine(stream, line));
        }
        const exited = new Promise<number>((resolve) => {
            child.on("error", () => resolve(1));
            child.on("close", (code) => {
                this.children.delete(child);
                live.delete(child);
                resolve(code ?? 1);
            });
        });
        return { process: child, exited };
    }

    killAll(): void {
        for (const child of this.children) child.kill("SIGKILL");
    }
}
