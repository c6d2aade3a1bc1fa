// Coalesced writes (issue 11). The CLI hands a deployment's creates and updates to the
// provider host up to its parallelism at once; those of one kind and one group (a
// custom-field value's account: the service's bulk create updates only the first
// item's account) go out as one bulk request instead of one request each. The bulk
// answers only a message, so what the service then holds is listed, and each write is
// confirmed against it exactly as a single write is against its answer.
//
// The service's bulk create creates or updates (REAL-WORLD.md): it would silently take
// over a value that exists already. So a bulk create holds only the writes whose
// natural key no listed object holds; the others take the single path, which refuses
// the existing object or, with adoptExisting, takes it over out loud.

import type { Created, Updated } from "../../kit/core";
import { ServiceError, sharedFailureFor } from "../../transport/errors";
import type { Answered } from "../../transport/limiter";
import type { HttpRequest } from "../../transport/transport";
import { CrmClient } from "./client";
import { answerInBulk, coalescing, type Waiting } from "./coalesce";
import { pageSize, type ServiceObject } from "./collection";

/** What a kind declares to have its writes coalesced: the service's bulk operations. */
export interface BulkWrites {
  /** POSTed a JSON array of create bodies, e.g. `/accountCustomFieldData/bulkCreate`. */
  createPath: string;
  /** PATCHed a JSON array of `{id, ...update body}`, e.g. `/accountCustomFieldData/bulkUpdate`. */
  updatePath: string;
  /** The group one bulk request may hold, e.g. the value's account id. */
  groupOf(inputs: Record<string, unknown>): string;
  /** What a group's shared requests (the bulk, the listings) are made as, and their failures told as, e.g. `custom field values of account 12, written together`. */
  nameOfGroup(group: string): string;
  /** Every object of a group as the service holds it now, in a stable order (a walk of the collection filtered by the group). */
  listGroup(client: CrmClient, group: string): Promise<ServiceObject[]>;
  /**
   * One page (`pageSize`) of the group's objects, latest first: by id descending
   * (`made`, the newest objects) or by last update (`updated`).
   */
  listLatest(client: CrmClient, group: string, by: "made" | "updated"): Promise<ServiceObject[]>;
  /**
   * Whether this host made the group (the values' account): it then holds only what this
   * deployment wrote into it, under keys the program's creates claimed, so no create of the
   * program can find its key taken there and none needs a look-up.
   */
  madeHere?(client: CrmClient, group: string): boolean;
}

/** What the lifecycle lends the bulk writer: its single writes, and how it names and confirms objects. */
export interface SingleWrites {
  /** The natural key the inputs declare, e.g. `12/3` for account 12's value of field 3. */
  keyOf(inputs: Record<string, unknown>): string;
  /** The natural key an object holds. */
  keyOfObject(object: ServiceObject): string;
  createBody(inputs: Record<string, unknown>): Record<string, unknown>;
  updateBody(inputs: Record<string, unknown>, olds: Record<string, unknown>): Record<string, unknown>;
  /** A create no listed object holds the key of, its inputs prepared: one POST, on `turn` when given (see ServiceClient.turn). */
  create(client: CrmClient, inputs: Record<string, unknown>, turn?: Answered): Promise<Created>;
  /** A create whose key an object holds already: the single path, which looks it up and refuses it or takes it over. */
  createOverExisting(client: CrmClient, props: Record<string, unknown>): Promise<Created>;
  /** One PUT. */
  update(client: CrmClient, id: string, olds: Record<string, unknown>, inputs: Record<string, unknown>): Promise<Updated>;
  /** The state of an object after a write, confirmed against the inputs (throws where the service did not take them). */
  confirmed(client: CrmClient, id: string, object: ServiceObject, inputs: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** What this host listed of the collection no longer holds after a write. */
  forgetListed(client: CrmClient): void;
}

interface PendingCreate {
  client: CrmClient;
  props: Record<string, unknown>;
  /** The inputs as the write sends them (see prepareWrite). */
  inputs: Record<string, unknown>;
}

interface PendingUpdate {
  client: CrmClient;
  id: string;
  olds: Record<string, unknown>;
  inputs: Record<string, unknown>;
}

/** Items per bulk request: as many as one page lists, so that the page of the latest holds them all. */
const bulkMax = pageSize;

/**
 * How old a group's listing may be to decide which keys are free for a bulk create.
 * The engine hands the next writes over as soon as the previous ones return, so the
 * listing that confirmed those is usually milliseconds old; as old as the single
 * path's own look-up is by the time its POST has waited for the rate limit.
 */
const listingFreshMs = 1_000;

/**
 * Fails each call a group's shared work left waiting in the call's own name: the work was
 * made under the group's name (see BulkWrites.nameOfGroup), not under one of its resources'.
 */
function failEach<Request extends { client: CrmClient }>(calls: Array<Waiting<Request, unknown>>, error: unknown): void {
  // Settling a promise twice is a no-op: only calls left waiting take the error.
  for (const waiting of calls) waiting.reject(sharedFailureFor(waiting.request.client.resource, error));
}

/**
 * Confirms a chunk whose bulk went out. A failure of the confirmation (the listing) fails
 * the chunk's calls alone, each in its own name and saying that the service may hold the
 * write, with what the next `up` does about it (`consequence`); the group's later chunks go on.
 */
async function confirmingChunk<Request extends { client: CrmClient }, Result>(
  chunk: Array<Waiting<Request, Result>>,
  consequence: string,
  confirm: () => Promise<Array<Waiting<Request, Result>>>,
): Promise<Array<Waiting<Request, Result>>> {
  try {
    return await confirm();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    failEach(
      chunk,
      new ServiceError(`${message.replace(/\.$/, "")}; the bulk request had gone out, so ${consequence}.`, error instanceof ServiceError ? error : {}),
    );
    return [];
  }
}

export function bulkWriter(bulk: BulkWrites, single: SingleWrites) {
  /** The keys each group held at its last listing, by key the object's id. */
  const listings = new Map<string, { held: Map<string, string>; listedAt: number }>();
  const groupKey = (client: CrmClient, inputs: Record<string, unknown>) => `${client.accountKey} ${bulk.createPath} ${bulk.groupOf(inputs)}`;
  /** The client a group's shared requests go out on: its failures name the group, and each resource then tells them in its own name. */
  const groupClient = (inputs: Record<string, unknown>) => new CrmClient(bulk.nameOfGroup(bulk.groupOf(inputs)));

  const remember = (client: CrmClient, inputs: Record<string, unknown>, objects: ServiceObject[], listedAt: number, known = new Map<string, string>()) => {
    // Only fresh listings are of use: the map holds the groups being written now.
    for (const [key, listing] of listings) if (listedAt - listing.listedAt > listingFreshMs) listings.delete(key);
    listings.set(groupKey(client, inputs), {
      held: new Map([...known, ...objects.map((object): [string, string] => [single.keyOfObject(object), String(object.id)])]),
      listedAt,
    });
  };
  // A listing's time is when its answer came: before that, the request may have waited long for the rate limit.
  const listed = async (client: CrmClient, inputs: Record<string, unknown>) => {
    const objects = await bulk.listGroup(client, bulk.groupOf(inputs));
    remember(client, inputs, objects, Date.now());
    return objects;
  };
  /**
   * The objects of a group made since `before` (the listing a bulk create was decided
   * on): from the newest page when it is in the order asked for and reaches back to
   * that listing, so that no object made since can be missing from it; else from a
   * whole listing.
   */
  const madeSince = async (client: CrmClient, inputs: Record<string, unknown>, before: Map<string, string>) => {
    const newest = await bulk.listLatest(client, bulk.groupOf(inputs), "made").catch(() => undefined);
    const ids = newest?.map((object) => Number(object.id)) ?? [];
    const descending = ids.every((id, index) => index === 0 || id < ids[index - 1]);
    const beforeIds = new Set(before.values());
    const reachesBack = newest !== undefined && (newest.length < pageSize || newest.some((object) => beforeIds.has(String(object.id))));
    if (!descending || !reachesBack) return (await listed(client, inputs)).filter((object) => !beforeIds.has(String(object.id)));
    remember(client, inputs, newest, Date.now(), before);
    return newest.filter((object) => !beforeIds.has(String(object.id)));
  };
  /** Look-ups under way, by group: creates of the group arriving meanwhile wait for the same answer. */
  const lookingUp = new Map<string, Promise<Map<string, string>>>();
  const heldKeys = (client: CrmClient, inputs: Record<string, unknown>): Promise<Map<string, string>> => {
    const key = groupKey(client, inputs);
    const recent = listings.get(key);
    if (recent && Date.now() - recent.listedAt <= listingFreshMs) return Promise.resolve(recent.held);
    if (bulk.madeHere?.(client, bulk.groupOf(inputs))) return Promise.resolve(new Map());
    let lookUp = lookingUp.get(key);
    if (!lookUp) {
      lookUp = listed(client, inputs).then(() => listings.get(key)!.held);
      lookingUp.set(key, lookUp);
      const done = () => lookingUp.delete(key);
      lookUp.then(done, done);
    }
    return lookUp;
  };

  /** Whether the bulk may have written: a refusal (4xx) wrote nothing; any other failure is settled by the listing that follows. */
  const sent = async (client: CrmClient, request: HttpRequest, turn?: Answered) => {
    single.forgetListed(client);
    try {
      await client.call(request, { turn });
      return true;
    } catch (error) {
      return !(error instanceof ServiceError && error.status !== undefined && error.status < 500);
    }
  };

  const settled = <Result>(waiting: Waiting<unknown, Result>, result: Promise<Result>) => result.then(waiting.resolve, waiting.reject);

  /** A free create waiting for its group's turn at the rate limit, with the keys its look-up found held. */
  type Queued = Waiting<PendingCreate, Created> & { held: Map<string, string> };
  /** Free creates waiting for their group's turn, by group: the group's sender takes them all on its turn. */
  const waitingForTurn = new Map<string, Queued[]>();

  /**
   * The engine hands creates over as its slots free, so an account's values often arrive
   * one by one. A group's free creates wait for the group's turn at the rate limit (as
   * long as their request would wait anyway) and go out then, with those of the group
   * that arrived meanwhile: one bulk, or one POST when alone.
   */
  const sendOnTurns = async (key: string, client: CrmClient, inputs: Record<string, unknown>, queue: Queued[]) => {
    while (queue.length) {
      const turn = await client.turn();
      const batch = queue.splice(0);
      try {
        await createFree(client, inputs, batch, turn);
      } catch (error) {
        failEach(batch, error);
      } finally {
        // Given back if no request went out on it (calling it again after its answer is a no-op).
        turn(false);
      }
    }
    waitingForTurn.delete(key);
  };

  /** Creates whose keys no object held: in bulk (the first request on `turn`), each confirmed against what the bulk made. */
  const createFree = (client: CrmClient, inputs: Record<string, unknown>, batch: Queued[], turn: Answered) => {
    const before = new Map(batch.flatMap((waiting) => [...waiting.held]));
    let unused: Answered | undefined = turn;
    const firstTurn = () => {
      const first = unused;
      unused = undefined;
      return first;
    };
    return answerInBulk(batch, bulkMax, {
      sendBulk: (requests) =>
        sent(client, { method: "POST", path: bulk.createPath, body: requests.map((request) => single.createBody(request.inputs)) }, firstTurn()),
      afterBulk: (chunk) =>
        confirmingChunk(chunk, "the service may hold this object already: the next `pulumi up` finds it and names it for adoptId", async () => {
          // Made by this bulk: holding the key, and not listed before it.
          const made = new Map((await madeSince(client, inputs, before)).map((object) => [single.keyOfObject(object), object]));
          const notMade = chunk.filter((waiting) => !made.has(single.keyOf(waiting.request.inputs)));
          await Promise.all(
            chunk
              .filter((waiting) => !notMade.includes(waiting))
              .map((waiting) => {
                const object = made.get(single.keyOf(waiting.request.inputs))!;
                const id = String(object.id);
                return settled(
                  waiting,
                  single.confirmed(waiting.request.client, id, object, waiting.request.inputs).then((outs) => ({ id, outs })),
                );
              }),
          );
          return notMade;
        }),
      single: (request) => single.create(request.client, request.inputs, firstTurn()),
    });
  };

  const createTogether = coalescing<PendingCreate, Created>(async (group) => {
    const { inputs } = group[0].request;
    const client = groupClient(inputs);
    // A listing that fails leaves every create to the single path, whose own look-up reports on its own resource.
    const held = await heldKeys(client, inputs).catch(() => undefined);
    const isHeld = (waiting: Waiting<PendingCreate, unknown>) => !held || held.has(single.keyOf(waiting.request.inputs));
    const existing = group.filter(isHeld).map((waiting) => settled(waiting, single.createOverExisting(waiting.request.client, waiting.request.props)));
    const free = group.filter((waiting) => !isHeld(waiting)).map((waiting) => ({ ...waiting, held: held! }));
    // Settled by the group's sender: the one waiting for its turn already, else a new one.
    const key = groupKey(client, inputs);
    const queue = waitingForTurn.get(key);
    if (queue) queue.push(...free);
    else if (free.length) {
      waitingForTurn.set(key, free);
      void sendOnTurns(key, client, inputs, free);
    }
    await Promise.all(existing);
  });

  const updateTogether = coalescing<PendingUpdate, Updated>(async (group) => {
    const { inputs } = group[0].request;
    const client = groupClient(inputs);
    await answerInBulk(group, bulkMax, {
      sendBulk: (requests) =>
        sent(client, {
          method: "PATCH",
          path: bulk.updatePath,
          body: requests.map((request) => ({ id: Number(request.id), ...single.updateBody(request.inputs, request.olds) })),
        }),
      afterBulk: (chunk) =>
        confirmingChunk(chunk, "the service may hold the change already: the next `pulumi up` sends it again", async () => {
          // The page of the latest updated holds what was just written, unless the service
          // ignored the order or others wrote more meanwhile: then the whole group is listed.
          const byId = (objects: ServiceObject[]) => new Map(objects.map((object) => [String(object.id), object]));
          const latest = byId(await bulk.listLatest(client, bulk.groupOf(inputs), "updated").catch(() => []));
          const objects = chunk.every((waiting) => latest.has(waiting.request.id)) ? latest : byId(await listed(client, inputs));
          // Gone meanwhile: the single PUT reports it on its own resource.
          const gone = chunk.filter((waiting) => !objects.has(waiting.request.id));
          await Promise.all(
            chunk
              .filter((waiting) => !gone.includes(waiting))
              .map((waiting) =>
                settled(
                  waiting,
                  single
                    .confirmed(waiting.request.client, waiting.request.id, objects.get(waiting.request.id)!, waiting.request.inputs)
                    .then((outs) => ({ outs })),
                ),
              ),
          );
          return gone;
        }),
      single: (request) => single.update(request.client, request.id, request.olds, request.inputs),
    }).catch((error: unknown) => failEach(group, error));
  });

  return {
    /** A create whose key was claimed and whose inputs are prepared; coalesced with the creates of its group. */
    create: (client: CrmClient, props: Record<string, unknown>, inputs: Record<string, unknown>) =>
      createTogether(groupKey(client, inputs), { client, props, inputs }),
    /** An update with prepared inputs; coalesced with the updates of its group. */
    update: (client: CrmClient, id: string, olds: Record<string, unknown>, inputs: Record<string, unknown>) =>
      updateTogether(groupKey(client, inputs), { client, id, olds, inputs }),
  };
}
