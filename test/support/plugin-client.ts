// A client of one native plugin instance over loopback gRPC, as the engine drives it, for the
// tests that call the plugin door in process.

import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { grpc, providerProto, providerServices, structProto } from "../../provider/plugin/sdk-modules";
import { secretSignature } from "../../scripts/harness/pulumi-cli";

export const secret = (value: unknown) => ({ [secretSignature]: "1b47061264138c4ac30d75fd1eb44270", value });
export const struct = (value: Record<string, unknown>) => structProto.Struct.fromJavaScript(value as Record<string, never>);
export const plain = (value: Struct | undefined) => (value?.toJavaScript() ?? {}) as Record<string, any>;
export const accountUrn = (name: string) => `urn:pulumi:dev::plugin-test::crm:index:Account::${name}`;

/**
 * A client of one plugin instance, its calls as promises; check and create are of resources of
 * type `type`. Clients of one port share a connection, so one provider instance, unless each has
 * `ownConnection`, as each engine connecting to a running plugin has.
 */
export class PluginClient {
  private readonly client: InstanceType<typeof providerServices.ResourceProviderClient>;
  constructor(
    port: number,
    private readonly type = "crm:index:Account",
    { ownConnection = false } = {},
  ) {
    this.client = new providerServices.ResourceProviderClient(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
      ownConnection ? { "grpc.use_local_subchannel_pool": 1 } : {},
    );
  }

  call<Response>(method: string, request: unknown): Promise<Response> {
    return new Promise((resolve, reject) =>
      (this.client as unknown as Record<string, (...args: unknown[]) => void>)[method].call(this.client, request, (error: Error | null, response: Response) =>
        error ? reject(error) : resolve(response),
      ),
    );
  }

  /** Configures the instance with `settings`: a default provider's, or the explicit provider `name`'s. */
  configure(settings: Record<string, unknown>, name = "default") {
    const urn = `urn:pulumi:dev::plugin-test::pulumi:providers:${this.type.split(":")[0]}::${name}`;
    return this.call("configure", new providerProto.ConfigureRequest().setArgs(struct(settings)).setAcceptsecrets(true).setName(name).setUrn(urn));
  }

  async check(name: string, news: Record<string, unknown>, olds: Record<string, unknown> = {}) {
    const response = await this.call<InstanceType<typeof providerProto.CheckResponse>>(
      "check",
      new providerProto.CheckRequest().setUrn(this.urn(name)).setType(this.type).setOlds(struct(olds)).setNews(struct(news)),
    );
    return { inputs: plain(response.getInputs()), failures: response.getFailuresList().map((failure) => [failure.getProperty(), failure.getReason()]) };
  }

  async create(name: string, inputs: Record<string, unknown>) {
    const response = await this.call<InstanceType<typeof providerProto.CreateResponse>>(
      "create",
      new providerProto.CreateRequest().setUrn(this.urn(name)).setType(this.type).setProperties(struct(inputs)),
    );
    return { id: response.getId(), outs: plain(response.getProperties()) };
  }

  async read(name: string, id: string) {
    const response = await this.call<InstanceType<typeof providerProto.ReadResponse>>(
      "read",
      new providerProto.ReadRequest().setId(id).setUrn(this.urn(name)).setType(this.type),
    );
    return { id: response.getId(), props: plain(response.getProperties()), inputs: plain(response.getInputs()) };
  }

  async diff(name: string, id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    return this.call<InstanceType<typeof providerProto.DiffResponse>>(
      "diff",
      new providerProto.DiffRequest().setId(id).setUrn(this.urn(name)).setType(this.type).setOlds(struct(olds)).setNews(struct(news)),
    );
  }

  urn(name: string) {
    return `urn:pulumi:dev::plugin-test::${this.type}::${name}`;
  }

  close() {
    this.client.close();
  }
}
