// The JSON state file and the snapshot a deployment builds up while it runs.
import * as fs from "fs";
import * as path from "path";

import { fromCheckpoint, PropertyMap, toCheckpoint } from "./properties";

export const STATE_VERSION = 1;

export interface ResourceState {
    urn: string;
    type: string;
    custom: boolean;
    /** "" for components and the stack. */
    id: string;
    /** URN of the parent, "" for the stack. */
    parent: string;
    inputs: PropertyMap;
    outputs: PropertyMap;
    dependencies: string[];
    propertyDependencies?: Record<string, string[]>;
    /** Provider reference "<provider urn>::<provider id>" of a custom resource (the default provider's too). */
    provider?: string;
    protect?: boolean;
    retainOnDelete?: boolean;
    /** Options kept for later steps: refresh diffs with ignoreChanges and marks additionalSecretOutputs. */
    ignoreChanges?: string[];
    additionalSecretOutputs?: string[];
    /** Why the object failed to initialize (ErrorResourceInitFailed reasons): the next up updates it again. */
    initErrors?: string[];
    /** Replaced (create before delete) but not deleted yet: the next deployment deletes it. */
    delete?: boolean;
    /** Deleted ahead of its replacement (delete before replace), which has not been created yet. */
    pendingReplacement?: boolean;
}

/** The CLI's operation types (pkg/resource/operation.go); "importing" is what `refresh --import-pending-creates` makes of a pending create. */
export type OperationType = "creating" | "updating" | "deleting" | "importing";

/**
 * An operation begun but not finished, as the checkpoint's `pending_operations` holds it
 * (apitype.OperationV2): the state the engine began it with (a create's has no id yet).
 */
export interface PendingOperation {
    resource: ResourceState;
    type: OperationType;
}

/** What a state file holds for a stack. */
export interface StackState {
    resources: ResourceState[];
    pendingOperations: PendingOperation[];
}

interface StateFile {
    version: number;
    stack: string;
    project: string;
    resources: ResourceState[];
    pending_operations?: PendingOperation[];
}

const fromStoredResource = (r: ResourceState): ResourceState => ({
    ...r,
    inputs: fromCheckpoint(r.inputs) as PropertyMap,
    outputs: fromCheckpoint(r.outputs) as PropertyMap,
});

const toStoredResource = (r: ResourceState): ResourceState => ({
    ...r,
    inputs: toCheckpoint(r.inputs) as PropertyMap,
    outputs: toCheckpoint(r.outputs) as PropertyMap,
});

export function readState(file: string, stack: string, project: string): StackState {
    if (!fs.existsSync(file)) return { resources: [], pendingOperations: [] };
    const state = JSON.parse(fs.readFileSync(file, "utf8")) as StateFile;
    if (state.version !== STATE_VERSION) {
        throw new Error(`${file}: unsupported state version ${state.version} (expected ${STATE_VERSION})`);
    }
    const pending = state.pending_operations ?? [];
    if (state.resources.length + pending.length > 0 && (state.stack !== stack || state.project !== project)) {
        throw new Error(`${file} holds stack ${state.project}/${state.stack}, not ${project}/${stack}`);
    }
    return {
        resources: state.resources.map(fromStoredResource),
        pendingOperations: pending.map((op) => ({ ...op, resource: fromStoredResource(op.resource) })),
    };
}

/** Writes through a temporary file and a rename, so a reader never sees half a state. */
export function writeState(file: string, stack: string, project: string, { resources, pendingOperations }: StackState): void {
    const state: StateFile = {
        version: STATE_VERSION,
        stack,
        project,
        resources: resources.map(toStoredResource),
        // As the checkpoint, the member appears only when there are operations.
        ...(pendingOperations.length > 0
            ? { pending_operations: pendingOperations.map((op) => ({ ...op, resource: toStoredResource(op.resource) })) }
            : {}),
    };
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
    fs.writeFileSync(temp, JSON.stringify(state, null, 2) + "\n");
    fs.renameSync(temp, file);
}

/**
 * The state while a deployment runs: resources done in this run (in the order they were done,
 * which is dependency order), then old resources not reached yet, then replaced ones awaiting
 * deletion; and the operations under way. Every change is persisted at once, so a failure keeps
 * what succeeded before it, and a kill leaves the operations it interrupted in the state.
 */
export class Snapshot {
    private readonly done: ResourceState[] = [];
    private readonly untouched: ResourceState[];
    private readonly pendingDeletes: ResourceState[];
    private readonly running: PendingOperation[] = [];
    /**
     * Pending creates of earlier runs, kept as the CLI's snapshot manager keeps them (they need the
     * user to clear or import them); its other pending operations are dropped at the first write.
     */
    private readonly interruptedCreates: PendingOperation[];

    constructor(
        /** The state the run started from, in its (dependency) order. */
        readonly base: readonly ResourceState[],
        /** The operations earlier runs left pending. */
        basePendingOperations: readonly PendingOperation[],
        private readonly persist: (state: StackState) => void,
    ) {
        this.untouched = base.filter((r) => !r.delete);
        this.pendingDeletes = base.filter((r) => r.delete);
        this.interruptedCreates = basePendingOperations.filter((op) => op.type === "creating");
    }

    /**
     * Runs a provider operation recorded as pending in the state from before the call until it
     * ends (the CLI's markOperationPending and markOperationComplete). `operation` calls
     * `complete` just before it records the outcome, so that one write both records it and ends
     * the pending operation; one that fails without recording anything ends it on its own write.
     */
    async pending<T>(type: OperationType, resource: ResourceState, operation: (complete: () => void) => Promise<T>): Promise<T> {
        const pending = { resource, type };
        const complete = () => {
            const index = this.running.indexOf(pending);
            if (index >= 0) this.running.splice(index, 1);
        };
        this.running.push(pending);
        this.save();
        try {
            return await operation(complete);
        } finally {
            if (this.running.includes(pending)) {
                complete();
                this.save();
            }
        }
    }

    /** Old resources this run has not registered (yet), then replaced ones awaiting deletion. */
    leftOver(): ResourceState[] {
        return [...this.untouched, ...this.pendingDeletes];
    }

    /** The old state of a resource being registered, found by its URN or one of its aliases. */
    previous(urns: readonly string[]): ResourceState | undefined {
        return this.untouched.find((r) => urns.includes(r.urn));
    }

    /** The live state of a URN: as registered in this run, else as found in the old state. */
    current(urn: string): ResourceState | undefined {
        return this.done.find((r) => r.urn === urn) ?? this.untouched.find((r) => r.urn === urn);
    }

    /** A resource is done in this run; `replacing` is the old state it supersedes. */
    record(resource: ResourceState, replacing?: ResourceState): void {
        this.remove(replacing);
        this.done.push(resource);
        this.save();
    }

    /** A replaced resource stays in the state, marked, until its deletion succeeds. */
    deleteLater(resource: ResourceState): ResourceState {
        this.remove(resource);
        const pending = { ...resource, delete: true };
        this.pendingDeletes.push(pending);
        this.save();
        return pending;
    }

    /** An object deleted ahead of its replacement stays in the state, marked, until the replacement exists. */
    markPendingReplacement(resource: ResourceState): ResourceState {
        const pending = { ...resource, pendingReplacement: true };
        this.replace(resource, pending);
        return pending;
    }

    /** Drops a resource once it is gone. */
    forget(resource: ResourceState): void {
        this.remove(resource);
        this.save();
    }

    /** Replaces a resource in place (refresh, outputs registered later). */
    replace(before: ResourceState, after: ResourceState): void {
        for (const list of [this.done, this.untouched, this.pendingDeletes]) {
            const index = list.indexOf(before);
            if (index >= 0) list[index] = after;
        }
        this.save();
    }

    resources(): ResourceState[] {
        return [...this.done, ...this.leftOver()];
    }

    /**
     * After a refresh dropped resources, as the CLI rebuilds its base state: references to URNs no
     * longer present earlier in the state are removed from dependencies and property dependencies,
     * and a parent that is gone is cleared (the CLI's undangleParentResources).
     */
    dropDanglingReferences(): void {
        const present = new Set<string>();
        for (const list of [this.done, this.untouched, this.pendingDeletes]) {
            list.forEach((resource, index) => {
                const repaired: ResourceState = {
                    ...resource,
                    parent: present.has(resource.parent) ? resource.parent : "",
                    dependencies: resource.dependencies.filter((urn) => present.has(urn)),
                };
                const propertyDependencies = Object.entries(resource.propertyDependencies ?? {})
                    .map(([key, urns]): [string, string[]] => [key, urns.filter((urn) => present.has(urn))])
                    .filter(([, urns]) => urns.length > 0);
                delete repaired.propertyDependencies;
                if (propertyDependencies.length > 0) repaired.propertyDependencies = Object.fromEntries(propertyDependencies);
                list[index] = repaired;
                present.add(resource.urn);
            });
        }
        this.save();
    }

    private remove(resource: ResourceState | undefined): void {
        if (!resource) return;
        for (const list of [this.done, this.untouched, this.pendingDeletes]) {
            const index = list.indexOf(resource);
            if (index >= 0) list.splice(index, 1);
        }
    }

    private save(): void {
        this.persist({ resources: this.resources(), pendingOperations: [...this.running, ...this.interruptedCreates] });
    }
}
