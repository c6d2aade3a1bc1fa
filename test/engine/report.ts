// What a run shows: one line per resource step, diagnostics, and the step counts.
import { isDefaultProvider, urnName, urnType } from "./urn";

export type StepKind = "create" | "update" | "replace" | "delete" | "same";
export type StepCounts = Record<StepKind, number>;
export type OutputStream = "stdout" | "stderr";

const SYMBOLS: Record<StepKind, string> = { create: "+", update: "~", replace: "+-", delete: "-", same: "=" };

export function resourceLabel(urn: string): string {
    return `${urnType(urn)} ${urnName(urn)}`;
}

export class Report {
    readonly steps: StepCounts = { create: 0, update: 0, replace: 0, delete: 0, same: 0 };
    /** Step lines and the summary (stdout). */
    readonly lines: string[] = [];
    /** Warnings, errors and the output of the program and of the provider hosts (stderr). */
    readonly diagnostics: string[] = [];

    constructor(private readonly onLine?: (stream: OutputStream, line: string) => void) {}

    step(kind: StepKind, urn: string): void {
        // The CLI neither shows nor counts the steps of default providers (internal steps).
        if (isDefaultProvider(urn)) return;
        this.steps[kind]++;
        this.out(`${SYMBOLS[kind]} ${resourceLabel(urn)}`);
    }

    get changes(): boolean {
        return this.steps.create + this.steps.update + this.steps.replace + this.steps.delete > 0;
    }

    out(line: string): void {
        this.lines.push(line);
        this.onLine?.("stdout", line);
    }

    diagnostic(line: string): void {
        this.diagnostics.push(line);
        this.onLine?.("stderr", line);
    }

    error(message: string): void {
        this.diagnostic(`error: ${message}`);
    }
}
