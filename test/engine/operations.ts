// What every operation of a run shares, and the steps that do not depend on a program:
// dependency-ordered deletion (up, destroy) and refresh.
import { deepEqual, PropertyMap } from "./properties";
import type { ProviderHost } from "./provider-host";
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
function isManagedByHost(resource: { custom: boolean; type: string }): boolean {
    return resource.custom && !resource.type.startsWith(PROVIDER_TYPE_PREFIX);
}

export function hostFor(context: RunContext, providerReference: string | undefined): Promise<ProviderHost> {
    return context.providers.get(providerReference, (providerUrn) => {
        const provider = context.snapshot.current(providerUrn);
        if (!provider) throw new Error(`provider ${providerUrn} is not in the state`);
        return provider.inputs;
    });
}

/** Waits for all the steps, then throws the first that failed. */
async function throwFirstFailedStep(steps: Promise<void>[]): Promise<void> {
    const results = await Promise.allSettled(steps);
    // Steps not started after a failure reject with plain errors; the StepError is what was reported.
    const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected" && r.reason instanceof StepError);
    if (failure) throw failure.reason;
}

function dependsOn(dependent: ResourceState, resource: ResourceState): boolean {
    return (
        dependent.parent === resource.urn ||
        dependent.dependencies.includes(resource.urn) ||
        Object.values(dependent.propertyDependencies ?? {}).some((urns) => urns.includes(resource.urn)) ||
        (!!dependent.provider && referencedProviderUrn(dependent.provider) === resource.urn)
    );
}

/**
 * Deletes resources, each only after the ones among them that depend on it, as many at once as
 * the limit allows. After a failure no further deletion starts; once the running ones are done,
 * the first failure is thrown. `quiet` deletions (replaced resources) print no step of their own.
 */
export async function deleteInDependencyOrder(
    context: RunContext,
    doomed: readonly ResourceState[],
    quiet: ReadonlySet<ResourceState> = new Set(),
): Promise<void> {
    const deletions = new Map<ResourceState, Promise<void>>();
    let stopped = false;
    const deleteAfterDependents = (resource: ResourceState): Promise<void> => {
        let deletion = deletions.get(resource);
        if (!deletion) {
            const dependents = doomed.filter((other) => other !== resource && dependsOn(other, resource));
            deletion = Promise.all(dependents.map(deleteAfterDependents)).then(() =>
                context.limit.run(async () => {
                    if (stopped) throw new Error("stopped after an earlier failure");
                    try {
                        await deleteResource(context, resource);
                    } catch (e) {
                        stopped = true;
                        throw failStep(context, resource.urn, e);
                    }
                    if (!quiet.has(resource)) context.report.step("delete", resource.urn);
                }),
            );
            deletions.set(resource, deletion);
        }
        return deletion;
    };
    await throwFirstFailedStep(doomed.map(deleteAfterDependents));
}

async function deleteResource(context: RunContext, resource: ResourceState): Promise<void> {
    if (resource.protect) throw new Error("the resource is protected; unprotect it before deleting it");
    if (isManagedByHost(resource) && !resource.retainOnDelete && !context.preview) {
        const host = await hostFor(context, resource.provider);
        await host.delete(resource);
    }
    context.snapshot.forget(resource);
}

/**
 * Reads every custom resource back from its provider: a blank id means it is gone (dropped from
 * the state), different outputs or inputs are drift (an update). All reads run, then the first
 * failure is thrown.
 */
export async function refreshAll(context: RunContext): Promise<void> {
    await throwFirstFailedStep(
        context.snapshot.resources().map((resource) =>
            context.limit.run(async () => {
                if (!isManagedByHost(resource)) {
                    context.report.step("same", resource.urn);
                    return;
                }
                try {
                    await refreshResource(context, resource);
                } catch (e) {
                    throw failStep(context, resource.urn, e);
                }
            }),
        ),
    );
}

async function refreshResource(context: RunContext, resource: ResourceState): Promise<void> {
    const host = await hostFor(context, resource.provider);
    const live = await host.read(resource);
    if (!live.id) {
        context.snapshot.forget(resource);
        context.report.step("delete", resource.urn);
        return;
    }
    const inputs: PropertyMap = live.inputs ?? resource.inputs;
    if (live.id === resource.id && deepEqual(live.outputs, resource.outputs) && deepEqual(inputs, resource.inputs)) {
        context.report.step("same", resource.urn);
        return;
    }
    context.snapshot.replace(resource, { ...resource, id: live.id, outputs: live.outputs, inputs });
    context.report.step("update", resource.urn);
}
