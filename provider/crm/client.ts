// The CRM service client: calls under /api/3 of the configured account, plus the
// collection walk every lookup uses.

import { ServiceClient } from "../service-client";
import { crmService } from "../settings";
import { ServiceError } from "../transport/errors";
import { HttpRequest } from "../transport/transport";
import { numberOf } from "./normalize";

/** Page size for walks: the service's maximum, so that a walk costs the fewest requests. */
const pageSize = 100;

/** How far a walk may go: a collection larger than `maxRecords` is refused, with `narrow` as the advice. */
export interface WalkBound {
  maxRecords: number;
  /** How to ask for fewer records, e.g. "give a search, or raise maxRecords". */
  narrow: string;
}

export class CrmClient extends ServiceClient {
  constructor(resource: string) {
    super(crmService, resource);
  }

  /**
   * Every item of a collection, page by page, until the service's total is reached
   * (without one, until a short page) or until `stop` says the caller has what it
   * needs. With a `bound`, a larger collection is refused: after the first page when
   * the service gives its total, else once the walk has read past the bound.
   */
  async walk<Item>(
    path: string,
    member: string,
    query: HttpRequest["query"],
    stop: (item: Item) => boolean = () => false,
    bound?: WalkBound,
  ): Promise<Item[]> {
    const items: Item[] = [];
    for (let offset = 0; ; offset += pageSize) {
      const response = await this.call({ method: "GET", path, query: { ...query, limit: pageSize, offset } });
      const body = response.body as Record<string, unknown>;
      const page = (body[member] ?? []) as Item[];
      items.push(...page);
      // meta.total is a string, a number, null or absent depending on the collection:
      // without a usable one, only a short page says the walk is over.
      const total = numberOf((body.meta as Record<string, unknown> | undefined)?.total);
      if (page.some(stop) || page.length < pageSize || (total !== null && items.length >= total)) return items;
      if (bound && Math.max(items.length, total ?? 0) > bound.maxRecords) {
        const count = total === null ? `more than ${bound.maxRecords}` : String(total);
        throw new ServiceError(`${this.resource}: ${count} records match, more than the ${bound.maxRecords} a lookup reads; ${bound.narrow}.`, {
          code: "too_many_records",
        });
      }
    }
  }
}
