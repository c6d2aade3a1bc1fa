// What the dynamic provider host does with every result before the engine sees it: a
// protobuf Struct, which drops nothing silently and refuses undefined members
// ("Unexpected struct type"). Loaded from @pulumi/pulumi's own location, as the host does.

import { dirname } from "node:path";

const { Struct } = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [dirname(require.resolve("@pulumi/pulumi"))] })) as {
  Struct: { fromJavaScript(value: unknown): { toJavaScript(): unknown } };
};

/** The value as the engine receives it from the provider host; throws where the host would fail. */
export function asHostSends<T>(value: T): T {
  return Struct.fromJavaScript(value).toJavaScript() as T;
}
