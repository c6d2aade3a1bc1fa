// Finding what an unconfirmed create made, for objects the service does not key by a
// unique name (calendar feeds, messages, notes, addresses): without it, a create whose
// answer was lost is reported, and the next `up` makes a duplicate. The same match finds
// an identical object made before a create, which may be the unrecorded work of a
// deployment killed mid-create: the create is then refused, naming it.

import { differingFields } from "../../kit/check-diff";
import { perDeployment } from "../../kit/deployment";
import type { CrmClient } from "./client";
import { type ServiceObject, walk } from "./collection";

// Clocks of this machine and the service may differ by this much.
const clockSkewMs = 60_000;

/** Objects taken by a recovery in this deployment, by collection: none is taken twice. */
const recovered = perDeployment(() => new Set<string>());

export interface CreatedObjectMatch {
  /** The collection listed, e.g. `/messages`, and its root key in a list answer, e.g. `messages`. */
  path: string;
  collection: string;
  query?: Record<string, string>;
  /** The values the create sent, in the form `stateOf` gives them. */
  sent: Record<string, unknown>;
  stateOf(object: ServiceObject): Record<string, unknown>;
  /** When the object was made, in ms since the epoch; undefined when it cannot be told. */
  createdMs(object: ServiceObject): number | undefined;
  /** How far off `createdMs` may be besides clock skew (a timestamp in the account's unknown time zone). */
  uncertaintyMs?: number;
}

/**
 * The object this create made, if it exists: the newest one holding every value sent,
 * made since the attempt started, and not taken by another recovery. An identical object
 * made earlier is someone else's and is never taken; an identical one made in the same
 * moment by someone else cannot be told apart.
 */
export async function findCreatedObject(client: CrmClient, match: CreatedObjectMatch, attemptStarted: number): Promise<ServiceObject | undefined> {
  const earliest = attemptStarted - clockSkewMs - (match.uncertaintyMs ?? 0);
  const [found] = (await identicalObjects(client, match)).filter((object) => (match.createdMs(object) ?? -Infinity) >= earliest);
  if (found) recovered().add(`${match.path}/${found.id}`);
  return found;
}

/**
 * An object that holds every value a create would send, whenever it was made, and not
 * taken by a recovery: perhaps what an interrupted deployment made and never recorded.
 * The collection is listed once per provider host (one deployment) and account, not once
 * per create: what this host creates afterwards is recorded by the engine, so only what
 * was there before matters, and a delete through this host lists it anew.
 */
export async function findIdenticalObject(client: CrmClient, match: CreatedObjectMatch): Promise<ServiceObject | undefined> {
  const key = listingKey(client, match.path);
  const listings = listedBeforeCreates();
  let listing = listings.get(key);
  if (!listing) {
    listing = walk<ServiceObject>(client, match.path, match.collection, match.query ?? {});
    listings.set(key, listing);
    listing.catch(() => listings.delete(key));
  }
  const [found] = identical(await listing, match);
  return found;
}

/** The collection as the deployment's first create found it, by account and collection. */
const listedBeforeCreates = perDeployment(() => new Map<string, Promise<ServiceObject[]>>());
const listingKey = (client: CrmClient, path: string) => `${client.accountKey} ${path}`;

/** After a delete in this deployment, the collection's earlier listing may hold an object no longer there. */
export function forgetListingBeforeCreates(client: CrmClient, path: string): void {
  listedBeforeCreates().delete(listingKey(client, path));
}

/** The objects holding every value sent and not taken by a recovery, newest first. */
async function identicalObjects(client: CrmClient, match: CreatedObjectMatch): Promise<ServiceObject[]> {
  return identical(await walk<ServiceObject>(client, match.path, match.collection, match.query ?? {}), match);
}

function identical(objects: ServiceObject[], match: CreatedObjectMatch): ServiceObject[] {
  return objects
    .filter((object) => !recovered().has(`${match.path}/${object.id}`))
    .filter((object) => differingFields(match.sent, match.stateOf(object)).length === 0)
    .sort((a, b) => Number(b.id) - Number(a.id));
}

/** An ISO timestamp with its offset, as most objects carry it. */
export const isoCreated = (field: string) => (object: ServiceObject) => {
  const ms = Date.parse(String(object[field] ?? ""));
  return Number.isNaN(ms) ? undefined : ms;
};
