// The program's own copy of @pulumi/pulumi and of the gRPC/protobuf runtime it was built against.
// Messages must be built with the very classes its generated stubs use, so nothing here comes from
// the engine's own node_modules: everything is resolved from the program directory.
import * as path from "path";

import type * as grpcModule from "@grpc/grpc-js";

export interface PulumiSdk {
    /** Directory of the program's @pulumi/pulumi package. */
    dir: string;
    grpc: typeof grpcModule;
    struct: typeof import("google-protobuf/google/protobuf/struct_pb");
    empty: typeof import("google-protobuf/google/protobuf/empty_pb");
    resource: typeof import("@pulumi/pulumi/proto/resource_pb");
    resourceGrpc: typeof import("@pulumi/pulumi/proto/resource_grpc_pb");
    engine: typeof import("@pulumi/pulumi/proto/engine_pb");
    engineGrpc: typeof import("@pulumi/pulumi/proto/engine_grpc_pb");
    provider: typeof import("@pulumi/pulumi/proto/provider_pb");
    providerGrpc: typeof import("@pulumi/pulumi/proto/provider_grpc_pb");
    status: typeof import("@pulumi/pulumi/proto/status_pb");
    /** Loads a module (js-yaml, ...) as the SDK itself would resolve it. */
    requireDependency<T>(name: string): T;
}

export function loadSdk(programDir: string): PulumiSdk {
    let manifest: string;
    try {
        manifest = require.resolve("@pulumi/pulumi/package.json", { paths: [programDir] });
    } catch {
        throw new Error(`@pulumi/pulumi is not installed for the program in ${programDir}`);
    }
    const dir = path.dirname(manifest);
    const fromSdk = <T>(name: string): T => require(require.resolve(name, { paths: [dir] })) as T;
    const proto = <T>(file: string): T => require(path.join(dir, "proto", file)) as T;
    return {
        dir,
        grpc: fromSdk("@grpc/grpc-js"),
        struct: fromSdk("google-protobuf/google/protobuf/struct_pb"),
        empty: fromSdk("google-protobuf/google/protobuf/empty_pb"),
        resource: proto("resource_pb"),
        resourceGrpc: proto("resource_grpc_pb"),
        engine: proto("engine_pb"),
        engineGrpc: proto("engine_grpc_pb"),
        provider: proto("provider_pb"),
        providerGrpc: proto("provider_grpc_pb"),
        status: proto("status_pb"),
        requireDependency: fromSdk,
    };
}
