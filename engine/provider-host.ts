// The dynamic provider host (`cmd/dynamic-provider` of the program's SDK) and the calls the engine
// makes on it. Like the engine's provider plugin client, this layer reveals secrets to a host that
// does not accept them and carries their secretness back onto its answers.
import * as path from "path";

import type { ServiceError } from "@grpc/grpc-js";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";

import { ProcessGroup } from "./processes";
import { annotateSecrets, PropertyMap, revealAll } from "./properties";
import type { PulumiSdk } from "./sdk";
import type { ResourceState } from "./state";
import { urnName, urnType } from "./urn";

/** An error the provider answered with; its message is the provider's own. */
export class ProviderError extends Error {}

/** The provider created or updated the object but failed afterwards (ErrorResourceInitFailed). */
export class ResourceInitError extends ProviderError {
    constructor(
        message: string,
        readonly id: string,
        readonly outputs: PropertyMap,
        /** The provider's reasons, which the state keeps as the object's init errors. */
        readonly reasons: string[],
    ) {
        super(message);
    }
}

export type DiffChanges = "unknown" | "none" | "some";

export interface DiffResult {
    changes: DiffChanges;
    replaces: string[];
    deleteBeforeReplace: boolean;
}

export interface CheckFailure {
    property: string;
    reason: string;
}

/** An object the provider holds, as the state knows it. */
export type ExistingObject = Pick<ResourceState, "urn" | "id" | "inputs" | "outputs">;

type Struct = ReturnType<PulumiSdk["struct"]["Struct"]["fromJavaScript"]>;

interface ResourceRequest {
    setUrn(urn: string): unknown;
    setName(name: string): unknown;
    setType(type: string): unknown;
}

interface ExistingObjectRequest extends ResourceRequest {
    setId(id: string): unknown;
}

interface ChangeRequest extends ExistingObjectRequest {
    setOldInputs(inputs: Struct): unknown;
    setOlds(outputs: Struct): unknown;
    setNews(inputs: Struct): unknown;
    setIgnorechangesList(paths: string[]): unknown;
}

/** Every resource request names the resource by URN, name and type. */
function addressed<R extends ResourceRequest>(request: R, urn: string): R {
    request.setUrn(urn);
    request.setName(urnName(urn));
    request.setType(urnType(urn));
    return request;
}

/** A request about an object the provider holds names its id too. */
function existing<R extends ExistingObjectRequest>(request: R, old: ExistingObject): R {
    addressed(request, old.urn).setId(old.id);
    return request;
}

function unary<T>(invoke: (callback: (error: ServiceError | null, response: T) => void) => void): Promise<T> {
    return new Promise((resolve, reject) => invoke((error, response) => (error ? reject(error) : resolve(response))));
}

/** What the engine calls on a provider: a plugin host, or a stand-in the engine serves itself. */
export interface ResourceProvider {
    check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<{ inputs: PropertyMap; failures: CheckFailure[] }>;
    diff(old: ExistingObject, news: PropertyMap, ignoreChanges: readonly string[]): Promise<DiffResult>;
    create(urn: string, news: PropertyMap): Promise<{ id: string; outputs: PropertyMap }>;
    read(old: ExistingObject): Promise<{ id: string; outputs: PropertyMap; inputs?: PropertyMap }>;
    update(old: ExistingObject, news: PropertyMap, ignoreChanges: readonly string[]): Promise<PropertyMap>;
    delete(old: ExistingObject): Promise<void>;
}

export class ProviderHost implements ResourceProvider {
    private acceptsSecrets = false;

    private constructor(
        private readonly sdk: PulumiSdk,
        private readonly client: InstanceType<PulumiSdk["providerGrpc"]["ResourceProviderClient"]>,
    ) {}

    /** Starts a host; it answers on the port it prints as its first line. */
    static async start(
        sdk: PulumiSdk,
        processes: ProcessGroup,
        programDir: string,
        engineAddress: string,
        env: Record<string, string>,
        onLine: (line: string) => void,
    ): Promise<ProviderHost> {
        let announcePort: (port: string) => void;
        const port = new Promise<string>((resolve) => (announcePort = resolve));
        let announced = false;
        const startupErrors: string[] = [];
        const child = processes.spawn([path.join(sdk.dir, "cmd", "dynamic-provider"), engineAddress], {
            // The host require()s what the serialized provider requires from its working directory.
            cwd: programDir,
            env,
            onLine: (stream, line) => {
                if (stream === "stdout" && !announced) {
                    announced = true;
                    announcePort(line.trim());
                    return;
                }
                if (!announced) startupErrors.push(line);
                onLine(line);
            },
        });
        const started = await Promise.race([port, child.exited.then(() => undefined)]);
        if (started === undefined) {
            throw new Error(`the dynamic provider host exited before it started:\n${startupErrors.join("\n")}`);
        }
        const client = new sdk.providerGrpc.ResourceProviderClient(
            `127.0.0.1:${started}`,
            sdk.grpc.credentials.createInsecure(),
        );
        return new ProviderHost(sdk, client);
    }

    close(): void {
        this.client.close();
    }

    /** Configures the host as the CLI configures a provider: addressed to its resource, inputs with secrets kept. */
    async configure(provider: Pick<ResourceState, "urn" | "id" | "inputs">, variables: Record<string, string>): Promise<void> {
        const request = addressed(new this.sdk.provider.ConfigureRequest(), provider.urn);
        request.setId(provider.id);
        for (const [key, value] of Object.entries(variables)) request.getVariablesMap().set(key, value);
        request.setArgs(this.struct(provider.inputs));
        request.setAcceptsecrets(true);
        request.setAcceptresources(false);
        request.setSendsOldInputs(true);
        request.setSendsOldInputsToDelete(true);
        const response = await this.call<providerPb.ConfigureResponse>((cb) => this.client.configure(request, cb));
        this.acceptsSecrets = response.getAcceptsecrets();
    }

    async check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<{ inputs: PropertyMap; failures: CheckFailure[] }> {
        const request = addressed(new this.sdk.provider.CheckRequest(), urn);
        request.setOlds(this.outgoing(olds));
        request.setNews(this.outgoing(news));
        const response = await this.call<providerPb.CheckResponse>((cb) => this.client.check(request, cb));
        const inputs = response.hasInputs() ? this.properties(response.getInputs()) : news;
        return {
            inputs: this.incoming(inputs, news),
            failures: response.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
        };
    }

    async diff(old: ExistingObject, news: PropertyMap, ignoreChanges: readonly string[]): Promise<DiffResult> {
        const request = this.change(new this.sdk.provider.DiffRequest(), old, news, ignoreChanges);
        const response = await this.call<providerPb.DiffResponse>((cb) => this.client.diff(request, cb));
        const { DiffChanges } = this.sdk.provider.DiffResponse;
        const changes = response.getChanges();
        return {
            changes: changes === DiffChanges.DIFF_SOME ? "some" : changes === DiffChanges.DIFF_NONE ? "none" : "unknown",
            replaces: response.getReplacesList(),
            deleteBeforeReplace: response.getDeletebeforereplace(),
        };
    }

    async create(urn: string, news: PropertyMap): Promise<{ id: string; outputs: PropertyMap }> {
        const request = addressed(new this.sdk.provider.CreateRequest(), urn);
        request.setProperties(this.outgoing(news));
        const response = await this.call<providerPb.CreateResponse>((cb) => this.client.create(request, cb), news);
        if (!response.getId()) throw new ProviderError(`the provider returned an empty id from create of ${urn}`);
        return { id: response.getId(), outputs: this.incoming(this.properties(response.getProperties()), news) };
    }

    async read(old: ExistingObject): Promise<{ id: string; outputs: PropertyMap; inputs?: PropertyMap }> {
        const request = existing(new this.sdk.provider.ReadRequest(), old);
        request.setInputs(this.outgoing(old.inputs));
        request.setProperties(this.outgoing(old.outputs));
        const response = await this.call<providerPb.ReadResponse>((cb) => this.client.read(request, cb));
        return {
            id: response.getId(),
            outputs: this.incoming(this.properties(response.getProperties()), old.outputs),
            inputs: response.hasInputs() ? this.incoming(this.properties(response.getInputs()), old.inputs) : undefined,
        };
    }

    async update(old: ExistingObject, news: PropertyMap, ignoreChanges: readonly string[]): Promise<PropertyMap> {
        const request = this.change(new this.sdk.provider.UpdateRequest(), old, news, ignoreChanges);
        const response = await this.call<providerPb.UpdateResponse>((cb) => this.client.update(request, cb), news);
        return this.incoming(this.properties(response.getProperties()), news);
    }

    async delete(old: ExistingObject): Promise<void> {
        const request = existing(new this.sdk.provider.DeleteRequest(), old);
        request.setOldInputs(this.outgoing(old.inputs));
        request.setProperties(this.outgoing(old.outputs));
        await this.call((cb) => this.client.delete(request, cb));
    }

    /** Diff and Update send the same: the object as it is, the new inputs and what to ignore. */
    private change<R extends ChangeRequest>(
        request: R,
        old: ExistingObject,
        news: PropertyMap,
        ignoreChanges: readonly string[],
    ): R {
        existing(request, old);
        request.setOldInputs(this.outgoing(old.inputs));
        request.setOlds(this.outgoing(old.outputs));
        request.setNews(this.outgoing(news));
        request.setIgnorechangesList([...ignoreChanges]);
        return request;
    }

    /** Properties as the host is sent them: revealed unless it accepts secrets. */
    private outgoing(m: PropertyMap): Struct {
        return this.struct(this.acceptsSecrets ? m : revealAll(m));
    }

    private incoming(answer: PropertyMap, sent: PropertyMap): PropertyMap {
        return this.acceptsSecrets ? answer : annotateSecrets(answer, sent);
    }

    private struct(m: PropertyMap): Struct {
        return this.sdk.struct.Struct.fromJavaScript(m);
    }

    private properties(struct: { toJavaScript(): object } | undefined): PropertyMap {
        return (struct?.toJavaScript() ?? {}) as PropertyMap;
    }

    /**
     * Makes a call, turning gRPC errors into ProviderErrors with the provider's message. For create
     * and update, `sent` are the inputs, used to restore secretness on a partial result.
     */
    private async call<T>(
        invoke: (callback: (error: ServiceError | null, response: T) => void) => void,
        sent?: PropertyMap,
    ): Promise<T> {
        try {
            return await unary(invoke);
        } catch (e) {
            const error = e as ServiceError;
            const initFailure = sent && this.initFailure(error);
            if (initFailure) {
                const outputs = this.incoming(this.properties(initFailure.getProperties()), sent);
                const reasons = initFailure.getReasonsList();
                // As the CLI's InitError (pkg/resource/plugin/provider_plugin.go): the reasons are the
                // message, and the gRPC status message, which the SDK's host sets to the same text, is not.
                const message = reasons.length > 0 ? reasons.join("; ") : error.details;
                throw new ResourceInitError(message, initFailure.getId(), outputs, reasons);
            }
            throw new ProviderError(error.details || error.message);
        }
    }

    private initFailure(error: ServiceError): providerPb.ErrorResourceInitFailed | undefined {
        const [details] = error.metadata?.get("grpc-status-details-bin") ?? [];
        if (!details) return undefined;
        const status = this.sdk.status.Status.deserializeBinary(details as Uint8Array);
        const packed = status.getDetailsList().find((any) => any.getTypeUrl().endsWith("pulumirpc.ErrorResourceInitFailed"));
        return packed && this.sdk.provider.ErrorResourceInitFailed.deserializeBinary(packed.getValue_asU8());
    }
}
