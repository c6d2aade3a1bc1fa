// Coalesced reads (issue 11). The service allows 5 requests per second per account,
// and a refresh reads every object. Reads of one collection of one account are answered
// from collection pages (100 objects per request) once the refresh's reads of it
// outnumber its pages, and by single GETs until then. The caller normalizes a listed
// object exactly as a fetched one, so outputs and drift are unchanged; an id the pages
// lack is fetched on its own before it is declared gone.

import type { CrmClient } from "./client";
import { coalescing } from "./coalesce";
import { type Collection, objectAt, type Page, pages, pageSize, type ServiceObject } from "./collection";

/**
 * The engine lets only its parallelism's worth of reads (8 on 2 cores) into the host at
 * once, so a refresh's reads of a collection arrive as a stream, a few at a time, the
 * next let in as each is answered: whether walking the collection pays is decided over
 * the stream, not over the reads that happen to arrive together. A stream ends once no
 * read of it has arrived, and no page come, for `streamIdleMs`; and, as the engine reads
 * each resource once per refresh, when an object is read a second time.
 *
 * A walked page answers reads of its own stream only, each of its objects one read,
 * within `pageLifetimeMs`: what a read gets is the object as it was a moment earlier in
 * the same refresh. Each CLI command runs a provider host of its own, so a page never
 * outlives its refresh; in one host, two refreshes are two streams when a second lies
 * between them or the second reads an object the first read. A write through this host
 * ends the stream (see forgetListed).
 */
const streamIdleMs = 1_000;
const pageLifetimeMs = 30_000;

interface Listed {
  object: ServiceObject;
  listedAt: number;
}

interface ReadStream {
  /** The ids read since the stream began: once they outnumber the collection's pages, the walk pays. */
  read: Set<string>;
  lastActive: number;
  /** Objects of the pages walked in this stream that no read has taken yet, by id. */
  unread: Map<string, Listed>;
  pagesRead: number;
  /** The collection's size as its last page read said; unknown until a page says it. */
  total?: number;
  /** The walk, one page per step; unset once it has read the last page, failed, or was forgotten. */
  walk?: AsyncGenerator<Page<ServiceObject> & { last: boolean }>;
  /** The page being read, which reads that need it wait for. */
  nextPage?: Promise<void>;
}

/** The reads under way, by account and collection. */
const streams = new Map<string, ReadStream>();

interface PendingRead {
  client: CrmClient;
  source: Collection;
  id: string;
}

const keyOf = (client: CrmClient, source: Collection) => `${client.accountKey} ${source.path}`;

/** The object at `{path}/{id}`, or undefined when the service has none; coalesced with the reads arriving with it. */
export function readObject(client: CrmClient, source: Collection, id: string): Promise<ServiceObject | undefined> {
  if (!source.collection) return objectAt(client, source, id);
  return readTogether(keyOf(client, source), { client, source, id });
}

/** A write through this host changes what the pages of its collection say: later reads go to the service. */
export function forgetListed(client: CrmClient, source: Collection): void {
  const key = keyOf(client, source);
  const stream = streams.get(key);
  if (!stream) return;
  // Reads waiting for a page then find nothing more in this stream, and get their own GET.
  stream.unread.clear();
  stream.walk = undefined;
  streams.delete(key);
}

const readTogether = coalescing<PendingRead, ServiceObject | undefined>(async (group) => {
  const { client, source } = group[0].request;
  const key = keyOf(client, source);
  const stream = streamOf(
    key,
    group[0].request,
    group.map((waiting) => waiting.request.id),
  );
  await Promise.all(
    group.map(async ({ request, resolve, reject }) => {
      try {
        // Missing from the pages is not proof of absence (the page order is the service's): a GET decides.
        resolve((await fromWalk(request, stream)) ?? (await objectAt(request.client, source, request.id)));
      } catch (error) {
        reject(error);
      }
    }),
  );
});

const isIdle = (stream: ReadStream, now: number) => !stream.nextPage && now - stream.lastActive > streamIdleMs;

/** The stream `ids` continue, or a new one. */
function streamOf(key: string, first: PendingRead, ids: string[]): ReadStream {
  const now = Date.now();
  const current = streams.get(key);
  const continued = current && !isIdle(current, now) && !ids.some((id) => current.read.has(id));
  // Ended streams are of no further use: the map holds only what a refresh is reading now.
  if (!continued) for (const [endedKey, ended] of streams) if (isIdle(ended, now)) streams.delete(endedKey);
  const stream = continued ? current : { read: new Set<string>(), lastActive: now, unread: new Map(), pagesRead: 0, walk: walkOf(first) };
  streams.set(key, stream);
  stream.lastActive = now;
  for (const id of ids) stream.read.add(id);
  return stream;
}

const pagesFor = (total: number) => Math.max(1, Math.ceil(total / pageSize));

/**
 * Whether the next page is worth its request: once the stream's reads outnumber the
 * collection's pages, the walk costs less than the single GETs it saves, and at most
 * twice what the best choice, made knowing the refresh's reads beforehand, would cost.
 * Without a known size, the pages read so far and one more stand for it.
 */
function worthWalking(stream: ReadStream): boolean {
  return stream.read.size > (stream.total === undefined ? stream.pagesRead + 1 : pagesFor(stream.total));
}

/** The object `request` asks for from the stream's pages, reading the next ones while the walk pays; undefined when they lack it. */
async function fromWalk(request: PendingRead, stream: ReadStream): Promise<ServiceObject | undefined> {
  for (;;) {
    const listed = stream.unread.get(request.id);
    if (listed) {
      stream.unread.delete(request.id);
      if (Date.now() - listed.listedAt <= pageLifetimeMs) return listed.object;
    }
    if (!stream.nextPage) {
      if (!stream.walk || !worthWalking(stream)) return undefined;
      stream.nextPage = readPage(stream).finally(() => (stream.nextPage = undefined));
    }
    await stream.nextPage;
  }
}

/** The collection's pages in an order asked for, so that they neither repeat nor skip objects while the collection is unchanged; none read before the first step. */
const walkOf = ({ client, source }: PendingRead) => pages<ServiceObject>(client, source.path, source.collection!, { "orders[id]": "ASC" }, source.alongside);

/** One more page of the walk into the stream. A failed page ends the walk: each read left gets its own GET, which reports the failure on its own resource. */
async function readPage(stream: ReadStream): Promise<void> {
  const walk = stream.walk!;
  const step = await walk.next().catch(() => undefined);
  // Forgotten meanwhile: the page may be older than the write.
  if (stream.walk !== walk) return;
  const page = step?.done === false ? step.value : undefined;
  const now = Date.now();
  stream.lastActive = now;
  if (!page?.items || page.last) stream.walk = undefined;
  if (!page?.items) return;
  stream.pagesRead++;
  if (page.total !== null) stream.total = page.total;
  for (const object of page.items) stream.unread.set(String(object.id), { object, listedAt: now });
}
