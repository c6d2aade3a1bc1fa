// A service client: the shared transport bound, at call time, to the account in
// the current settings, naming one resource in every error.

import { endpointFor, type ServiceEndpoint, type ServiceSettingsSpec } from "./settings";
import type { Answered } from "./transport/limiter";
import { type CallOptions, type HttpRequest, type HttpResponse, Transport } from "./transport/transport";

export class ServiceClient {
  private readonly transport: Transport;
  /** The account called at this service, without its credential: what work shared across resources (limits, coalesced reads) is keyed by. */
  readonly accountKey: string;
  /** The API's root address, e.g. `https://acme.api-us1.com/api/3` (no credential in it). */
  readonly rootUrl: string;
  /** How messages name the key and the rate settings: resolved with the endpoint, under the settings of the provider serving the call. */
  private readonly named: Pick<ServiceEndpoint, "tokenSetting" | "rateSetting">;

  constructor(
    spec: ServiceSettingsSpec,
    /** e.g. `crm.Account "Acme"`. */
    readonly resource: string,
  ) {
    const endpoint = endpointFor(spec, resource);
    this.accountKey = endpoint.accountKey;
    this.rootUrl = endpoint.rootUrl;
    this.named = { tokenSetting: endpoint.tokenSetting, rateSetting: endpoint.rateSetting };
    this.transport = new Transport(endpoint);
  }

  /** The account's turn at this service's rate limit (see Transport.turn). */
  turn(): Promise<Answered> {
    return this.transport.turn();
  }

  call(request: HttpRequest, options: Omit<CallOptions, "resource"> = {}): Promise<HttpResponse> {
    return this.transport.call(request, {
      ...options,
      resource: this.resource,
      credentialSetting: this.named.tokenSetting,
      rateSetting: this.named.rateSetting,
    });
  }
}
