// What every operation of a run shares, and the steps that do not depend on a program:
// dependency-ordered deletion (up, destroy), refresh, and the provider diff they all use.
import { applyIgnoreChanges, deepEqual, markSecretOutputs, PropertyMap, revealAll } from "./properties";
import type { ExistingObject, ResourceProvider } from "./provider-host";
import type { ProviderRegistry } from "./providers";
import { Report, resourceLabel } from "./report";
import type { ResourceState, Snapshot } from "./state";
import { PROVIDER_TYPE_PREFIX, referencedProviderUrn } from "./urn";

/** Bounds how many provider operations run at once (--parallel). */
export class Limit {
    private running = 0;
    private readonly waiting: (() => void)[] = [];

    constructor(private readonly size: number) {}

    async run<T>(operation: () => Promise<T>): Promise<T> {
        if (this.running < this.size) this.running++;
        else await new Promise<void>((resolve) => this.waiting.push(resolve));
        try {
            return await operation();
        } finally {
            // A finished operation hands its slot straight to the next in line.
            const next = this.waiting.shift();
            if (next) next();
            else this.running--;
        }
    }
}

export interface RunContext {
    stack: string;
    project: string;
    /** Preview: call only Check and Diff, change nothing. */
    preview: boolean;
    snapshot: Snapshot;
    providers: ProviderRegistry;
    report: Report;
    limit: Limit;
}

/** A failed step, already reported (as "<type> <name>: <reason>") when it was made. */
export class StepError extends Error {}

export function failStep(context: RunContext, urn: string, cause: unknown): StepError {
    const error = new StepError(`${resourceLabel(urn)}: ${errorMessage(cause)}`);
    context.report.error(error.message);
    return error;
}

export function errorMessage(e: unknown): string {
    return e instanceof Error ? e.message : String(e);
}

/** Custom resources that a provider host manages (not components, not provider resources). */
export function isManagedByHost(resource: { custom: boolean; type: string }): boolean {
    return resource.custom && !resource.type.startsWith(PROVIDER_TYPE_PREFIX);
}

export function hostFor(context: RunContext, resource: Pick<ResourceState, "urn" | "provider">): Promise<ResourceProvider> {
    if (!resource.provider) return Promise.reject(new Error(`${resource.urn} has no provider`));
    return context.providers.get(resource.provider);
}

export interface Diff {
    changed: boolean;
    replaces: string[];
    deleteBeforeReplace: boolean;
}

/**
 * The CLI's diffResource: the provider's Diff of `target` (its inputs and outputs as the old side)
 * against `news`. When the provider cannot tell (DIFF_UNKNOWN), the inputs are compared with secrets
 * revealed and the ignoreChanges paths keeping their old values.
 */
export async function diffResource(
    host: ResourceProvider,
    target: ExistingObject,
    news: PropertyMap,
    ignoreChanges: readonly string[],
): Promise<Diff> {
    const diff = await host.diff(target, news, ignoreChanges);
    const changed =
        diff.changes === "unknown"
            ? !deepEqual(revealAll(target.inputs), revealAll(applyIgnoreChanges(news, target.inputs, ignoreChanges)))
            : diff.changes === "some";
    return { changed, replaces: diff.replaces, deleteBeforeReplace: diff.deleteBeforeReplace };
}

/** A step's new state with its outputs marked secret, as the CLI's step executor marks every step's. */
export function withSecretOutputs(state: ResourceState): ResourceState {
    return { ...state, outputs: markSecretOutputs(state.outputs, state.inputs, state.additionalSecretOutputs ?? []) };
}

/** The URNs a resource depends on: dependencies, property dependencies, its provider, and its parent if asked. */
export function dependencyUrns(resource: ResourceState, withParent: boolean): string[] {
    return [
        ...(withParent && resource.parent ? [resource.parent] : []),
        ...resource.dependencies,
        ...Object.values(resource.propertyDependencies ?? {}).flat(),
        ...(resource.provider ? [referencedProviderUrn(resource.provider)] : []),
    ];
}

/** Waits for all the steps, then throws the first that failed. */
async function throwFirstFailedStep(steps: Promise<void>[]): Promise<void> {
    const results = await Promise.allSettled(steps);
    // Steps not started after a failure reject with plain errors; the StepError is what was reported.
    const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected" && r.reason instanceof StepError);
    if (failure) throw failure.reason;
}

/** An object replaced earlier: awaiting deletion (create before delete) or already deleted (delete before replace). */
function isReplaced(resource: ResourceState): boolean {
    return !!resource.delete || !!resource.pendingReplacement;
}

/**
 * Deletes resources, each only after the ones among them that depend on it, as many at once as
 * the limit allows. After a failure no further deletion starts; once the running ones are done,
 * the first failure is thrown. Replaced objects print and count no step of their own, as in the CLI.
 */
export async function deleteInDependencyOrder(context: RunContext, doomed: readonly ResourceState[]): Promise<void> {
    const deletions = new Map<ResourceState, Promise<void>>();
    let stopped = false;
    const deleteAfterDependents = (resource: ResourceState): Promise<void> => {
        let deletion = deletions.get(resource);
        if (!deletion) {
            const dependents = doomed.filter(
                (other) => other !== resource && dependencyUrns(other, true).includes(resource.urn),
            );
            deletion = Promise.all(dependents.map(deleteAfterDependents)).then(() =>
                context.limit.run(async () => {
                    if (stopped) throw new Error("stopped after an earlier failure");
                    try {
                        await deleteResource(context, resource);
                    } catch (e) {
                        stopped = true;
                        throw failStep(context, resource.urn, e);
                    }
                    if (!isReplaced(resource)) context.report.step("delete", resource.urn, { old: resource });
                }),
            );
            deletions.set(resource, deletion);
        }
        return deletion;
    };
    await throwFirstFailedStep(doomed.map(deleteAfterDependents));
}

async function deleteResource(context: RunContext, resource: ResourceState): Promise<void> {
    // Protection of a replaced object was checked when it was replaced.
    if (resource.protect && !isReplaced(resource)) {
        throw new Error("the resource is protected; unprotect it before deleting it");
    }
    // An object deleted ahead of its replacement is gone already: it only leaves the state.
    if (isManagedByHost(resource) && !resource.retainOnDelete && !resource.pendingReplacement && !context.preview) {
        const host = await hostFor(context, resource);
        await context.snapshot.pending("deleting", resource, async (complete) => {
            await host.delete(resource);
            complete();
            context.snapshot.forget(resource);
        });
    } else {
        context.snapshot.forget(resource);
    }
}

/**
 * Reads every custom resource back from its provider, all reads running, then throws the first
 * failure. Whatever dropped resources leaves dangling is repaired, failures or not, as in the CLI.
 * `beforeUpdate`: the refresh `up --refresh` and `preview --refresh` run first (the CLI's
 * deploymentExecutor.refresh), whose steps are shown but not counted.
 */
export async function refreshAll(context: RunContext, beforeUpdate = false): Promise<void> {
    try {
        await throwFirstFailedStep(
            context.snapshot.resources().map((resource) =>
                context.limit.run(async () => {
                    // As the CLI's refresh step: components, providers and objects awaiting their
                    // replacement are not read.
                    if (!isManagedByHost(resource) || resource.pendingReplacement) {
                        if (beforeUpdate) context.report.refreshed(resource.urn, resource, resource);
                        else context.report.step("same", resource.urn);
                        return;
                    }
                    try {
                        await refreshResource(context, resource, beforeUpdate);
                    } catch (e) {
                        throw failStep(context, resource.urn, e);
                    }
                }),
            ),
        );
    } finally {
        context.snapshot.dropDanglingReferences();
    }
}

/**
 * A blank id means the object is gone: it leaves the state. Otherwise the state takes what was read,
 * and drift is what the provider's diff reports between that (old) and the stored inputs (new),
 * as in the CLI's RefreshStep.
 */
async function refreshResource(context: RunContext, resource: ResourceState, beforeUpdate: boolean): Promise<void> {
    const host = await hostFor(context, resource);
    const live = await host.read(resource);
    if (!live.id) {
        context.snapshot.forget(resource);
        if (beforeUpdate) context.report.refreshed(resource.urn, resource, undefined);
        else context.report.step("delete", resource.urn, { old: resource }, true);
        return;
    }
    const inputs = live.inputs ?? resource.inputs;
    const refreshed = withSecretOutputs({ ...resource, id: live.id, inputs, outputs: live.outputs });
    // A successful read clears the init errors.
    delete refreshed.initErrors;
    const diff = await diffResource(host, refreshed, resource.inputs, resource.ignoreChanges ?? []);
    context.snapshot.replace(resource, refreshed);
    if (beforeUpdate) context.report.refreshed(resource.urn, resource, refreshed);
    else context.report.step(diff.changed ? "update" : "same", resource.urn, { old: resource, next: refreshed }, true);
}
