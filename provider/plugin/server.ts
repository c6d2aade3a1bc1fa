// The native provider plugins, pulumi-resource-crm and pulumi-resource-chat: Pulumi's
// ResourceProvider gRPC service, served with the stubs @pulumi/pulumi ships, and
// dispatching by token to the same resource modules (their check, diff, create, read,
// update, delete) the dynamic classes use, and to the lookups for Invoke. Not the SDK's
// provider.main(), which leaves CheckConfig and DiffConfig unimplemented and ignores the
// config Configure is sent (pulumi/pulumi#10915), losing an explicit provider's settings.
//
// The engine starts one plugin process per provider resource (the package's default
// provider, and each explicit one); a server keeps the settings it was configured with
// and runs every call under them (settings.withProviderSettings), so that its resources
// go to its own account. Limiters, coalesced reads and bulk writes are keyed by account,
// and shared by every resource one process serves.

import type { ServerUnaryCall, sendUnaryData, ServiceError as GrpcError, UntypedServiceImplementation } from "@grpc/grpc-js";
import type * as provider from "@pulumi/pulumi/proto/provider_pb";
import chatSchema from "../../schema/chat.json";
import crmSchema from "../../schema/crm.json";
import * as lookups from "../crm/lookups";
import { keepHostMemorySmall } from "../host-memory";
import { sameValue } from "../kit/check-diff";
import { containsUnknown, unknownValue } from "../kit/inputs";
import { declaredTwice } from "../kit/resource-class";
import { ResourceModule, resources } from "../registry";
import { ConfigSource, withProviderSettings } from "../settings";
import { Properties, propertiesOf, structOf, unwrapSecrets } from "./properties";
import { anyProto, emptyProto, grpc, pluginProto, providerProto, providerServices, statusProto } from "./sdk-modules";

export type PackageName = "crm" | "chat";

interface PackageSchema {
  version: string;
  config: { variables: Record<string, unknown> };
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

/** One provider instance's service: the package's resources and functions, under the settings Configure gave it. */
export class ProviderServer {
  private readonly schema: PackageSchema;
  private readonly schemaText: string;
  private readonly modules = new Map<string, ResourceModule>();
  private readonly settingKeys: string[];
  /** Set by Configure: this provider's settings, e.g. `{ apiUrl, apiToken }`. */
  private settings?: Properties;
  /** The unique names (see ResourceModule.uniqueName) checked so far, by token, then by name in lower case: the URN declaring it. */
  private readonly declaredNames = new Map<string, Map<string, string>>();

  constructor(readonly pkg: PackageName) {
    this.schema = schemas[pkg];
    this.schemaText = JSON.stringify(this.schema);
    this.settingKeys = Object.keys(this.schema.config.variables);
    for (const resource of resources) {
      if (resource.namespace === pkg) this.modules.set(resource.module.declaration.token, resource.module);
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
    };
  }

  private module(urn: string, type?: string): ResourceModule {
    const token = type || typeOfUrn(urn);
    const found = this.modules.get(token);
    if (!found) throw new Error(`pulumi-resource-${this.pkg} has no resource type ${token}; it serves ${[...this.modules.keys()].join(", ")}.`);
    return found;
  }

  /** The gRPC service's methods, each answering its request under this provider's settings. */
  handlers(): UntypedServiceImplementation {
    const serve =
      <Request>(handler: (request: Request) => unknown) =>
      (call: ServerUnaryCall<Request, unknown>, callback: sendUnaryData<unknown>) => {
        withProviderSettings(this.settingsSource(), async () => handler(call.request)).then(
          (response) => callback(null, response),
          (error: unknown) => callback(grpcError(error)),
        );
      };
    return {
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
      // Each call ends on its own (the transport's timeout); nothing is left to stop.
      cancel: serve(() => new emptyProto.Empty()),
    };
  }

  /** An unknown setting is named, with the known ones: a misspelt key would otherwise be dropped and the stack's account used. */
  private checkConfig(request: provider.CheckRequest) {
    const news = propertiesOf(request.getNews());
    const unknown = Object.keys(news).filter((key) => !this.settingKeys.includes(key) && !engineProviderInputs.has(key) && !key.startsWith("__"));
    const response = new providerProto.CheckResponse().setInputs(request.getNews());
    return response.setFailuresList(
      unknown.map((key) =>
        new providerProto.CheckFailure()
          .setProperty(key)
          .setReason(`pulumi:providers:${this.pkg}: ${key} is not a setting of the ${this.pkg} provider; its settings are ${this.settingKeys.join(", ")}.`),
      ),
    );
  }

  /** A changed setting updates the provider; its resources stay (they are read from the new settings' account next). */
  private diffConfig(request: provider.DiffRequest) {
    const olds = propertiesOf(request.getOldInputs() ?? request.getOlds());
    const news = propertiesOf(request.getNews());
    const changed = this.settingKeys.filter((key) => containsUnknown(news[key]) || !sameValue(olds[key], news[key]));
    return detailedDiff(changed, [], olds, news);
  }

  private configure(request: provider.ConfigureRequest) {
    const args = request.getArgs();
    // Older engines send only the variables, as `crm:config:apiUrl`.
    this.settings = args
      ? propertiesOf(args)
      : Object.fromEntries([...request.getVariablesMap().entries()].map(([key, value]) => [key.split(":").pop()!, unwrapSecrets(value)]));
    // Secrets are unwrapped here, and secret outputs marked by the plugin itself (structOf).
    return new providerProto.ConfigureResponse().setAcceptsecrets(false).setSupportspreview(false);
  }

  private async check(request: provider.CheckRequest) {
    const module = this.module(request.getUrn(), request.getType());
    const result = await module.check!(propertiesOf(request.getOlds()), propertiesOf(request.getNews()));
    const failures = result.failures ?? (result.inputs ? this.declaredTwice(module, request.getUrn(), result.inputs) : []);
    const response = new providerProto.CheckResponse();
    if (result.inputs && !failures.length) response.setInputs(structOf(result.inputs));
    return response.setFailuresList(failures.map((failure) => new providerProto.CheckFailure().setProperty(failure.property).setReason(failure.reason)));
  }

  /**
   * A unique name that another resource of this provider declared in this deployment: the
   * check the dynamic classes make where the program runs (declaredOnce), made here, where
   * one process sees every resource of its provider, so that it holds in every language.
   */
  private declaredTwice(module: ResourceModule, urn: string, inputs: Properties): { property: string; reason: string }[] {
    const unique = module.uniqueName;
    const name = unique && inputs[unique.field];
    if (!unique || typeof name !== "string" || name === unknownValue) return [];
    const token = module.declaration.token;
    if (!this.declaredNames.has(token)) this.declaredNames.set(token, new Map());
    const declared = this.declaredNames.get(token)!;
    const by = declared.get(name.toLowerCase());
    if (by !== undefined && by !== urn) return [{ property: unique.field, reason: declaredTwice(module.declaration.type, unique, name).message }];
    declared.set(name.toLowerCase(), urn);
    return [];
  }

  private async diff(request: provider.DiffRequest) {
    const module = this.module(request.getUrn(), request.getType());
    const olds = propertiesOf(request.getOlds());
    const news = propertiesOf(request.getNews());
    const result = await module.diff!(request.getId(), olds, news);
    if (!result.changes) return new DiffResponse().setChanges(result.changes === false ? DiffResponse.DiffChanges.DIFF_NONE : DiffResponse.DiffChanges.DIFF_UNKNOWN);
    const replaces = result.replaces ?? [];
    const compared = module.declaration.fields.filter((field) => field.role === "both").map((field) => field.name);
    const changed = compared.filter((name) => replaces.includes(name) || containsUnknown(news[name]) || !sameValue(olds[name], news[name]));
    return detailedDiff(changed, replaces, olds, news).setDeletebeforereplace(result.deleteBeforeReplace ?? false);
  }

  private async create(request: provider.CreateRequest) {
    const module = this.module(request.getUrn(), request.getType());
    const { id, outs } = await module.create(propertiesOf(request.getProperties()));
    return new providerProto.CreateResponse().setId(id).setProperties(structOf(outs, module.declaration.secretOutputs));
  }

  /** A refresh's read, from the stored outputs; an import's, from the id alone. Inputs come back too, so an import gets its program's inputs. */
  private async read(request: provider.ReadRequest) {
    const module = this.module(request.getUrn(), request.getType());
    const stored = propertiesOf(request.getProperties());
    const props = Object.keys(stored).length ? stored : propertiesOf(request.getInputs());
    const result = await module.read!(request.getId(), props);
    const response = new providerProto.ReadResponse();
    // No id: the object is gone.
    if (!result.id) return response;
    // An action (a flow run, a contact sync) read from its id alone gives nothing back: importing it would store an empty resource.
    if (!Object.keys(props).length && !Object.keys(result.props ?? {}).length) {
      throw new Error(`${module.declaration.type} ${request.getId()} cannot be imported: its id alone does not give what it was declared with.`);
    }
    response.setId(result.id).setProperties(structOf(result.props, module.declaration.secretOutputs));
    return result.inputs ? response.setInputs(structOf(result.inputs)) : response;
  }

  private async update(request: provider.UpdateRequest) {
    const module = this.module(request.getUrn(), request.getType());
    const result = await module.update!(request.getId(), propertiesOf(request.getOlds()), propertiesOf(request.getNews()));
    return new providerProto.UpdateResponse().setProperties(structOf(result.outs, module.declaration.secretOutputs));
  }

  private async delete(request: provider.DeleteRequest) {
    const module = this.module(request.getUrn(), request.getType());
    await module.delete!(request.getId(), propertiesOf(request.getProperties()));
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

/** A diff of these changed properties, each an update (or replacement) in the engine's detailed diff. */
function detailedDiff(changed: string[], replaces: string[], olds: Properties, news: Properties): provider.DiffResponse {
  const { Kind } = PropertyDiff;
  const unset = (value: unknown) => value === undefined || value === null;
  const response = new DiffResponse()
    .setChanges(changed.length ? DiffResponse.DiffChanges.DIFF_SOME : DiffResponse.DiffChanges.DIFF_NONE)
    .setReplacesList(replaces)
    .setDiffsList(changed)
    .setHasdetaileddiff(true);
  for (const name of changed) {
    const replace = replaces.includes(name);
    const kind = unset(olds[name]) ? (replace ? Kind.ADD_REPLACE : Kind.ADD) : unset(news[name]) ? (replace ? Kind.DELETE_REPLACE : Kind.DELETE) : replace ? Kind.UPDATE_REPLACE : Kind.UPDATE;
    response.getDetaileddiffMap().set(name, new PropertyDiff().setKind(kind).setInputdiff(true));
  }
  return response;
}

// As @pulumi/pulumi's own servers: a state can be large.
const maxMessageBytes = 400 * 1024 * 1024;

/** Serves one provider instance of `pkg` on a loopback port, and answers the port. */
export async function servePlugin(pkg: PackageName, address = "127.0.0.1:0"): Promise<{ port: number; stop(): Promise<void> }> {
  keepHostMemorySmall();
  const server = new grpc.Server({ "grpc.max_receive_message_length": maxMessageBytes });
  server.addService(providerServices.ResourceProviderService, new ProviderServer(pkg).handlers());
  const port = await new Promise<number>((resolve, reject) => server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
  return { port, stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())) };
}

/** A plugin's main: the engine runs it with its own address as the argument, and reads the port from the first line of stdout. */
export function pluginMain(pkg: PackageName): void {
  // A failure no call awaited is printed, and the plugin serves on.
  process.on("unhandledRejection", (error) => console.error(`pulumi-resource-${pkg}: ${error instanceof Error ? error.message : String(error)}`));
  servePlugin(pkg).then(
    ({ port }) => console.log(String(port)),
    (error: unknown) => {
      console.error(`pulumi-resource-${pkg}: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
