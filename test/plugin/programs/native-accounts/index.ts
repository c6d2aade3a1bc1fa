// Accounts through the native plugin pulumi-resource-crm, with classes written as a generated
// SDK's are (none is generated yet): each on the stack's account (the default provider, set by the stack's
// crm: config) or on an explicit provider's, from the stack config `accounts` and `clients`.
// With `mode: dynamic`, the same accounts through the dynamic crm.Account, as a stack made
// before the plugin has them; `aliases` then moves them to the plugin. See
// test/plugin/program.test.ts.
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

interface Declared {
  name: string;
  accountUrl?: string;
  /** An explicit provider of `clients`; the default provider when unset. */
  client?: string;
}

/** crm.Account of the plugin: the token in its package schema. */
class NativeAccount extends pulumi.CustomResource {
  constructor(name: string, args: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    super("crm:index:Account", name, args, opts);
  }
}

/** An explicit provider of the crm package, with its own account's settings. */
class CrmProvider extends pulumi.ProviderResource {
  constructor(name: string, args: { apiUrl: pulumi.Input<string>; apiToken: pulumi.Input<string> }) {
    super("crm", name, args);
  }
}

const config = new pulumi.Config();
const accounts = config.requireObject<Declared[]>("accounts");
const clients = config.getSecretObject<Record<string, { apiUrl: string; apiToken: string }>>("clients");
const aliases = config.getObject<pulumi.Alias[]>("aliases") ?? [];

const providers = new Map<string, pulumi.ProviderResource>();
const providerOf = (client: string) => {
  if (!providers.has(client)) {
    const settings = clients!.apply((all) => all[client]);
    providers.set(client, new CrmProvider(client, { apiUrl: settings.apiUrl, apiToken: pulumi.secret(settings.apiToken) }));
  }
  return providers.get(client)!;
};

export const ids: Record<string, pulumi.Output<string>> = {};
for (const account of accounts) {
  const args = { name: account.name, accountUrl: account.accountUrl };
  ids[account.name] =
    config.get("mode") === "dynamic"
      ? new crm.Account(account.name, args).id
      : new NativeAccount(account.name, args, { aliases, provider: account.client ? providerOf(account.client) : undefined }).id;
}
