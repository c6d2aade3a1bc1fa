// The CRM service client: calls under /api/3 of the configured account, plus the
// collection walk every lookup uses.

import { ServiceClient } from "../service-client";
import { crmService } from "../settings";
import { HttpRequest } from "../transport/transport";

/** Page size for walks: the service's maximum, so that a walk costs the fewest requests. */
const pageSize = 100;

export class CrmClient extends ServiceClient {
  constructor(resource: string) {
    super(crmService, resource);
  }

  /** Every item of a collection, page by page, until a short page or until `stop` says the caller has what it needs. */
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
      // meta.total is a string, a number, null or absent depending on the collection:
      // only a short page says the walk is over.
      if (page.some(stop) || page.length < pageSize) return items;
    }
  }
}
