// Where each service's address and credential come from: in a native plugin, the
// settings of the provider instance serving the call (see withProviderSettings); else
// stack config passed to the provider host's configure() (in the program process,
// where lookups run and no host calls configure(), the program's own stack config);
// else the environment, read at call time. Nothing here is captured in a serialized
// provider: this module is loaded by reference.

import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { PulumiCrmError } from "./transport/errors";
import type { CredentialSetting } from "./transport/errors";
import type { AccountEndpoint } from "./transport/transport";

/** The subset of the dynamic provider's config object this module uses. */
export interface ConfigSource {
  get(key: string): string | undefined;
  /** The explicit provider whose settings these are (its name); unset for the stack config, the default provider's. */
  provider?: string;
}

let stackConfig: ConfigSource | undefined;

/** Called from each dynamic provider's configure(); every provider in the host sees the same stack config. */
export function useStackConfig(config: ConfigSource): void {
  stackConfig = config;
}

// The settings of the provider instance a plugin call serves: each explicit provider has
// its own, and its resources go to its own account, never to the stack's.
const providerSettings = new AsyncLocalStorage<ConfigSource>();

/** Runs `call` with these settings in place of the stack config, for every setting read during it, awaited work included. */
export function withProviderSettings<T>(settings: ConfigSource, call: () => T): T {
  return providerSettings.run(settings, call);
}

/**
 * Whether the engine would name a default provider so: `default`, then the version it gives in the
 * provider's inputs (`default_0_1_0`), then a download URL it keeps to itself
 * (`default_0_1_0_github_//api.github.com/...`).
 */
export function isDefaultProviderName(name: string, version: string | undefined): boolean {
  const defaultName = version ? `default_${version.replace(/[.+-]/g, "_")}` : "default";
  return name === defaultName || (name.startsWith(`${defaultName}_`) && name.includes("/"));
}

/** The stack config of the Pulumi program this process runs, for `crm:apiUrl` read as `new pulumi.Config("crm").get("apiUrl")`. */
const programConfig: ConfigSource = {
  get(key) {
    const [namespace, name] = key.split(":");
    return new pulumi.Config(namespace).get(name);
  },
};

/**
 * The settings in use, as an object that changes only when useStackConfig is called
 * again: in a program process, one for the whole run.
 */
export function settingsInUse(): object {
  return stackConfig ?? programConfig;
}

interface Setting {
  key: string;
  env: string;
}

export interface ServiceSettingsSpec {
  service: string;
  url: Setting;
  token: Setting;
  /** Requests per second to this service per account: each service limits an account on its own. */
  rate: Setting;
  /** Appended to the configured address: /api/3 for the CRM service. */
  rootPath: string;
  authHeaders(token: string): Record<string, string>;
  /** See AccountEndpoint.meansNotFound. */
  meansNotFound?(status: number, body: unknown): boolean;
}

export const crmService: ServiceSettingsSpec = {
  service: "CRM",
  url: { key: "crm:apiUrl", env: "CRM_API_URL" },
  token: { key: "crm:apiToken", env: "CRM_API_TOKEN" },
  rate: { key: "crm:requestsPerSecond", env: "CRM_REQUESTS_PER_SECOND" },
  rootPath: "/api/3",
  authHeaders: (token) => ({ "Api-Token": token }),
  // The reference answers a read or an update of a missing group 403, in its 404's words
  // ("No Result found for Group with id 8"); a refused key's 403 says other words.
  meansNotFound: (status, body) => status === 403 && /^No Result found for \w+ with id /.test(String((body as { message?: unknown } | undefined)?.message)),
};

export const chatService: ServiceSettingsSpec = {
  service: "chat",
  url: { key: "chat:apiUrl", env: "CHAT_API_URL" },
  token: { key: "chat:apiToken", env: "CHAT_API_TOKEN" },
  rate: { key: "chat:requestsPerSecond", env: "CHAT_REQUESTS_PER_SECOND" },
  rootPath: "",
  authHeaders: (token) => ({ Authorization: `Token ${token}` }),
};

export const channelSetting: Setting = { key: "chat:channel", env: "CHAT_CHANNEL" };
const defaultRequestsPerSecond = 5;
const requestTimeoutMs = 30_000;

/** A missing or malformed setting: in the program (lookups) as in the provider host, without stack frames. */
export class SettingsError extends PulumiCrmError {}

const settingsSource = () => providerSettings.getStore() ?? stackConfig ?? programConfig;

function read(setting: Setting): string | undefined {
  const value = settingsSource().get(setting.key) ?? process.env[setting.env];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/**
 * How every message names a setting (`crm:apiUrl`): the stack key for the default provider,
 * the explicit provider's own setting by the provider's name otherwise.
 */
export function settingName(key: string, source: Pick<ConfigSource, "provider"> = settingsSource()): string {
  return source.provider === undefined ? key : `${key.split(":")[1]} of the provider "${source.provider}"`;
}

/**
 * How every message tells the user to give a setting: the command that sets the stack key for
 * the default provider, the explicit provider's own setting by the provider's name otherwise.
 */
export function howToSet(setting: Setting, what: string, secret: boolean, source: Pick<ConfigSource, "provider"> = settingsSource()): string {
  return source.provider === undefined
    ? `run \`pulumi config set ${secret ? "--secret " : ""}${setting.key} <${what}>\``
    : `give the provider "${source.provider}" its ${setting.key.split(":")[1]} setting`;
}

const tokenWhat = (spec: ServiceSettingsSpec) => `${spec.service} API token`;

function requireSetting(setting: Setting, what: string, secret: boolean, resource: string): string {
  const value = read(setting);
  if (value !== undefined) return value;
  throw new SettingsError(`${resource}: no ${what} is configured; ${howToSet(setting, what, secret)} or set the ${setting.env} environment variable.`);
}

/** An account endpoint, and how messages name the settings behind it (see settingName). */
export interface ServiceEndpoint extends AccountEndpoint {
  tokenSetting: CredentialSetting;
  rateSetting: string;
}

/** The account endpoint for one service call, resolved now from config or environment. */
export function endpointFor(spec: ServiceSettingsSpec, resource: string): ServiceEndpoint {
  const address = requireSetting(spec.url, `${spec.service} API address`, false, resource);
  const token = requireSetting(spec.token, tokenWhat(spec), true, resource);
  const base = parseServiceAddress(address, spec, resource);
  const rate = read(spec.rate);
  const requestsPerSecond = rate === undefined ? defaultRequestsPerSecond : Number(rate);
  if (!Number.isFinite(requestsPerSecond) || requestsPerSecond < 0) {
    throw new SettingsError(`${resource}: ${settingName(spec.rate.key)} must be a number of requests per second (0 turns limiting off), got "${rate}".`);
  }
  return {
    rootUrl: base + spec.rootPath,
    urlSetting: settingName(spec.url.key),
    tokenSetting: { name: settingName(spec.token.key), howToSet: howToSet(spec.token, tokenWhat(spec), true) },
    rateSetting: settingName(spec.rate.key),
    headers: spec.authHeaders(token),
    secret: token,
    // The account at this service is the service plus the address and the credential (each service limits
    // an account on its own, even at one address); a hash keeps the credential out of the key.
    accountKey: createHash("sha256").update(`${spec.service}\n${base}\n${token}`).digest("hex"),
    requestsPerSecond,
    timeoutMs: requestTimeoutMs,
    meansNotFound: spec.meansNotFound,
  };
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** https only, except loopback addresses (the local emulator). Returns the address without a trailing slash. */
function parseServiceAddress(address: string, spec: ServiceSettingsSpec, resource: string): string {
  const setting = settingName(spec.url.key);
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new SettingsError(`${resource}: ${setting} must be an absolute URL such as https://myaccount.api-us1.com, got "${address}".`);
  }
  // Before any message that repeats the address: user info or a query may hold a key.
  if (url.search || url.hash || url.username || url.password) {
    throw new SettingsError(`${resource}: ${setting} must be a plain address without query, fragment or user info.`);
  }
  const loopback = loopbackHosts.has(url.hostname);
  if (url.protocol !== "https:" && !(loopback && url.protocol === "http:")) {
    throw new SettingsError(`${resource}: ${setting} must use https (plain http is allowed only for loopback addresses), got "${address}".`);
  }
  // Accept the address with or without the /api/3 suffix users copy from the account settings.
  let path = url.pathname.replace(/\/+$/, "");
  if (spec.rootPath && path.endsWith(spec.rootPath)) path = path.slice(0, -spec.rootPath.length);
  return `${url.origin}${path}`;
}

/**
 * Whether a provider's changed setting `key` (`crm:apiUrl`) moves it to another account. The
 * address names the account, so a changed address (an unknown one, until it is known, may be
 * one) means another account, and the provider's resources are replaced into it; any other
 * setting (the key, the rate, the channel) is the same account's, and changes no resource. An
 * address given where there was none (or dropped), taken from the environment before (or
 * after), cannot be told apart from the same account's: not a move.
 */
export function movesAccount(key: string, old: unknown, now: unknown, unknownNow: boolean): boolean {
  const spec = [crmService, chatService].find((service) => service.url.key === key);
  if (!spec) return false;
  if (unknownNow) return true;
  if (typeof old !== "string" || typeof now !== "string" || !old.trim() || !now.trim()) return false;
  return sameAddress(old, spec) !== sameAddress(now, spec);
}

/** An address as its account is told: without trailing slashes, the service's root path or the case of its host. */
function sameAddress(address: string, spec: ServiceSettingsSpec): string {
  let text = address.trim();
  try {
    const url = new URL(text);
    text = `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    // Not an address at all: compared as written (the check says what is wrong with it).
  }
  text = text.replace(/\/+$/, "");
  return spec.rootPath && text.endsWith(spec.rootPath) ? text.slice(0, -spec.rootPath.length) : text;
}

/** Every setting pulumi-crm reads, by namespace: what a key of these namespaces may be. */
const knownSettings: Setting[] = [crmService, chatService].flatMap((spec) => [spec.url, spec.token, spec.rate]).concat(channelSetting);

/** The keys of every setting pulumi-crm reads: `crm:apiUrl`, ... */
export const knownSettingKeys: readonly string[] = knownSettings.map((setting) => setting.key);

/** `candidates` sorted closest to `key` first (by edit distance, case aside). */
export function closestFirst(key: string, candidates: readonly string[]): string[] {
  const distance = (known: string) => editDistance(key.toLowerCase(), known.toLowerCase());
  return [...candidates].sort((a, b) => distance(a) - distance(b));
}

/**
 * The one rule of unknown settings, in both doors: a key of pulumi-crm's namespaces (`crm:*`,
 * `chat:*`) that it does not read is warned of, with the known keys of its namespace, closest
 * first, named as every message names settings (see settingName): a misspelt setting would
 * otherwise be ignored without a word. A namespace that is also the program's project name
 * holds the project's own keys, and is left alone.
 */
export function unknownSettingWarnings(keys: string[], project: string, source: Pick<ConfigSource, "provider"> = {}): string[] {
  return keys.flatMap((key) => {
    const namespace = key.split(":")[0];
    const ofNamespace = knownSettingKeys.filter((known) => known.startsWith(`${namespace}:`));
    if (namespace === project || !ofNamespace.length || ofNamespace.includes(key)) return [];
    const closest = closestFirst(key, ofNamespace).map((known) => settingName(known, source));
    return [
      `pulumi-crm: ${settingName(key, source)} is not a setting of pulumi-crm and is ignored; its settings of ${namespace} are, closest first: ${closest.join(", ")}.`,
    ];
  });
}

/** Levenshtein distance: the fewest insertions, deletions and substitutions from one text to the other. */
function editDistance(from: string, to: string): number {
  let previous = Array.from({ length: to.length + 1 }, (_, index) => index);
  for (let i = 1; i <= from.length; i++) {
    const current = [i];
    for (let j = 1; j <= to.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (from[i - 1] === to[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[to.length];
}

/**
 * Warns of each unknown key of pulumi-crm's namespaces in the program's stack config, once per
 * program run. Only a program has a resource monitor and the whole stack config at hand.
 */
export function warnOfUnknownSettings(): void {
  if (!pulumi.runtime.hasMonitor()) return;
  for (const warning of unknownSettingWarnings(Object.keys(pulumi.runtime.allConfig()), pulumi.getProject())) pulumi.log.warn(warning);
}

/**
 * Why a program of dynamic resources must not run, if it must not: an API key in the stack's
 * configuration in plain text (`pulumi config set crm:apiToken <key>` without `--secret`). The
 * dynamic provider host's resource holds the whole stack configuration as its inputs, secret only
 * where the stack marks it so: such a key would be stored in plain text in the state, its
 * checkpoints, backups and update history. The plugin marks its settings secret itself (CheckConfig).
 */
export function plainKeyRefusal(): string | undefined {
  if (!pulumi.runtime.hasMonitor()) return undefined;
  // Not in the SDK's declarations, but in every release since 3.x's first secrets: what Config.getSecret reads.
  const { isConfigSecret } = require("@pulumi/pulumi/runtime/config") as { isConfigSecret(key: string): boolean };
  const config = pulumi.runtime.allConfig();
  const plain = [crmService, chatService].map((spec) => spec.token).filter((token) => config[token.key] !== undefined && !isConfigSecret(token.key));
  if (!plain.length) return undefined;
  const keys = plain.map((token) => token.key).join(" and ");
  return (
    `pulumi-crm: ${keys} ${plain.length > 1 ? "are" : "is"} in the stack's configuration in plain text, which the dynamic resources' provider would store ` +
    `as it is in the state (its checkpoints, backups and update history); nothing was sent or stored. Store the key as a secret: ` +
    `${plain.map((token) => `\`pulumi config set --secret ${token.key} <key>\``).join(", ")}, or remove it from the configuration ` +
    `(\`pulumi config rm ${plain[0].key}\`) and set ${plain.map((token) => token.env).join(" or ")} in the environment.`
  );
}

/**
 * The chat service's channel path segment: `chat` in the service's specification,
 * `whatsapp` on the real service's paths, so it is a setting and not a constant.
 */
export function chatChannel(resource: string): string {
  const channel = read(channelSetting) ?? "chat";
  if (!/^[a-z][a-z0-9_-]*$/.test(channel)) {
    throw new SettingsError(`${resource}: ${settingName(channelSetting.key)} must be a channel path segment such as chat or whatsapp, got "${channel}".`);
  }
  return channel;
}
