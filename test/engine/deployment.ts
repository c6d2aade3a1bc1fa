// up and preview: the program registers resources and each registration becomes a step, as the
// engine's step generator decides it (check -> diff -> create | update | replace | same).
import { randomUUID } from "crypto";

import type { ProgramHandler, Registration, RegistrationResult } from "./monitor";
import { applyIgnoreChanges, deepEqual, markSecretKeys, PropertyMap } from "./properties";
import { ProviderHost, ResourceInitError } from "./provider-host";
import { DYNAMIC_PACKAGE } from "./providers";
import { deleteInDependencyOrder, failStep, hostFor, RunContext } from "./operations";
import type { ResourceState } from "./state";
import { makeUrn, PROVIDER_TYPE_PREFIX, typePackage } from "./urn";

type Decision = { kind: "same" } | { kind: "update" } | { kind: "replace"; deleteBeforeReplace: boolean };

export class ProgramDeployment implements ProgramHandler {
    private readonly registeredUrns = new Set<string>();
    private readonly inFlight = new Set<Promise<unknown>>();
    /** Old states superseded by a create-before-delete replacement, deleted after the program. */
    private readonly replaced = new Set<ResourceState>();
    private stepFailed = false;
    private signalFailure!: () => void;
    /** Resolves at the first failed step. */
    readonly failed = new Promise<void>((resolve) => (this.signalFailure = resolve));

    constructor(private readonly context: RunContext) {}

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

    /** After the program succeeded: deletes what it no longer declares, and replaced resources. */
    async deleteUndeclared(): Promise<void> {
        await deleteInDependencyOrder(this.context, this.context.snapshot.leftOver(), this.replaced);
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
        };
        if (!registration.custom) return this.registerWithoutProvider(base, old, old?.outputs ?? {});
        if (registration.type.startsWith(PROVIDER_TYPE_PREFIX)) {
            if (registration.type !== `${PROVIDER_TYPE_PREFIX}${DYNAMIC_PACKAGE}`) {
                throw new Error(`provider type ${registration.type} is unsupported by the test engine`);
            }
            return this.registerWithoutProvider(base, old, registration.inputs);
        }
        if (typePackage(registration.type) !== DYNAMIC_PACKAGE) {
            throw new Error(
                `resource type ${registration.type} is unsupported by the test engine (only dynamic resources, ${DYNAMIC_PACKAGE})`,
            );
        }
        return this.context.limit.run(() => this.registerDynamic(base, old, registration));
    }

    /**
     * Components, the stack and provider resources: no provider call; same when the inputs are
     * unchanged, else update. A new provider resource gets a fresh id, as the engine gives one.
     */
    private registerWithoutProvider(
        base: ResourceState,
        old: ResourceState | undefined,
        outputs: PropertyMap,
    ): RegistrationResult {
        const id = old?.id ?? (base.custom && !this.context.preview ? randomUUID() : "");
        const state = { ...base, id, outputs };
        this.context.snapshot.record(state, old);
        this.context.report.step(!old ? "create" : deepEqual(old.inputs, base.inputs) ? "same" : "update", base.urn);
        return { urn: base.urn, id, outputs };
    }

    private async registerDynamic(
        base: ResourceState,
        old: ResourceState | undefined,
        registration: Registration,
    ): Promise<RegistrationResult> {
        const { urn } = base;
        const host = await hostFor(this.context, registration.provider);
        const news = old ? applyIgnoreChanges(registration.inputs, old.inputs, registration.ignoreChanges) : registration.inputs;
        const checked = await host.check(urn, old?.inputs ?? {}, news);
        if (checked.failures.length > 0) {
            throw new Error(`invalid inputs: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
        }
        const next: ResourceState = { ...base, inputs: checked.inputs };
        if (!old) {
            const created = await this.create(host, next, registration);
            this.context.report.step("create", urn);
            return created;
        }
        const decision = await this.decide(host, old, next, registration);
        switch (decision.kind) {
            case "same": {
                this.context.snapshot.record({ ...next, id: old.id, outputs: old.outputs }, old);
                this.context.report.step("same", urn);
                return { urn, id: old.id, outputs: old.outputs };
            }
            case "update": {
                const updated = await this.update(host, old, next, registration);
                this.context.report.step("update", urn);
                return updated;
            }
            case "replace": {
                const replaced = await this.replace(host, old, next, registration, decision.deleteBeforeReplace);
                this.context.report.step("replace", urn);
                return replaced;
            }
        }
    }

    /** The provider's diff; when it cannot tell (DIFF_UNKNOWN), old and new inputs are compared. */
    private async decide(
        host: ProviderHost,
        old: ResourceState,
        next: ResourceState,
        registration: Registration,
    ): Promise<Decision> {
        const diff = await host.diff(old, next.inputs, registration.ignoreChanges);
        const changed = diff.changes === "unknown" ? !deepEqual(old.inputs, next.inputs) : diff.changes === "some";
        if (!changed) return { kind: "same" };
        if (diff.replaces.length === 0) return { kind: "update" };
        return { kind: "replace", deleteBeforeReplace: registration.deleteBeforeReplace ?? diff.deleteBeforeReplace };
    }

    private create(host: ProviderHost, next: ResourceState, registration: Registration): Promise<RegistrationResult> {
        return this.apply(next, undefined, registration, () => host.create(next.urn, next.inputs));
    }

    private update(
        host: ProviderHost,
        old: ResourceState,
        next: ResourceState,
        registration: Registration,
    ): Promise<RegistrationResult> {
        return this.apply(next, old, registration, async () => ({
            id: old.id,
            outputs: await host.update(old, next.inputs, registration.ignoreChanges),
        }));
    }

    /**
     * Records what a create (no `old`) or an update made; preview records the checked inputs
     * instead. An object the provider made but failed to initialize is recorded before the error
     * goes on.
     */
    private async apply(
        next: ResourceState,
        old: ResourceState | undefined,
        registration: Registration,
        operation: () => Promise<{ id: string; outputs: PropertyMap }>,
    ): Promise<RegistrationResult> {
        if (this.context.preview) return this.recordPreview(next, old?.id ?? "", old);
        try {
            const { id, outputs } = await operation();
            return this.recordApplied(next, id, outputs, registration, old);
        } catch (e) {
            // An updated object keeps its id.
            if (e instanceof ResourceInitError) this.recordApplied(next, old?.id ?? e.id, e.outputs, registration, old);
            throw e;
        }
    }

    /**
     * Create before delete: the new object first, the old one deleted after the program (so its
     * dependents are updated first). Delete before replace: the old object goes first.
     */
    private async replace(
        host: ProviderHost,
        old: ResourceState,
        next: ResourceState,
        registration: Registration,
        deleteBeforeReplace: boolean,
    ): Promise<RegistrationResult> {
        if (old.protect) throw new Error("the resource is protected; unprotect it before replacing it");
        if (deleteBeforeReplace) {
            if (!this.context.preview && !old.retainOnDelete) {
                const oldHost = await hostFor(this.context, old.provider);
                await oldHost.delete(old);
            }
            this.context.snapshot.forget(old);
            return this.create(host, next, registration);
        }
        const created = await this.create(host, next, registration);
        this.replaced.add(this.context.snapshot.deleteLater(old));
        return created;
    }

    private recordApplied(
        next: ResourceState,
        id: string,
        outputs: PropertyMap,
        registration: Registration,
        old: ResourceState | undefined,
    ): RegistrationResult {
        const secretOutputs = markSecretKeys(outputs, registration.additionalSecretOutputs);
        this.context.snapshot.record({ ...next, id, outputs: secretOutputs }, old);
        return { urn: next.urn, id, outputs: secretOutputs };
    }

    /** Preview answers with the checked inputs as outputs; a new resource's id stays unknown. */
    private recordPreview(next: ResourceState, id: string, old: ResourceState | undefined): RegistrationResult {
        this.context.snapshot.record({ ...next, id, outputs: next.inputs }, old);
        return { urn: next.urn, id, outputs: next.inputs };
    }
}
