// Defers two modules the Pulumi SDK loads at start but calls only for features most of the test
// run's processes never use: arborist (and pacote, sigstore, ... behind it), which lists the
// packages of a function serialized for a cloud callback, and TypeScript, which parses the
// functions a program serializes (a provider host serializes none). Each is loaded, the same
// module, when its requirer first reads from it. The global setup preloads this file in every
// process of the run, as compile-cache.js: the SDK's code is the same, but its some three
// hundred programs and provider hosts no longer each load some 450 modules for nothing.
"use strict";
const Module = require("node:module");

/**
 * What the SDK requires at a module's top level and only uses later, by the requiring file (the
 * end of its path). `namespace`: the requirer takes the module through TypeScript's __importStar
 * (`import * as`), which reads `__esModule` at once; the proxy then stands for the namespace it
 * would make, the module's properties and the module itself as `default`.
 */
const deferred = [
    { from: "/node_modules/@pulumi/pulumi/runtime/closure/codePaths.js", request: "@npmcli/arborist", namespace: true },
    { from: "/node_modules/@pulumi/pulumi/runtime/closure/parseFunction.js", request: "../../typescript-shim", namespace: false },
];

const originalRequire = Module.prototype.require;
Module.prototype.require = function (id) {
    const filename = this.filename ?? "";
    const entry = deferred.find(({ from, request }) => request === id && filename.endsWith(from));
    return entry ? loadedOnFirstUse(this, id, entry.namespace) : originalRequire.call(this, id);
};

/** The module's exports, as a proxy that requires it when anything of it is first read. */
function loadedOnFirstUse(module, id, namespace) {
    let exports;
    let namespaceView;
    const load = () => (exports ??= originalRequire.call(module, id));
    const target = namespace ? () => (namespaceView ??= { ...load(), default: load() }) : load;
    return new Proxy(
        {},
        {
            get: (_, key) => (namespace && key === "__esModule" ? true : Reflect.get(target(), key)),
            has: (_, key) => Reflect.has(target(), key),
            ownKeys: () => Reflect.ownKeys(target()),
            getOwnPropertyDescriptor: (_, key) => {
                const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
                // A proxy may only report a property of its own target as non-configurable.
                return descriptor && { ...descriptor, configurable: true };
            },
        },
    );
}
