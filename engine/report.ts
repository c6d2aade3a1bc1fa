// What a run shows: one line per resource step (or, with --diff, the step's property diff),
// diagnostics, and the step counts.
import { diffBlock, DisplayOp, shortDiff } from "./display";
import type { ResourceState } from "./state";
import { isDefaultProvider, urnName, urnType } from "./urn";

export type StepKind = "create" | "update" | "replace" | "delete" | "same";
export type StepCounts = Record<StepKind, number>;
export type OutputStream = "stdout" | "stderr";

const SYMBOLS: Record<StepKind, string> = { create: "+", update: "~", replace: "+-", delete: "-", same: "=" };

export function resourceLabel(urn: string): string {
    return `${urnType(urn)} ${urnName(urn)}`;
}

/** The states a step went between: none before a create, none after a delete. */
export interface StepStates {
    old?: ResourceState;
    next?: ResourceState;
}

const STACK_TYPE = "pulumi:pulumi:Stack";

export class Report {
    readonly steps: StepCounts = { create: 0, update: 0, replace: 0, delete: 0, same: 0 };
    /** Step lines and the summary (stdout). */
    readonly lines: string[] = [];
    /** Warnings, errors and the output of the program and of the provider hosts (stderr). */
    readonly diagnostics: string[] = [];

    /** The op and parent of each resource shown so far, for the indentation of --diff blocks. */
    private readonly seen = new Map<string, { op: DisplayOp; parent: string; type: string }>();

    constructor(
        private readonly onLine?: (stream: OutputStream, line: string) => void,
        /** --diff: a property-level block per step instead of a step line. */
        private readonly showDiff = false,
    ) {}

    /**
     * A step: "<symbol> <type> <name>", with "[diff: ...]" of the inputs for an update or replace
     * (a refresh's: from the state to what was read), as the CLI's rows; with --diff, its block.
     * `refresh` marks a step of a refresh, whose --diff block shows outputs.
     */
    step(kind: StepKind, urn: string, states: StepStates = {}, refresh = false): void {
        // The CLI neither shows nor counts the steps of default providers (internal steps).
        if (isDefaultProvider(urn)) return;
        this.steps[kind]++;
        this.show(kind, urn, states, refresh, `${SYMBOLS[kind]} ${resourceLabel(urn)}`);
    }

    /**
     * A refresh step of `up --refresh` or `preview --refresh`: shown ("refreshed", with what changed
     * in the inputs), never counted, as the CLI's refresh steps before an update are not logical steps.
     * `next` is missing when the object is gone.
     */
    refreshed(urn: string, old: ResourceState, next: ResourceState | undefined): void {
        if (isDefaultProvider(urn)) return;
        if (this.showDiff && !(next && shortDiff(old.outputs, next.outputs))) return;
        this.show("refresh", urn, { old, next }, true, `${SYMBOLS.update} ${resourceLabel(urn)} refreshed`);
    }

    private show(op: DisplayOp, urn: string, { old, next }: StepStates, refresh: boolean, line: string): void {
        const state = next ?? old;
        const parent = state?.parent ?? "";
        this.seen.set(urn, { op, parent, type: urnType(urn) });
        if (!this.showDiff) {
            const changes = old && next && (op === "update" || op === "replace" || op === "refresh") ? shortDiff(old.inputs, next.inputs) : "";
            this.out(changes ? `${line} ${changes}` : line);
            return;
        }
        const isRootStack = urnType(urn) === STACK_TYPE && !parent;
        if (op === "same" && !isRootStack) return;
        for (const text of diffBlock({ op, urn, type: urnType(urn), old, next, indent: this.indentOf(parent), refresh })) this.out(text);
    }

    /** getIndent: one level per ancestor shown (the root stack always is; unchanged resources are not). */
    private indentOf(parent: string): number {
        let indent = 0;
        for (let urn = parent; urn; ) {
            const ancestor = this.seen.get(urn);
            if (!ancestor) break;
            if ((ancestor.type === STACK_TYPE && !ancestor.parent) || ancestor.op !== "same") indent++;
            urn = ancestor.parent;
        }
        return indent;
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
