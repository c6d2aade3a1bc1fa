// What a resource hands to pulumi.dynamic.Resource. The closure serializer copies
// local code by value but captures modules under node_modules by reference, so the
// serialized provider is only this small forwarding object: every method requires
// the installed resource module in the provider host and calls its implementation
// there. Module state (the rate limiter per account, the connection pool, the
// stack config) then exists once per host, and `__provider` stays small and free of
// credentials.

import * as pulumi from "@pulumi/pulumi";
import * as settings from "./settings";

/** A resource module: the file that holds a resource's schema, normalization and provider. */
export interface ResourceModule {
  exports: { provider: pulumi.dynamic.ResourceProvider };
}

export function forwardTo(resourceModule: ResourceModule): pulumi.dynamic.ResourceProvider {
  const implementation = resourceModule.exports;
  return {
    configure: async (req) => settings.useStackConfig(req.config),
    check: (olds, news) => implementation.provider.check!(olds, news),
    diff: (id, olds, news) => implementation.provider.diff!(id, olds, news),
    create: (inputs) => implementation.provider.create(inputs),
    read: (id, props) => implementation.provider.read!(id, props),
    update: (id, olds, news) => implementation.provider.update!(id, olds, news),
    delete: (id, props) => implementation.provider.delete!(id, props),
  };
}
