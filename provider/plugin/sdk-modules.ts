// The gRPC library and the message classes the plugin serves with: those of the
// @pulumi/pulumi installed beside the package, resolved from the SDK's own folder, so
// that a Struct this module builds is the class its generated stubs (proto/*_pb.js)
// serialize, whichever google-protobuf a program holds elsewhere. The plugin bundle
// (scripts/plugin-bundle.ts) resolves the same names from the same folder at build time.

import { createRequire } from "node:module";

/** Each module the plugin takes from the SDK's folder, by the name this module exports it as, and the path it is required by there. */
export const sdkModuleNames = {
  grpc: "@grpc/grpc-js",
  structProto: "google-protobuf/google/protobuf/struct_pb",
  emptyProto: "google-protobuf/google/protobuf/empty_pb",
  anyProto: "google-protobuf/google/protobuf/any_pb",
  statusProto: "./proto/status_pb",
  providerProto: "./proto/provider_pb",
  pluginProto: "./proto/plugin_pb",
  providerServices: "./proto/provider_grpc_pb",
  engineProto: "./proto/engine_pb",
  engineServices: "./proto/engine_grpc_pb",
} as const;

const fromSdk = createRequire(require.resolve("@pulumi/pulumi/package.json"));

export const grpc: typeof import("@grpc/grpc-js") = fromSdk(sdkModuleNames.grpc);
export const structProto: typeof import("google-protobuf/google/protobuf/struct_pb") = fromSdk(sdkModuleNames.structProto);
export const emptyProto: typeof import("google-protobuf/google/protobuf/empty_pb") = fromSdk(sdkModuleNames.emptyProto);
export const anyProto: typeof import("google-protobuf/google/protobuf/any_pb") = fromSdk(sdkModuleNames.anyProto);
export const statusProto: typeof import("@pulumi/pulumi/proto/status_pb") = fromSdk(sdkModuleNames.statusProto);
export const providerProto: typeof import("@pulumi/pulumi/proto/provider_pb") = fromSdk(sdkModuleNames.providerProto);
export const pluginProto: typeof import("@pulumi/pulumi/proto/plugin_pb") = fromSdk(sdkModuleNames.pluginProto);
export const providerServices: typeof import("@pulumi/pulumi/proto/provider_grpc_pb") = fromSdk(sdkModuleNames.providerServices);
export const engineProto: typeof import("@pulumi/pulumi/proto/engine_pb") = fromSdk(sdkModuleNames.engineProto);
export const engineServices: typeof import("@pulumi/pulumi/proto/engine_grpc_pb") = fromSdk(sdkModuleNames.engineServices);
