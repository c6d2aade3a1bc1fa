// The gRPC services of the engine: the Engine (logging, root resource) and, while a program
// runs, the ResourceMonitor. Requests are translated to plain objects for the handlers; methods
// not implemented here answer UNIMPLEMENTED, which the SDK tolerates where it has a fallback
// (GetDeploymentInfo, for one).
import type * as grpc from "@grpc/grpc-js";
import type { IEngineServer } from "@pulumi/pulumi/proto/engine_grpc_pb";
import type { IResourceMonitorServer } from "@pulumi/pulumi/proto/resource_grpc_pb";
import type * as resourcePb from "@pulumi/pulumi/proto/resource_pb";

import type { PropertyMap } from "./properties";
import type { PulumiSdk } from "./sdk";

/** A RegisterResource request. */
export interface Registration {
    type: string;
    name: string;
    parent: string;
    custom: boolean;
    inputs: PropertyMap;
    /** Provider reference; "" for the default provider. */
    provider: string;
    /** The provider version the resource's package asks for; "" for none (dynamic resources). */
    version: string;
    dependencies: string[];
    propertyDependencies: Record<string, string[]>;
    /** undefined when the program left the option unset. */
    deleteBeforeReplace?: boolean;
    ignoreChanges: string[];
    protect: boolean;
    retainOnDelete: boolean;
    additionalSecretOutputs: string[];
    aliasUrns: string[];
    /** Options the program used that this engine does not implement. */
    unsupportedOptions: string[];
}

export interface RegistrationResult {
    urn: string;
    id: string;
    outputs: PropertyMap;
}

export type LogSeverity = "debug" | "info" | "warning" | "error";

export interface ProgramHandler {
    /** Rejecting stops the program: the SDK is told the monitor is going away. */
    registerResource(registration: Registration): Promise<RegistrationResult>;
    registerResourceOutputs(urn: string, outputs: PropertyMap): void;
}

export type LogHandler = (severity: LogSeverity, message: string, urn: string) => void;

type Service = [grpc.ServiceDefinition, grpc.UntypedServiceImplementation];

// Features the SDK asks about; only secrets are handled (resource references and output values
// would need their own marshalling, the rest are options this engine does not implement).
const SUPPORTED_FEATURES = new Set(["secrets"]);

function unsupportedOptions(request: resourcePb.RegisterResourceRequest): string[] {
    const hooks = request.getHooks();
    const used: [string, boolean][] = [
        ["import", request.getImportid() !== ""],
        ["remote components", request.getRemote()],
        ["replaceOnChanges", request.getReplaceonchangesList().length > 0],
        ["replacementTrigger", request.hasReplacementTrigger()],
        ["aliases", request.getAliasesList().length > 0],
        ["transforms", request.getTransformsList().length > 0],
        [
            "hooks",
            !!hooks &&
                [
                    hooks.getBeforeCreateList(),
                    hooks.getAfterCreateList(),
                    hooks.getBeforeUpdateList(),
                    hooks.getAfterUpdateList(),
                    hooks.getBeforeDeleteList(),
                    hooks.getAfterDeleteList(),
                    hooks.getOnErrorList(),
                ].some((list) => list.length > 0),
        ],
    ];
    return used.filter(([, isUsed]) => isUsed).map(([option]) => option);
}

function toRegistration(request: resourcePb.RegisterResourceRequest): Registration {
    const propertyDependencies: Record<string, string[]> = {};
    request.getPropertydependenciesMap().forEach((deps, key) => (propertyDependencies[key] = deps.getUrnsList()));
    return {
        type: request.getType(),
        name: request.getName(),
        parent: request.getParent(),
        custom: request.getCustom(),
        inputs: (request.getObject()?.toJavaScript() ?? {}) as PropertyMap,
        provider: request.getProvider(),
        version: request.getVersion(),
        dependencies: request.getDependenciesList(),
        propertyDependencies,
        deleteBeforeReplace: request.getDeletebeforereplacedefined() ? request.getDeletebeforereplace() : undefined,
        ignoreChanges: request.getIgnorechangesList(),
        protect: request.getProtect() ?? false,
        retainOnDelete: request.getRetainondelete() ?? false,
        additionalSecretOutputs: request.getAdditionalsecretoutputsList(),
        aliasUrns: request.getAliasurnsList(),
        unsupportedOptions: unsupportedOptions(request),
    };
}

export function monitorService(sdk: PulumiSdk, program: ProgramHandler): Service {
    const { resource, empty } = sdk;
    const toResponse = (request: resourcePb.RegisterResourceRequest, result: RegistrationResult) => {
        const response = new resource.RegisterResourceResponse();
        response.setUrn(result.urn);
        response.setId(result.id);
        response.setObject(sdk.struct.Struct.fromJavaScript(result.outputs));
        response.setResult(resource.Result.SUCCESS);
        request.getPropertydependenciesMap().forEach((deps, key) => {
            const echoed = new resource.RegisterResourceResponse.PropertyDependencies();
            echoed.setUrnsList(deps.getUrnsList());
            response.getPropertydependenciesMap().set(key, echoed);
        });
        return response;
    };
    const implementation: Partial<IResourceMonitorServer> = {
        supportsFeature: (call, callback) => {
            const response = new resource.SupportsFeatureResponse();
            response.setHassupport(SUPPORTED_FEATURES.has(call.request.getId()));
            callback(null, response);
        },
        registerResource: (call, callback) => {
            program.registerResource(toRegistration(call.request)).then(
                (result) => callback(null, toResponse(call.request, result)),
                (error: Error) => callback({ code: sdk.grpc.status.UNAVAILABLE, details: error.message }),
            );
        },
        registerResourceOutputs: (call, callback) => {
            const outputs = (call.request.getOutputs()?.toJavaScript() ?? {}) as PropertyMap;
            program.registerResourceOutputs(call.request.getUrn(), outputs);
            callback(null, new empty.Empty());
        },
        // The SDK calls this once all its registrations are answered; deletions follow its exit.
        signalAndWaitForShutdown: (_call, callback) => callback(null, new empty.Empty()),
    };
    return [sdk.resourceGrpc.ResourceMonitorService, implementation as grpc.UntypedServiceImplementation];
}

export function engineService(sdk: PulumiSdk, log: LogHandler): Service {
    const { engine, empty } = sdk;
    const severities: Record<number, LogSeverity> = {
        [engine.LogSeverity.DEBUG]: "debug",
        [engine.LogSeverity.INFO]: "info",
        [engine.LogSeverity.WARNING]: "warning",
        [engine.LogSeverity.ERROR]: "error",
    };
    let rootResource = "";
    const implementation: Partial<IEngineServer> = {
        log: (call, callback) => {
            const request = call.request;
            log(severities[request.getSeverity()] ?? "info", request.getMessage(), request.getUrn());
            callback(null, new empty.Empty());
        },
        setRootResource: (call, callback) => {
            rootResource = call.request.getUrn();
            callback(null, new engine.SetRootResourceResponse());
        },
        getRootResource: (_call, callback) => {
            const response = new engine.GetRootResourceResponse();
            response.setUrn(rootResource);
            callback(null, response);
        },
    };
    return [sdk.engineGrpc.EngineService, implementation as grpc.UntypedServiceImplementation];
}

/** A gRPC server on a free loopback port. */
export class GrpcServer {
    private constructor(
        private readonly server: grpc.Server,
        readonly address: string,
    ) {}

    static async start(sdk: PulumiSdk, service: Service): Promise<GrpcServer> {
        const server = new sdk.grpc.Server();
        server.addService(...service);
        const port = await new Promise<number>((resolve, reject) =>
            server.bindAsync("127.0.0.1:0", sdk.grpc.ServerCredentials.createInsecure(), (error, p) =>
                error ? reject(error) : resolve(p),
            ),
        );
        return new GrpcServer(server, `127.0.0.1:${port}`);
    }

    stop(): void {
        this.server.forceShutdown();
    }
}
