// The clients file of an agency's fleet: one JSON document naming the program every client's
// stack runs and, per client, its stack, its account's API address, where its API key comes from
// (an environment variable, or a secret already in the stack: never the key itself) and its own
// values of the program's settings. See sdk-docs/agencies.md.

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import chatSchema from "../../../schema/chat.json";
import crmSchema from "../../../schema/crm.json";

/** Where a client's API key comes from: never the key itself. */
export type KeySource = { env: string } | { stack: true };

/** A client's value of a setting: written in the file (a secret if marked so, or if the schema calls the setting secret), or read from an environment variable and written as a secret. */
export type SettingValue = { value: string; secret: boolean } | { env: string };

export interface Client {
  /** The client's stack: `acme`, or `org/project/acme` on Pulumi Cloud. */
  stack: string;
  /** The client account's API address, set as `crm:apiUrl`. */
  apiUrl: string;
  apiToken: KeySource;
  /** The client's values of the program's settings (keys without a namespace are the project's). */
  config: Record<string, SettingValue>;
}

export interface ClientsFile {
  /** The absolute path of the file. */
  path: string;
  /** The absolute path of the program folder (holding Pulumi.yaml) every client's stack runs. */
  program: string;
  clients: Client[];
  /**
   * Who keeps the secrets of the stacks the fleet makes, as `pulumi stack init --secrets-provider`
   * takes it: `passphrase`, or a key service's URL (awskms://, azurekeyvault://, gcpkms://,
   * hashivault://), whose CLI calls derive no key from a passphrase. Unset: the backend's default.
   */
  secretsProvider?: string;
}

/** A mistake in the clients file, found before any stack is touched: the command exits 2 with its message. */
export class ClientsFileError extends Error {}

// Pulumi's stack names: letters, digits, `-`, `_`, `.`; qualified as org/stack or org/project/stack.
const STACK_NAME = /^(?:[A-Za-z0-9_.-]+\/){0,2}[A-Za-z0-9_.-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CONFIG_KEY = /^(?:[A-Za-z0-9_.-]+:)?[A-Za-z0-9_.-]+$/;
/** The settings the packages' schemas call secret (`chat:apiToken`): always written as secrets. */
const SECRET_SETTINGS = new Set(
  Object.entries({ crm: crmSchema, chat: chatSchema }).flatMap(([pkg, schema]) =>
    Object.entries(schema.config.variables as Record<string, { secret?: boolean }>).flatMap(([name, variable]) => (variable.secret ? [`${pkg}:${name}`] : [])),
  ),
);
/** Set from apiUrl and apiToken: a client's `config` must not set them too. */
const RESERVED_KEYS = new Set(["crm:apiUrl", "crm:apiToken"]);

/** Reads and checks the clients file at `path`; `program` overrides the file's own (both relative to where they are given). */
export function readClientsFile(path: string, program?: string): ClientsFile {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ClientsFileError(`cannot read the clients file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ClientsFileError(`${file} is not JSON: ${(error as Error).message}`);
  }
  return parseClients(document, file, program);
}

/** Checks a clients document read from `file`; every message names the file, the client and the field. */
export function parseClients(document: unknown, file: string, program?: string): ClientsFile {
  const fail = (message: string): never => {
    throw new ClientsFileError(`${file}: ${message}`);
  };
  if (!isObject(document)) return fail('must hold a JSON object {"program": "<folder>", "clients": [...]}');
  const unknownTop = Object.keys(document).filter((key) => !FILE_FIELDS.includes(key));
  if (unknownTop.length)
    fail(`unknown field ${unknownTop.map((key) => `"${key}"`).join(", ")}; the fields are ${FILE_FIELDS.map((key) => `"${key}"`).join(", ")}`);
  if (document.program !== undefined && typeof document.program !== "string") fail('"program" must be the program\'s folder, relative to the file');
  const secretsProvider = document.secretsProvider;
  if (secretsProvider !== undefined && !isSecretsProvider(secretsProvider))
    fail(
      `"secretsProvider" must be "passphrase" or a key service's URL the pulumi CLI takes: ${SECRETS_SCHEMES.map((scheme) => `${scheme}://...`).join(", ")} (left out: the backend's default)`,
    );
  if (!Array.isArray(document.clients) || document.clients.length === 0) fail('"clients" must be a list of at least one client');
  const seen = new Set<string>();
  const clients = (document.clients as unknown[]).map((entry, index) => {
    const client = parseClient(entry, (message) =>
      fail(`client ${index + 1}${isObject(entry) && typeof entry.stack === "string" ? ` ("${entry.stack}")` : ""}: ${message}`),
    );
    if (seen.has(client.stack)) fail(`client ${index + 1}: stack "${client.stack}" is named twice; each client has a stack of its own`);
    seen.add(client.stack);
    return client;
  });
  const programFolder = program !== undefined ? resolve(program) : resolve(dirname(file), (document.program as string | undefined) ?? ".");
  return { path: file, program: programFolder, clients, ...(secretsProvider !== undefined && { secretsProvider: secretsProvider as string }) };
}

const FILE_FIELDS = ["program", "secretsProvider", "clients"];

/** The key services of the pulumi CLI's cloud secrets provider (pkg/secrets/cloud). */
const SECRETS_SCHEMES = ["awskms", "azurekeyvault", "gcpkms", "hashivault"];

function isSecretsProvider(value: unknown): value is string {
  if (value === "passphrase") return true;
  return typeof value === "string" && SECRETS_SCHEMES.some((scheme) => value.startsWith(`${scheme}://`) && value.length > scheme.length + 3);
}

const CLIENT_FIELDS = ["stack", "apiUrl", "apiToken", "config"];

function parseClient(entry: unknown, fail: (message: string) => never): Client {
  if (!isObject(entry)) return fail('must be an object {"stack", "apiUrl", "apiToken", "config"}');
  const unknown = Object.keys(entry).filter((key) => !CLIENT_FIELDS.includes(key));
  if (unknown.length) fail(`unknown field ${unknown.map((key) => `"${key}"`).join(", ")}; the fields are ${CLIENT_FIELDS.map((key) => `"${key}"`).join(", ")}`);
  const { stack, apiUrl, apiToken, config = {} } = entry;
  if (typeof stack !== "string" || !STACK_NAME.test(stack))
    fail('"stack" must be a stack name: letters, digits, "-", "_", "." (or org/stack, org/project/stack)');
  if (typeof apiUrl !== "string" || apiUrl.trim() === "") fail('"apiUrl" must be the account\'s API address, e.g. "https://acme.api-us1.com"');
  const settingValue = (value: unknown) =>
    ["string", "number", "boolean"].includes(typeof value) || (isObject(value) && Object.keys(value).join() === "secret" && typeof value.secret === "string");
  if (!isObject(config) || !Object.values(config).every(settingValue)) {
    fail(
      '"config" must be an object of the program\'s settings, each a string, number or boolean, "env:<VARIABLE>" (read from the environment, written as a secret) or {"secret": "<value>"}',
    );
  }
  for (const key of Object.keys(config as object)) {
    if (!CONFIG_KEY.test(key)) fail(`config key "${key}" is not a setting name (name, or namespace:name)`);
    if (RESERVED_KEYS.has(key)) fail(`config key "${key}" is set from "${key === "crm:apiUrl" ? "apiUrl" : "apiToken"}"; give it there`);
  }
  return {
    stack: stack as string,
    apiUrl: (apiUrl as string).trim(),
    apiToken: keySource(apiToken, fail),
    config: Object.fromEntries(Object.entries(config as Record<string, unknown>).map(([key, value]) => [key, settingOf(key, value)])),
  };
}

/** A setting's value as written: `env:<VARIABLE>` read from the environment, `{"secret": ...}` and the schema's secret settings as secrets. */
function settingOf(key: string, value: unknown): SettingValue {
  if (typeof value === "string" && value.startsWith("env:") && ENV_NAME.test(value.slice(4))) return { env: value.slice(4) };
  if (isObject(value)) return { value: value.secret as string, secret: true };
  return { value: String(value), secret: SECRET_SETTINGS.has(key) };
}

function keySource(value: unknown, fail: (message: string) => never): KeySource {
  const explain =
    '"apiToken" must say where the key comes from: "env:<VARIABLE>" (an environment variable holding it, set as a secret in the stack) ' +
    'or "stack" (a secret already in the stack, set with `pulumi config set --secret crm:apiToken <key> --stack <stack>`); the key itself is never written in the clients file';
  if (value === "stack") return { stack: true };
  if (typeof value === "string" && value.startsWith("env:") && ENV_NAME.test(value.slice(4))) return { env: value.slice(4) };
  // Whatever else was given is not repeated: it may be a key.
  return fail(explain);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The clients whose stacks `only` names (all of them when it is undefined); a name of no client is an error. */
export function selectClients(clients: Client[], only: string[] | undefined): Client[] {
  if (!only) return clients;
  const unknown = only.filter((stack) => !clients.some((client) => client.stack === stack));
  if (unknown.length)
    throw new ClientsFileError(`--only: ${unknown.join(", ")} ${unknown.length === 1 ? "is" : "are"} not a client's stack in the clients file`);
  return clients.filter((client) => only.includes(client.stack));
}
