// The plugin door: the native provider plugins, pulumi-resource-crm and
// pulumi-resource-chat. Pulumi's ResourceProvider gRPC service, served with the stubs
// @pulumi/pulumi ships, translating each call, by token, to the same provider core
// (../kit/core.ts) the dynamic classes serve, and Invoke to the lookups. It decides
// nothing of its own: the diff's fields, what an import declares, the unique names and
// unknown settings are the core's and the kit's rules. Not the SDK's
// provider.main(), which leaves CheckConfig and DiffConfig unimplemented and ignores the
// config Configure is sent (pulumi/pulumi#10915), losing an explicit provider's settings.
//
// The engine starts one plugin process per provider resource (the package's default
// provider, and each explicit one), and connects to it once. Each connection is a provider
// instance of its own (ProviderServer): it keeps the settings it was configured with and
// runs every call under them (settings.withProviderSettings), so that its resources go to
// its own account, and in its own deployment's state (kit/deployment.ts). So one process
// can serve the deployments of many stacks, each connecting with PULUMI_DEBUG_PROVIDERS
// (Attach), as `pulumi-crm fleet` runs its stacks. Limiters, coalesced reads and bulk
// writes are keyed by account, and shared by every resource one process serves.

import type { ServerUnaryCall, sendUnaryData, ServiceError as GrpcError, UntypedServiceImplementation } from "@grpc/grpc-js";
import type * as provider from "@pulumi/pulumi/proto/provider_pb";
import chatSchema from "../../schema/chat.json";
import crmSchema from "../../schema/crm.json";
import * as lookups from "../crm/lookups";
import { keepHostMemorySmall } from "../host-memory";
import type * as plugin from "@pulumi/pulumi/proto/plugin_pb";
import { takeAdoptionSummary } from "../kit/adoption";
import { sameValue } from "../kit/check-diff";
import { type Changes, hasChanges, type ResourceCore } from "../kit/core";
import { type Deployment, withDeployment } from "../kit/deployment";
import { containsUnknown } from "../kit/inputs";
import { type LogSink, type Severity, useProcessLog, withLog } from "../kit/log";
import { DeclaredNames } from "../kit/unique-names";
import { resources } from "../registry";
import { type ConfigSource, isDefaultProviderName, movesAccount, unknownSettingWarnings, withProviderSettings } from "../settings";
import { type Properties, propertiesOf, structOf, unwrapSecrets } from "./properties";
import { anyProto, emptyProto, engineProto, engineServices, grpc, pluginProto, providerProto, providerServices, statusProto } from "./sdk-modules";

export type PackageName = "crm" | "chat";

interface PackageSchema {
  version: string;
  config: { variables: Record<string, { type: string; secret?: boolean }> };
  functions?: Record<string, unknown>;
}

const schemas: Record<PackageName, PackageSchema> = { crm: crmSchema, chat: chatSchema };

/** The lookups Invoke runs, by name (`getAccount` for `crm:index:getAccount`). */
const functions: Record<PackageName, Record<string, unknown>> = { crm: lookups, chat: {} };

// Inputs the engine itself gives every provider resource, which are no setting of ours.
const engineProviderInputs = new Set(["version", "pluginDownloadURL"]);

const { DiffResponse, PropertyDiff } = providerProto;

/** The type of the resource a URN names: `urn:pulumi:<stack>::<project>::<parent types$>type::<name>`. */
const typeOfUrn = (urn: string) => urn.split("::")[2]?.split("$").pop() ?? "";
const projectOfUrn = (urn: string) => urn.split("::")[1] ?? "";

/** The engine's log, where the plugin's lines go: each attached to the resource of the call that said it (`urn`), if any; settled once the engine took it. */
type EngineLog = (severity: Severity, message: string, urn?: string) => Promise<void>;

function engineLog(address: string): EngineLog {
  const engine = new engineServices.EngineClient(address, grpc.credentials.createInsecure());
  const severities = { info: engineProto.LogSeverity.INFO, warning: engineProto.LogSeverity.WARNING };
  return (severity, message, urn = "") =>
    new Promise((resolve) => {
      const request = new engineProto.LogRequest().setSeverity(severities[severity]).setMessage(message).setUrn(urn);
      engine.log(request, (error) => {
        // A line the engine did not take goes to stderr, which the engine shows too.
        if (error) console.error(message);
        resolve();
      });
    });
}

/** An error for the engine: its message alone (never a stack); with the object it left behind, for "failed to initialize". */
function grpcError(error: unknown): GrpcError {
  const message = error instanceof Error ? error.message : String(error);
  const metadata = new grpc.Metadata();
  const partial = error as { id?: unknown; properties?: Properties; reasons?: string[] };
  if (typeof partial.id === "string" && partial.id) {
    const failed = new providerProto.ErrorResourceInitFailed();
    failed.setId(partial.id);
    failed.setProperties(structOf(partial.properties));
    failed.setReasonsList(partial.reasons ?? [message]);
    const detail = new anyProto.Any();
    detail.pack(failed.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusProto.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(detail);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return Object.assign(new Error(message), { code: grpc.status.UNKNOWN, details: message, metadata });
}

/** One provider instance's service (one engine connection's): the package's resources and functions, under the settings Configure gave it, in its own deployment. */
export class ProviderServer {
  private readonly schema: PackageSchema;
  private readonly schemaText: string;
  private readonly cores = new Map<string, ResourceCore>();
  private readonly settingKeys: string[];
  /** Set by Configure: this provider's settings, e.g. `{ apiUrl, apiToken }`. */
  private settings?: Properties;
  /** Set by Configure: the name of this provider when it is an explicit one (a default provider is `default` or `default_<version>`). */
  private explicitName?: string;
  /** The unique names this provider's resources declared in this deployment. */
  private readonly declaredNames = new DeclaredNames();
  /** What this provider's deployment made, claimed and took over. */
  private readonly deployment: Deployment = new Map();

  /** `log`: the engine's, where the plugin's lines go, until Attach names another; without one (a test), the process's. */
  constructor(
    readonly pkg: PackageName,
    private log?: EngineLog,
  ) {
    this.schema = schemas[pkg];
    this.schemaText = JSON.stringify(this.schema);
    this.settingKeys = Object.keys(this.schema.config.variables);
    for (const resource of resources) {
      if (resource.namespace === pkg) this.cores.set(resource.definition.declaration.token, resource.definition.core);
    }
  }

  /** The settings source of this provider: `crm:apiUrl` read from its own settings, never from the stack's when they are not given. */
  private settingsSource(): ConfigSource {
    const settings = this.settings ?? {};
    return {
      get: (key) => {
        const [namespace, name] = key.split(":");
        const value = namespace === this.pkg ? settings[name] : undefined;
        return value === undefined || value === null ? undefined : String(value);
      },
      provider: this.explicitName,
    };
  }

  private core(urn: string, type?: string): ResourceCore {
    const token = type || typeOfUrn(urn);
    const found = this.cores.get(token);
    if (!found) throw new Error(`pulumi-resource-${this.pkg} has no resource type ${token}; it serves ${[...this.cores.keys()].join(", ")}.`);
    return found;
  }

  /** The gRPC service's methods, each answering its request under this provider's settings, its lines attached to the request's resource. */
  handlers(): UntypedServiceImplementation {
    const serve =
      <Request>(handler: (request: Request) => unknown) =>
      (call: ServerUnaryCall<Request, unknown>, callback: sendUnaryData<unknown>) => {
        const urn = (call.request as { getUrn?(): string }).getUrn?.() ?? "";
        const log = this.log;
        const sink: LogSink | undefined = log && ((severity, message) => void log(severity, message, urn));
        const answer = () => withDeployment(this.deployment, () => withProviderSettings(this.settingsSource(), async () => handler(call.request)));
        (sink ? withLog(sink, answer) : answer()).then(
          (response) => callback(null, response),
          (error: unknown) => callback(grpcError(error)),
        );
      };
    return {
      // An engine that connects to a running plugin (PULUMI_DEBUG_PROVIDERS) says where its log is.
      attach: serve((request: plugin.PluginAttach) => {
        this.log = engineLog(request.getAddress());
        return new emptyProto.Empty();
      }),
      getPluginInfo: serve(() => new pluginProto.PluginInfo().setVersion(this.schema.version)),
      getSchema: serve((request: provider.GetSchemaRequest) => {
        if (request.getVersion() !== 0) throw new Error(`unsupported schema version ${request.getVersion()}`);
        return new providerProto.GetSchemaResponse().setSchema(this.schemaText);
      }),
      checkConfig: serve((request: provider.CheckRequest) => this.checkConfig(request)),
      diffConfig: serve((request: provider.DiffRequest) => this.diffConfig(request)),
      configure: serve((request: provider.ConfigureRequest) => this.configure(request)),
      check: serve((request: provider.CheckRequest) => this.check(request)),
      diff: serve((request: provider.DiffRequest) => this.diff(request)),
      create: serve((request: provider.CreateRequest) => this.create(request)),
      read: serve((request: provider.ReadRequest) => this.read(request)),
      update: serve((request: provider.UpdateRequest) => this.update(request)),
      delete: serve((request: provider.DeleteRequest) => this.delete(request)),
      invoke: serve((request: provider.InvokeRequest) => this.invoke(request)),
      // The engine cancels each plugin as the deployment ends, before it ends the process. Each call ends on its
      // own (the transport's timeout): what is left is to say what the deployment took over, while the engine listens.
      cancel: serve(async () => {
        const summary = takeAdoptionSummary();
        if (summary) await this.log?.("info", summary);
        return new emptyProto.Empty();
      }),
    };
  }

  /**
   * The settings as given, each secret one (the API key) marked secret, so that the state
   * holds it encrypted even when the stack config holds it in plain text; an unknown setting
   * is warned of as the dynamic classes warn of it (see unknownSettingWarnings).
   */
  private checkConfig(request: provider.CheckRequest) {
    const urn = request.getUrn();
    const news = propertiesOf(request.getNews());
    const name = urn.split("::").pop() ?? "";
    const source = { provider: explicitProvider(name, news, this.settingKeys) };
    const given = Object.keys(news).filter((key) => !engineProviderInputs.has(key) && !key.startsWith("__"));
    for (const warning of unknownSettingWarnings(
      given.map((key) => `${this.pkg}:${key}`),
      projectOfUrn(urn),
      source,
    ))
      this.log?.("warning", warning, urn);
    const secrets = this.settingKeys.filter((key) => this.schema.config.variables[key].secret);
    return new providerProto.CheckResponse().setInputs(structOf(news, secrets));
  }

  /** A changed address is another account: the provider is replaced, and its resources with it (settings.movesAccount); any other changed setting updates it. */
  private diffConfig(request: provider.DiffRequest) {
    const olds = propertiesOf(request.getOldInputs() ?? request.getOlds());
    const news = propertiesOf(request.getNews());
    const changed = this.settingKeys.filter((key) => containsUnknown(news[key]) || !sameValue(olds[key], news[key]));
    const fields = changed.map((key) => ({ field: key, replace: movesAccount(`${this.pkg}:${key}`, olds[key], news[key], containsUnknown(news[key])) }));
    return detailedDiff({ fields }, olds, news);
  }

  private configure(request: provider.ConfigureRequest) {
    const args = request.getArgs();
    // Older engines send only the variables, as `crm:config:apiUrl`.
    this.settings = args
      ? propertiesOf(args)
      : Object.fromEntries([...request.getVariablesMap().entries()].map(([key, value]) => [key.split(":").pop()!, unwrapSecrets(value)]));
    // The provider's name, the URN's last part: `default` or `default_<version>` for a default provider.
    const name = request.getName() || request.getUrn()?.split("::").pop();
    this.explicitName = explicitProvider(name, this.settings, this.settingKeys);
    // Secrets are unwrapped here, and secret outputs marked by the plugin itself (structOf).
    return new providerProto.ConfigureResponse().setAcceptsecrets(false).setSupportspreview(false);
  }

  private async check(request: provider.CheckRequest) {
    const core = this.core(request.getUrn(), request.getType());
    const result = await core.check(propertiesOf(request.getOlds()), propertiesOf(request.getNews()));
    // The unique-name rule, checked here where one process sees every resource of its provider.
    const unique = core.uniqueName;
    const refused = !result.failures?.length && result.inputs && unique && this.declaredNames.claim(core, result.inputs, request.getUrn());
    const failures = refused ? [{ property: unique!.field, reason: refused.message }] : (result.failures ?? []);
    const response = new providerProto.CheckResponse();
    if (result.inputs && !failures.length) response.setInputs(structOf(result.inputs));
    return response.setFailuresList(failures.map((failure) => new providerProto.CheckFailure().setProperty(failure.property).setReason(failure.reason)));
  }

  private async diff(request: provider.DiffRequest) {
    const core = this.core(request.getUrn(), request.getType());
    const olds = propertiesOf(request.getOlds());
    const news = propertiesOf(request.getNews());
    return detailedDiff(await core.diff(request.getId(), olds, news), olds, news);
  }

  private async create(request: provider.CreateRequest) {
    const core = this.core(request.getUrn(), request.getType());
    const { id, outs } = await core.create(propertiesOf(request.getProperties()));
    return new providerProto.CreateResponse().setId(id).setProperties(structOf(outs, core.declaration.secretOutputs));
  }

  /** A refresh's read, from the stored outputs; an import's, from the id alone, where the core declares its type importable. Inputs come back too, so an import gets its program's inputs. */
  private async read(request: provider.ReadRequest) {
    const core = this.core(request.getUrn(), request.getType());
    const stored = propertiesOf(request.getProperties());
    const props = Object.keys(stored).length ? stored : propertiesOf(request.getInputs());
    const importing = !Object.keys(props).length;
    if (importing && core.importable !== true) throw new Error(`${core.declaration.type} ${request.getId()} cannot be imported: ${core.importable.refused}.`);
    const found = await core.read(request.getId(), importing ? { import: true } : { refresh: props });
    const response = new providerProto.ReadResponse();
    // No id: the object is gone.
    if (!found) return response;
    return response.setId(found.id).setProperties(structOf(found.outputs, core.declaration.secretOutputs)).setInputs(structOf(found.inputs));
  }

  private async update(request: provider.UpdateRequest) {
    const core = this.core(request.getUrn(), request.getType());
    const { outs } = await core.update(request.getId(), propertiesOf(request.getOlds()), propertiesOf(request.getNews()));
    return new providerProto.UpdateResponse().setProperties(structOf(outs, core.declaration.secretOutputs));
  }

  private async delete(request: provider.DeleteRequest) {
    const core = this.core(request.getUrn(), request.getType());
    await core.delete(request.getId(), propertiesOf(request.getProperties()));
    return new emptyProto.Empty();
  }

  private async invoke(request: provider.InvokeRequest) {
    const token = request.getTok();
    const name = token.split(":").pop()!;
    const lookup = functions[this.pkg][name];
    if (!this.schema.functions?.[token] || typeof lookup !== "function") {
      throw new Error(`pulumi-resource-${this.pkg} has no function ${token}; it serves ${Object.keys(this.schema.functions ?? {}).join(", ") || "none"}.`);
    }
    const result = await (lookup as (args: Properties) => Promise<Properties>)(propertiesOf(request.getArgs()));
    return new providerProto.InvokeResponse().setReturn(structOf(result));
  }
}

/**
 * The name of an explicit provider; undefined for the package's default provider, told by what the
 * engine says of it rather than by a name pattern (an explicit provider may be named `default_eu`):
 * the engine names its default provider so (isDefaultProviderName), and configures it with the
 * stack's settings of the package, which it also hands the plugin's process as PULUMI_CONFIG.
 * (After the stack's settings change, a refresh or destroy configures the default provider from
 * the state until an up: it is then named as an explicit provider, whose settings it has.)
 */
export function explicitProvider(
  name: string | undefined,
  inputs: Properties,
  settingKeys: string[],
  stackConfig = process.env.PULUMI_CONFIG,
): string | undefined {
  if (!name) return undefined;
  if (!isDefaultProviderName(name, typeof inputs.version === "string" ? inputs.version : undefined)) return name;
  // Every engine hands it; a plugin served by a test's own client has the name alone.
  if (stackConfig === undefined) return undefined;
  const stack = JSON.parse(stackConfig) as Record<string, unknown>;
  const given = (value: unknown) => (value === undefined || value === null || value === "" ? undefined : String(value));
  return settingKeys.every((key) => given(inputs[key]) === given(stack[key])) ? undefined : name;
}

/**
 * The core's changes as the engine's diff: each changed input an update or a replacement in
 * the detailed diff; a change tied to no input (an action to carry on) makes the diff SOME
 * with no property named.
 */
function detailedDiff(changes: Changes, olds: Properties, news: Properties): provider.DiffResponse {
  const { Kind } = PropertyDiff;
  const unset = (value: unknown) => value === undefined || value === null;
  const replaces = changes.fields.filter((change) => change.replace).map((change) => change.field);
  const response = new DiffResponse()
    .setChanges(hasChanges(changes) ? DiffResponse.DiffChanges.DIFF_SOME : DiffResponse.DiffChanges.DIFF_NONE)
    .setReplacesList(replaces)
    .setDiffsList(changes.fields.map((change) => change.field))
    .setDeletebeforereplace(changes.deleteBeforeReplace ?? false)
    .setHasdetaileddiff(true);
  for (const { field, replace } of changes.fields) {
    const kind = unset(olds[field])
      ? replace
        ? Kind.ADD_REPLACE
        : Kind.ADD
      : unset(news[field])
        ? replace
          ? Kind.DELETE_REPLACE
          : Kind.DELETE
        : replace
          ? Kind.UPDATE_REPLACE
          : Kind.UPDATE;
    response.getDetaileddiffMap().set(field, new PropertyDiff().setKind(kind).setInputdiff(true));
  }
  return response;
}

// As @pulumi/pulumi's own servers: a state can be large.
const maxMessageBytes = 400 * 1024 * 1024;

/**
 * Serves `pkg` on a loopback port, a provider instance for each connection (its peer address),
 * their lines to the engine at `engine` if given, and answers the port. An instance ends with
 * the Cancel the engine sends as it closes its plugins.
 */
export async function servePlugin(pkg: PackageName, options: { address?: string; engine?: string } = {}): Promise<{ port: number; stop(): Promise<void> }> {
  keepHostMemorySmall();
  const log = options.engine ? engineLog(options.engine) : undefined;
  // Lines said outside a call go to the engine too, attached to no resource.
  if (log) useProcessLog((severity, message) => void log(severity, message));
  const instances = new Map<string, UntypedServiceImplementation>();
  const methods = Object.keys(new ProviderServer(pkg).handlers());
  const routed = Object.fromEntries(
    methods.map((method) => [
      method,
      (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
        const peer = call.getPeer();
        let instance = instances.get(peer);
        if (!instance) instances.set(peer, (instance = new ProviderServer(pkg, log).handlers()));
        if (method === "cancel") instances.delete(peer);
        (instance[method] as (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void)(call, callback);
      },
    ]),
  );
  const server = new grpc.Server({ "grpc.max_receive_message_length": maxMessageBytes });
  server.addService(providerServices.ResourceProviderService, routed);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(options.address ?? "127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { port, stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())) };
}

/** A plugin's main: the engine runs it with its own address as the argument, and reads the port from the first line of stdout. */
export function pluginMain(pkg: PackageName): void {
  // A failure no call awaited is printed, and the plugin serves on.
  process.on("unhandledRejection", (error) => console.error(`pulumi-resource-${pkg}: ${error instanceof Error ? error.message : String(error)}`));
  // A plugin `pulumi-crm fleet` shares among its stacks is the fleet's to end: a Ctrl-C is the
  // CLIs', which stop their updates cleanly through it, and it ends should the fleet end first.
  const fleet = Number(process.env.PULUMI_CRM_FLEET_PID);
  if (fleet) {
    process.on("SIGINT", () => undefined);
    setInterval(() => process.ppid !== fleet && process.exit(0), 1000).unref();
  }
  servePlugin(pkg, { engine: process.argv[2] }).then(
    ({ port }) => console.log(String(port)),
    (error: unknown) => {
      console.error(`pulumi-resource-${pkg}: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
