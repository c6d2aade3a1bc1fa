// up and preview: the program registers resources and each registration becomes a step, as the
// CLI's step generator decides it (check -> diff -> create | update | replace | same). As there,
// Check and Diff run one resource at a time; the provider operations that follow run in parallel.
import { randomUUID } from "crypto";

import type { ProgramHandler, Registration, RegistrationResult } from "./monitor";
import { applyIgnoreChanges, deepEqual, PropertyMap, UNKNOWN } from "./properties";
import { ResourceInitError, ResourceProvider } from "./provider-host";
import { DYNAMIC_PACKAGE } from "./providers";
import { RANDOM_PACKAGE } from "./random-provider";
import {
    dependencyUrns,
    deleteInDependencyOrder,
    diffResource,
    failStep,
    hostFor,
    isManagedByHost,
    Limit,
    RunContext,
    withSecretOutputs,
} from "./operations";
import { resourceLabel } from "./report";
import type { OperationType, ResourceState } from "./state";
import { makeUrn, PROVIDER_TYPE_PREFIX, providerReference, referencedProviderUrn, typePackage } from "./urn";

/** What the step generator decided for a registration; `next` carries the checked inputs. */
type Plan =
    | { kind: "create"; next: ResourceState }
    | { kind: "same" | "update"; next: ResourceState; old: ResourceState }
    /** `dependents`: for delete before replace, what goes first, in dependency order. */
    | { kind: "replace"; next: ResourceState; old: ResourceState; dependents?: ResourceState[] };

function result(state: ResourceState): RegistrationResult {
    return { urn: state.urn, id: state.id, outputs: state.outputs };
}

export class ProgramDeployment implements ProgramHandler {
    private readonly registeredUrns = new Set<string>();
    /** Old objects deleted ahead of the replacement of a resource they depend on, to be registered again. */
    private readonly deletedForReplacement = new Set<string>();
    private readonly inFlight = new Set<Promise<unknown>>();
    /** Check and Diff, one resource at a time. */
    private readonly generator = new Limit(1);
    /** References of the default providers registered in this run, by package and version. */
    private readonly defaultProviderReferences = new Map<string, string>();
    private stepFailed = false;
    private signalFailure!: () => void;
    /** Resolves at the first failed step. */
    readonly failed = new Promise<void>((resolve) => (this.signalFailure = resolve));

    constructor(
        private readonly context: RunContext,
        /** The default provider of a package and version, as the current configuration makes it. */
        private readonly defaultProvider: (pkg: string, version: string) => ResourceState,
    ) {}

    get hasFailed(): boolean {
        return this.stepFailed;
    }

    async registerResource(registration: Registration): Promise<RegistrationResult> {
        if (this.stepFailed) throw new Error("the deployment stopped after an earlier failure");
        const urn = makeUrn(
            this.context.stack,
            this.context.project,
            registration.parent,
            registration.type,
            registration.name,
        );
        const step = this.step(urn, registration);
        this.inFlight.add(step);
        try {
            return await step;
        } catch (e) {
            const error = failStep(this.context, urn, e);
            if (!this.stepFailed) {
                this.stepFailed = true;
                this.signalFailure();
            }
            throw error;
        } finally {
            this.inFlight.delete(step);
        }
    }

    registerResourceOutputs(urn: string, outputs: PropertyMap): void {
        const resource = this.context.snapshot.current(urn);
        if (resource && this.registeredUrns.has(urn)) this.context.snapshot.replace(resource, { ...resource, outputs });
    }

    /** Waits for the steps under way. */
    async settle(): Promise<void> {
        await Promise.allSettled([...this.inFlight]);
    }

    /** After the program succeeded: deletes what it no longer declares, and replaced objects. */
    async deleteUndeclared(): Promise<void> {
        await deleteInDependencyOrder(this.context, this.context.snapshot.leftOver());
    }

    private async step(urn: string, registration: Registration): Promise<RegistrationResult> {
        if (registration.unsupportedOptions.length > 0) {
            throw new Error(`${registration.unsupportedOptions.join(", ")}: unsupported by the test engine`);
        }
        if (this.registeredUrns.has(urn)) throw new Error(`duplicate resource URN ${urn}`);
        this.registeredUrns.add(urn);
        const old = this.context.snapshot.previous([urn, ...registration.aliasUrns]);
        const base: ResourceState = {
            urn,
            type: registration.type,
            custom: registration.custom,
            id: "",
            parent: registration.parent,
            inputs: registration.inputs,
            outputs: {},
            dependencies: registration.dependencies,
            ...(Object.keys(registration.propertyDependencies).length > 0
                ? { propertyDependencies: registration.propertyDependencies }
                : {}),
            ...(registration.provider ? { provider: registration.provider } : {}),
            ...(registration.protect ? { protect: true } : {}),
            ...(registration.retainOnDelete ? { retainOnDelete: true } : {}),
            ...(registration.ignoreChanges.length > 0 ? { ignoreChanges: registration.ignoreChanges } : {}),
            ...(registration.additionalSecretOutputs.length > 0
                ? { additionalSecretOutputs: registration.additionalSecretOutputs }
                : {}),
        };
        if (!registration.custom) return result(this.registerWithoutProvider(base, old, old?.outputs ?? {}));
        if (registration.type.startsWith(PROVIDER_TYPE_PREFIX)) {
            if (registration.type !== `${PROVIDER_TYPE_PREFIX}${DYNAMIC_PACKAGE}`) {
                throw new Error(`provider type ${registration.type} is unsupported by the test engine`);
            }
            return result(this.registerWithoutProvider(base, old, registration.inputs));
        }
        const pkg = typePackage(registration.type);
        if (pkg !== DYNAMIC_PACKAGE && pkg !== RANDOM_PACKAGE) {
            throw new Error(
                `resource type ${registration.type} is unsupported by the test engine (only dynamic resources, ${DYNAMIC_PACKAGE}, and ${RANDOM_PACKAGE} on its stand-in)`,
            );
        }
        const provider = registration.provider || this.registerDefaultProvider(pkg, registration.version);
        return this.registerWithProvider({ ...base, provider }, old, registration);
    }

    /**
     * Components, the stack and provider resources: no provider call; same when the inputs are
     * unchanged, else update. A new provider resource gets a fresh id, as the engine gives one.
     */
    private registerWithoutProvider(base: ResourceState, old: ResourceState | undefined, outputs: PropertyMap): ResourceState {
        const id = old?.id ?? (base.custom && !this.context.preview ? randomUUID() : "");
        const state = this.record({ ...base, id, outputs }, old);
        this.context.report.step(!old ? "create" : deepEqual(old.inputs, base.inputs) ? "same" : "update", base.urn, { old, next: state });
        return state;
    }

    /**
     * As the CLI, a package's default provider (one per version requested) is registered when the
     * first resource needs it; returns its reference.
     */
    private registerDefaultProvider(pkg: string, version: string): string {
        const key = `${pkg}@${version}`;
        let reference = this.defaultProviderReferences.get(key);
        if (!reference) {
            const provider = this.defaultProvider(pkg, version);
            this.registeredUrns.add(provider.urn);
            const state = this.registerWithoutProvider(provider, this.context.snapshot.previous([provider.urn]), provider.inputs);
            reference = providerReference(provider.urn, state.id);
            this.defaultProviderReferences.set(key, reference);
        }
        return reference;
    }

    private async registerWithProvider(
        base: ResourceState,
        old: ResourceState | undefined,
        registration: Registration,
    ): Promise<RegistrationResult> {
        const host = await hostFor(this.context, base);
        const plan = await this.generator.run(() => this.plan(host, base, old, registration));
        return this.context.limit.run(() => this.execute(host, plan));
    }

    /** The step generator's decision for one registration (continueStepsFromImport, continueStepsFromDiff). */
    private async plan(
        host: ResourceProvider,
        base: ResourceState,
        old: ResourceState | undefined,
        registration: Registration,
    ): Promise<Plan> {
        // A new object is checked without old inputs, and so is one deleted earlier in this run ahead
        // of a replacement (its old state awaits the replacement).
        const recreating = this.deletedForReplacement.delete(base.urn);
        if (!old || recreating) {
            const next = await this.check(host, base, {}, registration.inputs);
            return old ? { kind: "replace", next, old } : { kind: "create", next };
        }
        const news = applyIgnoreChanges(registration.inputs, old.inputs, registration.ignoreChanges);
        const checked = await this.check(host, base, old.inputs, news);
        const diff = await diffResource(host, old, checked.inputs, registration.ignoreChanges);
        if (!old.pendingReplacement && !(diff.changed && diff.replaces.length > 0)) {
            // An object that failed to initialize is updated again, changes or not.
            return { kind: diff.changed || old.initErrors ? "update" : "same", next: checked, old };
        }
        // Unprotecting and replacing in one run is allowed: only a resource protected before and
        // after is refused.
        if (old.protect && registration.protect) throw new Error("the resource is protected; unprotect it before replacing it");
        // The replacement is checked again without the old inputs, as a new object.
        const next = await this.check(host, base, {}, registration.inputs);
        if (!(registration.deleteBeforeReplace ?? diff.deleteBeforeReplace)) return { kind: "replace", next, old };
        const dependents = await this.dependentsToReplace(old);
        for (const dependent of dependents) this.deletedForReplacement.add(dependent.urn);
        return { kind: "replace", next, old, dependents };
    }

    private async check(host: ResourceProvider, base: ResourceState, olds: PropertyMap, news: PropertyMap): Promise<ResourceState> {
        const checked = await host.check(base.urn, olds, news);
        if (checked.failures.length > 0) {
            // A failure without a property is about the whole resource (the CLI's "has a problem").
            throw new Error(`invalid inputs: ${checked.failures.map((f) => (f.property ? `${f.property}: ${f.reason}` : f.reason)).join("; ")}`);
        }
        return { ...base, inputs: checked.inputs };
    }

    /**
     * The old resources that delete before replace must delete first, as the CLI's
     * calculateDependentReplacements finds them: dependents of `root` in state order, not registered
     * yet in this run, whose provider's diff asks for a replacement once the inputs they take from a
     * resource being replaced are unknown. In dependency order.
     */
    private async dependentsToReplace(root: ResourceState): Promise<ResourceState[]> {
        const { base } = this.context.snapshot;
        const dependents = new Set([root.urn]);
        const replacing = new Set([root.urn]);
        const found: ResourceState[] = [];
        for (const candidate of base.slice(base.findIndex((r) => r.urn === root.urn && !r.delete) + 1)) {
            if (this.registeredUrns.has(candidate.urn) || this.deletedForReplacement.has(candidate.urn)) continue;
            if (!dependencyUrns(candidate, false).some((urn) => dependents.has(urn))) continue;
            dependents.add(candidate.urn);
            if (!(await this.mustBeReplacedWith(candidate, replacing))) continue;
            if (candidate.protect) {
                throw new Error(`${resourceLabel(candidate.urn)} would have to be replaced with it but is protected`);
            }
            replacing.add(candidate.urn);
            found.push(candidate);
        }
        return found;
    }

    /** requiresReplacement of calculateDependentReplacements. */
    private async mustBeReplacedWith(resource: ResourceState, replacing: ReadonlySet<string>): Promise<boolean> {
        if (!isManagedByHost(resource)) return false;
        if (resource.provider && replacing.has(referencedProviderUrn(resource.provider))) return true;
        const affected = Object.keys(resource.inputs).filter((key) =>
            (resource.propertyDependencies?.[key] ?? []).some((urn) => replacing.has(urn)),
        );
        if (affected.length === 0) return false;
        const inputs = { ...resource.inputs, ...Object.fromEntries(affected.map((key) => [key, UNKNOWN])) };
        const host = await hostFor(this.context, resource);
        return (await diffResource(host, resource, inputs, resource.ignoreChanges ?? [])).replaces.length > 0;
    }

    private async execute(host: ResourceProvider, plan: Plan): Promise<RegistrationResult> {
        const { urn } = plan.next;
        switch (plan.kind) {
            case "create": {
                const created = await this.create(host, plan.next);
                this.context.report.step("create", urn, { next: plan.next });
                return created;
            }
            case "same": {
                const state = this.record({ ...plan.next, id: plan.old.id, outputs: plan.old.outputs }, plan.old);
                this.context.report.step("same", urn, { old: plan.old, next: state });
                return result(state);
            }
            case "update": {
                const { old, next } = plan;
                const updated = await this.apply(next, old, old, async () => ({
                    id: old.id,
                    outputs: await host.update(old, next.inputs, next.ignoreChanges ?? []),
                }));
                this.context.report.step("update", urn, { old, next });
                return updated;
            }
            case "replace": {
                const replaced = await this.replace(host, plan);
                this.context.report.step("replace", urn, { old: plan.old, next: plan.next });
                return replaced;
            }
        }
    }

    /**
     * Create before delete: the new object first, the old one deleted after the program (so its
     * dependents are updated first). Delete before replace: the dependents that must be replaced
     * with it go first, then the old object; the program registers those dependents again later.
     * An old object already deleted for its replacement only leaves the state once that exists.
     */
    private async replace(
        host: ResourceProvider,
        { next, old, dependents }: Extract<Plan, { kind: "replace" }>,
    ): Promise<RegistrationResult> {
        for (const dependent of [...(dependents ?? [])].reverse()) await this.deleteAhead(dependent);
        if (old.pendingReplacement) return this.create(host, next, old);
        if (dependents) return this.create(host, next, await this.deleteAhead(old));
        const created = await this.create(host, next);
        this.context.snapshot.deleteLater(old);
        return created;
    }

    /** Deletes an old object ahead of its replacement; it stays in the state, marked, until the replacement exists. */
    private async deleteAhead(resource: ResourceState): Promise<ResourceState> {
        if (!this.context.preview && !resource.retainOnDelete && !resource.pendingReplacement) {
            const host = await hostFor(this.context, resource);
            return this.context.snapshot.pending("deleting", resource, async (complete) => {
                await host.delete(resource);
                complete();
                return this.context.snapshot.markPendingReplacement(resource);
            });
        }
        return this.context.snapshot.markPendingReplacement(resource);
    }

    /** A create; `superseded` is an old object already deleted for this replacement, dropped once it exists. */
    private create(host: ResourceProvider, next: ResourceState, superseded?: ResourceState): Promise<RegistrationResult> {
        return this.apply(next, superseded, undefined, () => host.create(next.urn, next.inputs));
    }

    /**
     * Runs a create, or an update of `updated`, and records what it made in place of `superseded`;
     * preview records the checked inputs instead. An object the provider made but failed to
     * initialize is recorded, with the reasons as init errors, before the error goes on; for an
     * update it keeps its old inputs, as in the CLI, so that the next up tries again.
     */
    private async apply(
        next: ResourceState,
        superseded: ResourceState | undefined,
        updated: ResourceState | undefined,
        operation: () => Promise<{ id: string; outputs: PropertyMap }>,
    ): Promise<RegistrationResult> {
        // In preview a new object's id stays unknown.
        if (this.context.preview) {
            return result(this.record({ ...next, id: updated?.id ?? "", outputs: next.inputs }, superseded));
        }
        const [type, begun]: [OperationType, ResourceState] = updated ? ["updating", { ...next, id: updated.id }] : ["creating", next];
        return this.context.snapshot.pending(type, begun, async (complete) => {
            try {
                const { id, outputs } = await operation();
                complete();
                return result(this.record({ ...next, id, outputs }, superseded));
            } catch (e) {
                if (e instanceof ResourceInitError) {
                    const partial: ResourceState = {
                        ...next,
                        id: updated?.id ?? e.id,
                        inputs: updated?.inputs ?? next.inputs,
                        outputs: e.outputs,
                        ...(e.reasons.length > 0 ? { initErrors: e.reasons } : {}),
                    };
                    complete();
                    this.record(partial, superseded);
                }
                throw e;
            }
        });
    }

    /** Records a step's new state, its outputs marked secret as the CLI marks every step's. */
    private record(state: ResourceState, superseded: ResourceState | undefined): ResourceState {
        const marked = withSecretOutputs(state);
        this.context.snapshot.record(marked, superseded);
        return marked;
    }
}
