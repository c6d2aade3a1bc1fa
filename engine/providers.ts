// Provider resources and their hosts. As in the CLI, every dynamic resource has a provider resource
// in the state: an explicit `pulumi:providers:pulumi-nodejs` resource, or the default provider,
// which the engine registers itself and whose inputs are the whole stack configuration. A host is
// configured with the inputs of its provider resource as the run sees it: `up` and `preview`
// register provider resources from the program and the current configuration first, refresh and
// destroy take them from the state. Resources of the random package have their versioned default
// provider too, served by the engine's stand-in instead of a plugin.
import { randomUUID } from "crypto";

import type { Project, StackConfig } from "./project";
import { deepEqual, makeSecret, PropertyMap, PropertyValue, revealSecrets } from "./properties";
import type { ProviderHost, ResourceProvider } from "./provider-host";
import { RANDOM_PACKAGE, RandomProvider } from "./random-provider";
import type { ResourceState } from "./state";
import { defaultProviderUrn, PROVIDER_TYPE_PREFIX, providerReference, referencedProviderUrn } from "./urn";

export const DYNAMIC_PACKAGE = "pulumi-nodejs";

/**
 * The default provider of a package as the CLI registers it (pkg/resource/deploy/default_providers.go,
 * newRegisterDefaultProviderEvent): the package's stack configuration, secrets secret
 * (pkg/resource/deploy/target.go, GetPackageConfig: for the dynamic provider package every key,
 * namespace kept; for others their own keys, by bare name), the requested version as the input
 * `version`, and a name carrying that version (`default_4_21_2`, ProviderRequest.DefaultName). Its
 * id is given when it is registered.
 */
export function defaultProvider(
    stack: string,
    project: string,
    config: StackConfig,
    pkg: string = DYNAMIC_PACKAGE,
    version: string = "",
): ResourceState {
    const packageConfig = Object.entries(config.values).flatMap(([key, value]): [string, PropertyValue][] => {
        const secret = config.secretKeys.includes(key) ? makeSecret(value) : value;
        if (pkg === DYNAMIC_PACKAGE) return [[key, secret]];
        return key.startsWith(`${pkg}:`) ? [[key.slice(pkg.length + 1), secret]] : [];
    });
    const inputs: PropertyMap = { ...Object.fromEntries(packageConfig), ...(version ? { version } : {}) };
    return {
        urn: defaultProviderUrn(stack, project, pkg, defaultProviderName(version)),
        type: `${PROVIDER_TYPE_PREFIX}${pkg}`,
        custom: true,
        id: "",
        parent: "",
        inputs,
        outputs: inputs,
        dependencies: [],
    };
}

/** ProviderRequest.DefaultName: "default", then the version's parts joined by "_" (QNames have no dashes). */
function defaultProviderName(version: string): string {
    return ["default", ...(version ? version.split(/[.+-]/) : [])].join("_");
}

/**
 * A state written before default providers were kept in it: as the CLI migrates such a snapshot,
 * the default provider is added in front, from the current configuration, and referenced.
 */
export function withDefaultProvider(resources: ResourceState[], provider: ResourceState): ResourceState[] {
    const needing = (r: ResourceState) => r.custom && !r.provider && !r.type.startsWith(PROVIDER_TYPE_PREFIX);
    if (!resources.some(needing)) return resources;
    const added = { ...provider, id: randomUUID() };
    const reference = providerReference(added.urn, added.id);
    return [added, ...resources.map((r) => (needing(r) ? { ...r, provider: reference } : r))];
}

/** The environment the CLI gives the `pulumi-nodejs` provider plugin (pkg/resource/plugin/provider_plugin.go). */
export function hostEnvironment(project: Project, config: StackConfig): Record<string, string> {
    const namespace = `${DYNAMIC_PACKAGE}:`;
    // Only the configuration of the plugin's own namespace, by bare key (pkg/host/host.go).
    const ownConfig = Object.fromEntries(
        Object.entries(config.values)
            .filter(([key]) => key.startsWith(namespace))
            .map(([key, value]) => [key.slice(namespace.length), value]),
    );
    const runtimeOptions = Object.entries(project.runtimeOptions).map(([key, value]) => [
        `PULUMI_RUNTIME_${key.toUpperCase()}`,
        String(value),
    ]);
    return {
        ...Object.fromEntries(runtimeOptions),
        PULUMI_PROJECT: project.name,
        PULUMI_NODEJS_PROJECT: project.name,
        PULUMI_CONFIG: JSON.stringify(ownConfig),
    };
}

/**
 * One host per provider resource, configured with its inputs; new inputs get a new host. Providers
 * of the random package are served by the engine's stand-in, which is announced once per run.
 */
export class ProviderRegistry {
    private readonly hosts = new Map<string, { inputs: PropertyMap; host: Promise<ProviderHost> }>();
    private randomStandIn?: RandomProvider;
    private readonly started: Promise<ProviderHost>[] = [];

    constructor(
        private readonly startHost: () => Promise<ProviderHost>,
        /** The provider resource of a URN, as the run sees it. */
        private readonly providerState: (urn: string) => ResourceState | undefined,
        private readonly announce: (line: string) => void,
    ) {}

    async get(reference: string): Promise<ResourceProvider> {
        const urn = referencedProviderUrn(reference);
        const provider = this.providerState(urn);
        if (!provider) throw new Error(`provider ${urn} is not in the state`);
        if (provider.type === `${PROVIDER_TYPE_PREFIX}${RANDOM_PACKAGE}`) return this.random(provider);
        const known = this.hosts.get(urn);
        if (known && deepEqual(known.inputs, provider.inputs)) return known.host;
        // As the CLI loads a plugin: when a provider is first used, not ahead of it.
        const starting = this.startHost();
        this.started.push(starting);
        const host = starting.then(async (started) => {
            await started.configure(provider, configureVariables(provider.inputs));
            return started;
        });
        this.hosts.set(urn, { inputs: provider.inputs, host });
        return host;
    }

    private random(provider: ResourceState): RandomProvider {
        if (!this.randomStandIn) {
            this.randomStandIn = new RandomProvider();
            const version = provider.inputs.version ? ` ${String(provider.inputs.version)}` : "";
            this.announce(`info: random${version}: served by the test engine's stand-in for the random provider plugin`);
        }
        return this.randomStandIn;
    }

    async closeAll(): Promise<void> {
        const hosts = await Promise.allSettled(this.started);
        for (const host of hosts) if (host.status === "fulfilled") host.value.close();
    }
}

/** The deprecated `variables` of Configure, as the CLI derives them from the inputs (provider_plugin.go). */
function configureVariables(inputs: PropertyMap): Record<string, string> {
    return Object.fromEntries(
        Object.entries(inputs)
            .filter(([key]) => key !== "version")
            .map(([key, value]) => [`${DYNAMIC_PACKAGE}:config:${key}`, configString(value)]),
    );
}

function configString(value: PropertyValue): string {
    const revealed = revealSecrets(value);
    return typeof revealed === "string" ? revealed : JSON.stringify(revealed);
}
