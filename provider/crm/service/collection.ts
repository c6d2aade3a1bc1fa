// Where the CRM service keeps its objects, and how its collections are paged: every
// read of one object by its root key and every walk of a collection goes through here.

import { PulumiCrmError, ServiceError } from "../../transport/errors";
import type { HttpRequest, HttpResponse } from "../../transport/transport";
import type { CrmClient } from "./client";
import { numberOf } from "./normalize";

export type ServiceObject = Record<string, unknown>;

/** Where a kind's objects are read: one at `{path}/{id}` under `member`, all at `path` under `collection`. */
export interface Collection {
  /** The collection below /api/3, e.g. `/calendars`. */
  path: string;
  /** The root key of one object in requests and responses, e.g. `calendar`. */
  member: string;
  /**
   * The root key of the list at `path`, e.g. `calendars`: a refresh's reads are
   * answered from its pages once they outnumber them (see ./read-batcher.ts). Unset where the service has no
   * list, or where its items lack members a single read has: such reads stay single.
   */
  collection?: string;
  /**
   * The object completed with what its answer carries beside it, one object or a page (a
   * field's options and list relations, under `fieldOptions` and `fieldRels`).
   */
  alongside?: Alongside;
  /** The service lists the objects but has no GET of one (deal roles): an object is read from the list at `path`. */
  listedOnly?: boolean;
  /**
   * The service has neither a GET of one nor a list, only links of other objects (a list's
   * permission for a user group, read through its group's `listGroups`): the object `id`, undefined when gone.
   */
  readOne?(client: CrmClient, id: string): Promise<ServiceObject | undefined>;
}

/** See Collection.alongside. */
export type Alongside = (object: ServiceObject, answer: Record<string, unknown>) => ServiceObject;

/** Items per page: the service's maximum (REAL-WORLD.md), so that a walk costs the fewest requests. */
export const pageSize = 100;

/** The object at `{path}/{id}`, or undefined when the service has none (either 404 shape). */
export async function getObject(client: CrmClient, path: string, member: string, alongside?: Alongside): Promise<ServiceObject | undefined> {
  const response = await client.call({ method: "GET", path }, { accept: [404] });
  if (response.status === 404) return undefined;
  const object = objectIn(response, member);
  return alongside ? alongside(object, response.body as Record<string, unknown>) : object;
}

/** The object `id` of `source`: its GET, its item of the list where the service has no GET of one (`listedOnly`), or its kind's own read (`readOne`). */
export async function objectAt(client: CrmClient, source: Collection, id: string): Promise<ServiceObject | undefined> {
  if (source.readOne) return source.readOne(client, id);
  if (!source.listedOnly) return getObject(client, `${source.path}/${id}`, source.member, source.alongside);
  const isIt = (item: ServiceObject) => String(item.id) === id;
  const listed = await walk<ServiceObject>(client, source.path, source.collection ?? `${source.member}s`, undefined, isIt, undefined, source.alongside);
  return listed.find(isIt);
}

/** Deletes `path`; already gone is what delete wants. */
export async function deleteObject(client: CrmClient, path: string): Promise<void> {
  await client.call({ method: "DELETE", path }, { accept: [404] });
}

export function objectIn(response: HttpResponse, member: string): ServiceObject {
  const object = (response.body as Record<string, unknown> | undefined)?.[member];
  if (!object || typeof object !== "object") throw new PulumiCrmError(`the service's answer holds no "${member}"`);
  return object as ServiceObject;
}

export interface Page<Item> {
  /** Undefined when the answer holds no list under the collection's key. */
  items: Item[] | undefined;
  /** The service's count of the whole collection; null without a usable one. */
  total: number | null;
}

/** One page of `pageSize` items of the list at `path` under `collection`; without an offset, the first. */
export async function pageOf<Item>(
  client: CrmClient,
  path: string,
  collection: string,
  query: HttpRequest["query"],
  offset?: number,
  alongside?: Alongside,
): Promise<Page<Item>> {
  const response = await client.call({ method: "GET", path, query: { ...query, limit: pageSize, ...(offset === undefined ? {} : { offset }) } });
  const body = response.body as Record<string, unknown> | undefined;
  const list = body?.[collection];
  const items = Array.isArray(list) ? (alongside ? list.map((item) => alongside(item, body!)) : list) : undefined;
  // meta.total is a string, a number, null or absent depending on the collection.
  return { items: items as Item[] | undefined, total: numberOf((body?.meta as Record<string, unknown> | undefined)?.total) };
}

/**
 * The pages of a collection in turn, until the service's total is reached or, without
 * a usable total, until a short page: `last` marks that one. A page without a list
 * counts as empty, and so is the last.
 */
export async function* pages<Item>(
  client: CrmClient,
  path: string,
  collection: string,
  query: HttpRequest["query"],
  alongside?: Alongside,
): AsyncGenerator<Page<Item> & { last: boolean }> {
  for (let offset = 0; ; offset += pageSize) {
    const page = await pageOf<Item>(client, path, collection, query, offset, alongside);
    const length = page.items?.length ?? 0;
    const last = length < pageSize || (page.total !== null && offset + length >= page.total);
    yield { ...page, last };
    if (last) return;
  }
}

/** How far a walk may go: a collection larger than `maxRecords` is refused, with `narrow` as the advice. */
export interface WalkBound {
  maxRecords: number;
  /** How to ask for fewer records, e.g. "give a search, or raise maxRecords". */
  narrow: string;
}

/**
 * Every item of a collection, page by page (see pages), or those up to the page where
 * `stop` says the caller has what it needs. With a `bound`, a larger collection is
 * refused: after the first page when the service gives its total, else once the walk
 * has read past the bound.
 */
export async function walk<Item>(
  client: CrmClient,
  path: string,
  collection: string,
  query: HttpRequest["query"],
  stop: (item: Item) => boolean = () => false,
  bound?: WalkBound,
  alongside?: Alongside,
): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of pages<Item>(client, path, collection, query, alongside)) {
    items.push(...(page.items ?? []));
    if (page.items?.some(stop)) break;
    if (!page.last && bound && Math.max(items.length, page.total ?? 0) > bound.maxRecords) {
      const count = page.total === null ? `more than ${bound.maxRecords}` : String(page.total);
      throw new ServiceError(`${client.resource}: ${count} records match, more than the ${bound.maxRecords} a lookup reads; ${bound.narrow}.`, {
        code: "too_many_records",
      });
    }
  }
  return items;
}
