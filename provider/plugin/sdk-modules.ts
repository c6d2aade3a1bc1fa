// The gRPC library and the message classes the plugin serves with: those of the
// @pulumi/pulumi installed beside the package, resolved from the SDK's own folder, so
// that a Struct this module builds is the class its generated stubs (proto/*_pb.js)
// serialize, whichever google-protobuf a program holds elsewhere. The plugin bundle
// (scripts/plugin-bundle.ts) resolves the same names from the same folder at build time.

import { createRequire } from "node:module";

/** Each module the plugin takes from the SDK's folder, by the name it is required by there. */
export const sdkModuleNames = {
  grpc: "@grpc/grpc-js",
  struct: "google-protobuf/google/protobuf/struct_pb",
  empty: "google-protobuf/google/protobuf/empty_pb",
  any: "google-protobuf/google/protobuf/any_pb",
  status: "./proto/status_pb",
  provider: "./proto/provider_pb",
  plugin: "./proto/plugin_pb",
  services: "./proto/provider_grpc_pb",
} as const;

const fromSdk = createRequire(require.resolve("@pulumi/pulumi/package.json"));

export const grpc: typeof import("@grpc/grpc-js") = fromSdk(sdkModuleNames.grpc);
export const structProto: typeof import("google-protobuf/google/protobuf/struct_pb") = fromSdk(sdkModuleNames.struct);
export const emptyProto: typeof import("google-protobuf/google/protobuf/empty_pb") = fromSdk(sdkModuleNames.empty);
export const anyProto: typeof import("google-protobuf/google/protobuf/any_pb") = fromSdk(sdkModuleNames.any);
export const statusProto: typeof import("@pulumi/pulumi/proto/status_pb") = fromSdk(sdkModuleNames.status);
export const providerProto: typeof import("@pulumi/pulumi/proto/provider_pb") = fromSdk(sdkModuleNames.provider);
export const pluginProto: typeof import("@pulumi/pulumi/proto/plugin_pb") = fromSdk(sdkModuleNames.plugin);
export const providerServices: typeof import("@pulumi/pulumi/proto/provider_grpc_pb") = fromSdk(sdkModuleNames.services);
