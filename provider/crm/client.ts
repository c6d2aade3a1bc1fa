// The CRM service client: the shared transport bound to the account in the
// current settings, plus the collection walk every lookup uses.

import { crmService, endpointFor } from "../settings";
import { CallOptions, HttpRequest, HttpResponse, Transport } from "../transport/transport";

/** Page size for walks: the service's maximum, so that a walk costs the fewest requests. */
const pageSize = 100;

export class CrmClient {
  private constructor(
    private readonly transport: Transport,
    /** e.g. `crm.Account "Acme"`, named in every error. */
    readonly resource: string,
  ) {}

  /** A client for one resource's calls, with settings read now. */
  static for(resource: string): CrmClient {
    return new CrmClient(new Transport(endpointFor(crmService, resource)), resource);
  }

  call(request: HttpRequest, options: Omit<CallOptions, "resource"> = {}): Promise<HttpResponse> {
    return this.transport.call(request, { ...options, resource: this.resource });
  }

  /** Every item of a collection, page by page, until `stop` says the caller has what it needs. */
  async walk<Item>(
    path: string,
    member: string,
    query: HttpRequest["query"],
    stop: (item: Item) => boolean = () => false,
  ): Promise<Item[]> {
    const items: Item[] = [];
    for (let offset = 0; ; offset += pageSize) {
      const response = await this.call({ method: "GET", path, query: { ...query, limit: pageSize, offset } });
      const body = response.body as Record<string, unknown>;
      const page = (body[member] ?? []) as Item[];
      items.push(...page);
      const total = Number((body.meta as { total?: unknown } | undefined)?.total ?? 0);
      if (page.some(stop) || page.length < pageSize || offset + page.length >= total) return items;
    }
  }
}
