// A service client: the shared transport bound, at call time, to the account in
// the current settings, naming one resource in every error.

import { endpointFor, ServiceSettingsSpec } from "./settings";
import { CallOptions, HttpRequest, HttpResponse, Transport } from "./transport/transport";

export class ServiceClient {
  private readonly transport: Transport;

  constructor(
    private readonly spec: ServiceSettingsSpec,
    /** e.g. `crm.Account "Acme"`. */
    readonly resource: string,
  ) {
    this.transport = new Transport(endpointFor(spec, resource));
  }

  call(request: HttpRequest, options: Omit<CallOptions, "resource"> = {}): Promise<HttpResponse> {
    return this.transport.call(request, { ...options, resource: this.resource, credentialSetting: this.spec.token.key });
  }
}
