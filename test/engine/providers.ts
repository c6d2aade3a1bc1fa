// Provider hosts of a run, one per provider: the default `pulumi-nodejs` provider serves every
// dynamic resource without an explicit provider and is configured with the whole stack
// configuration; each explicit `pulumi:providers:pulumi-nodejs` resource gets its own host,
// configured with that resource's inputs, as the engine does for first-class providers.
import type { StackConfig } from "./project";
import { PropertyMap, PropertyValue, revealSecrets } from "./properties";
import { ProviderHost } from "./provider-host";
import { referencedProviderUrn } from "./urn";

export const DYNAMIC_PACKAGE = "pulumi-nodejs";

/** What a host's Configure is sent. */
interface HostConfiguration {
    variables: Record<string, string>;
    args: PropertyMap;
}

export class ProviderRegistry {
    private readonly hosts = new Map<string, Promise<ProviderHost>>();

    constructor(
        private readonly startHost: () => Promise<ProviderHost>,
        private readonly stackConfig: StackConfig,
    ) {}

    /**
     * The host for a provider reference ("" or undefined for the default provider); `providerInputs`
     * gives the inputs of an explicit provider resource from its URN.
     */
    get(reference: string | undefined, providerInputs: (providerUrn: string) => PropertyMap): Promise<ProviderHost> {
        const key = reference ? referencedProviderUrn(reference) : "";
        let host = this.hosts.get(key);
        if (!host) {
            const configuration = key ? explicitConfiguration(providerInputs(key)) : this.defaultConfiguration();
            host = this.startHost().then(async (started) => {
                await started.configure(configuration.variables, configuration.args);
                return started;
            });
            this.hosts.set(key, host);
        }
        return host;
    }

    async closeAll(): Promise<void> {
        const hosts = await Promise.allSettled(this.hosts.values());
        for (const host of hosts) if (host.status === "fulfilled") host.value.close();
    }

    private defaultConfiguration(): HostConfiguration {
        return { variables: this.stackConfig.values, args: this.stackConfig.values };
    }
}

/** As the engine configures a first-class provider: its inputs, and "<pkg>:config:<key>" strings. */
function explicitConfiguration(inputs: PropertyMap): HostConfiguration {
    const args = Object.fromEntries(Object.entries(inputs).filter(([key]) => key !== "version"));
    const variables = Object.fromEntries(
        Object.entries(args).map(([key, value]) => [`${DYNAMIC_PACKAGE}:config:${key}`, configString(value)]),
    );
    return { variables, args };
}

function configString(value: PropertyValue): string {
    const revealed = revealSecrets(value);
    return typeof revealed === "string" ? revealed : JSON.stringify(revealed);
}
