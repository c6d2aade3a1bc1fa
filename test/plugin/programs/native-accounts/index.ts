// Accounts through the native plugin pulumi-resource-crm (and, with `flowId`, a chat flow run
// through pulumi-resource-chat), on the generated Node.js SDKs (@pulumi-crm/crm and
// @pulumi-crm/chat, packed from sdk/nodejs): each on the stack's account (the default provider,
// set by the stack's crm: config) or on an explicit provider's, from the stack config `accounts`
// and `clients`. With `mode: dynamic`, the same accounts through the dynamic crm.Account, as a
// stack made before the plugin has them; the SDK's Account carries the schema's alias to that
// type, which moves them to the plugin. See test/plugin/program.test.ts.
import * as chatSdk from "@pulumi-crm/chat";
import * as crmSdk from "@pulumi-crm/crm";
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

interface Declared {
  name: string;
  accountUrl?: string;
  /** An explicit provider of `clients`; the default provider when unset. */
  client?: string;
}

const config = new pulumi.Config();
const accounts = config.requireObject<Declared[]>("accounts");
const clients = config.getSecretObject<Record<string, { apiUrl: string; apiToken: string }>>("clients");

const providers = new Map<string, pulumi.ProviderResource>();
const providerOf = (client: string) => {
  if (!providers.has(client)) {
    const settings = clients!.apply((all) => all[client]);
    providers.set(client, new crmSdk.Provider(client, { apiUrl: settings.apiUrl, apiToken: pulumi.secret(settings.apiToken) }));
  }
  return providers.get(client)!;
};

// With `lookup`, that account looked up by name through its provider's crm:index:getAccount, once it exists.
const lookup = config.get("lookup");
export let lookedUp: pulumi.Output<unknown> | undefined;

export const ids: Record<string, pulumi.Output<string>> = {};
for (const account of accounts) {
  const args = { name: account.name, accountUrl: account.accountUrl };
  if (config.get("mode") === "dynamic") {
    ids[account.name] = new crm.Account(account.name, args).id;
    continue;
  }
  const provider = account.client ? providerOf(account.client) : undefined;
  const resource = new crmSdk.Account(account.name, args, { provider });
  ids[account.name] = resource.id;
  if (account.name === lookup) lookedUp = crmSdk.getAccountOutput({ name: account.name.toUpperCase() }, { provider, dependsOn: [resource] });
}

// With `flowId`, a run of that chat flow for one contact, through the chat plugin's default provider.
const flowId = config.get("flowId");
if (flowId) new chatSdk.FlowRun("welcome", { flowId, contacts: [{ phone: "+15550100", firstName: "Ada" }] });
