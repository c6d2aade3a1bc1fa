// Coalesced reads (issue 11). The service allows 5 requests per second per account,
// and a refresh reads every object. Reads of one collection of one account that arrive
// together in the provider host are answered from collection pages (100 objects per
// request) when the service's own count of the collection says that costs fewer
// requests than one GET each, and by single GETs otherwise. The caller normalizes a
// listed object exactly as a fetched one, so outputs and drift are unchanged; an id the
// pages lack is fetched on its own before it is declared gone.

import { CrmClient } from "./client";
import { coalescing } from "./coalesce";
import { Collection, getObject, pages, pageSize, ServiceObject } from "./collection";

/**
 * The engine lets only a few reads (its parallelism) into the host at once, so a
 * refresh's reads arrive in a stream of small groups. A complete walk answers the groups
 * right behind it while they keep coming (idle less than `snapshotIdleMs`, never longer
 * than `snapshotLifetimeMs`): what they get is the object as it was a moment earlier in
 * the same refresh, as if read then. A write through this host forgets it (see
 * forgetListed).
 */
const snapshotIdleMs = 1_000;
const snapshotLifetimeMs = 30_000;

interface Snapshot {
  objects: Map<string, ServiceObject>;
  lastUsed: number;
  taken: number;
}

/** Complete walks, by account and collection. */
const snapshots = new Map<string, Snapshot>();
/** The collection sizes the service last reported, by account and collection: they decide without a probe page. */
const knownTotals = new Map<string, number>();

interface PendingRead {
  client: CrmClient;
  source: Collection;
  id: string;
}

const keyOf = (client: CrmClient, source: Collection) => `${client.accountKey} ${source.path}`;

/** The object at `{path}/{id}`, or undefined when the service has none; coalesced with the reads arriving with it. */
export function readObject(client: CrmClient, source: Collection, id: string): Promise<ServiceObject | undefined> {
  if (!source.collection) return getObject(client, `${source.path}/${id}`, source.member);
  return readTogether(keyOf(client, source), { client, source, id });
}

/** A write through this host changes what a snapshot of its collection says: later reads go to the service. */
export function forgetListed(client: CrmClient, source: Collection): void {
  snapshots.delete(keyOf(client, source));
}

const readTogether = coalescing<PendingRead, ServiceObject | undefined>(async (group) => {
  const { client, source } = group[0].request;
  const key = keyOf(client, source);
  const ids = [...new Set(group.map((waiting) => waiting.request.id))];
  const listed = freshSnapshot(key) ?? (ids.length > 1 && worthListing(key, ids.length) ? await listedOrNothing(client, source, key, ids.length) : undefined);
  await Promise.all(
    group.map(async ({ request, resolve, reject }) => {
      try {
        // Missing from the pages is not proof of absence (the page order is the service's): a GET decides.
        resolve(listed?.get(request.id) ?? (await getObject(request.client, `${source.path}/${request.id}`, source.member)));
      } catch (error) {
        reject(error);
      }
    }),
  );
});

const isStale = (snapshot: Snapshot, now: number) => now - snapshot.lastUsed > snapshotIdleMs || now - snapshot.taken > snapshotLifetimeMs;

function freshSnapshot(key: string): Map<string, ServiceObject> | undefined {
  const snapshot = snapshots.get(key);
  const now = Date.now();
  if (!snapshot || isStale(snapshot, now)) {
    snapshots.delete(key);
    return undefined;
  }
  snapshot.lastUsed = now;
  return snapshot.objects;
}

const pagesFor = (total: number) => Math.max(1, Math.ceil(total / pageSize));

/** Without a known size a first page is worth its request: it answers some reads and tells the size. */
function worthListing(key: string, reads: number): boolean {
  const total = knownTotals.get(key);
  return total === undefined || pagesFor(total) < reads;
}

/**
 * The collection, page by page, when its size makes the walk cheaper than `reads`
 * single GETs; else undefined, or only the first page when that was needed to learn the
 * size. A failed page leaves every read to its own GET, which reports the failure on
 * its own resource.
 */
async function listedOrNothing(client: CrmClient, source: Collection, key: string, reads: number): Promise<Map<string, ServiceObject> | undefined> {
  const objects = new Map<string, ServiceObject>();
  try {
    // An order asked for, so that pages neither repeat nor skip objects while the collection is unchanged.
    for await (const page of pages<ServiceObject>(client, source.path, source.collection!, { "orders[id]": "ASC" })) {
      if (!page.items) return undefined;
      for (const object of page.items) objects.set(String(object.id), object);
      if (page.total !== null) knownTotals.set(key, page.total);
      // Without a size the rest may cost more than the single GETs it would save: stop at the first page.
      if (!page.last && (page.total === null || pagesFor(page.total) >= reads)) return objects;
    }
  } catch {
    return undefined;
  }
  const now = Date.now();
  // Stale walks are of no further use: the map holds only what a refresh is reading now.
  for (const [staleKey, stale] of snapshots) if (isStale(stale, now)) snapshots.delete(staleKey);
  snapshots.set(key, { objects, lastUsed: now, taken: now });
  return objects;
}
