// Lookups of one program run that read the same collection share one walk, whatever order
// each asks: `getCampaigns({ orderBySendDate: "DESC" })` and `getCampaign({ name })` filter
// the same pages on the client, so the second would read them all again (and an `up` runs
// the program twice). A complete walk answers every lookup of its collection in the run:
// each one's filters are applied on our side already, and an order the service applies
// (orders[sdate] for campaigns) is applied on our side, the same way, when the walk was read
// in another. Only collections no pulumi-crm resource writes share: a lookup of accounts
// may wait (dependsOn) for an account the run creates, and must read after it.

import * as pulumi from "@pulumi/pulumi";
import { ServiceError } from "../../transport/errors";
import { settingsInUse } from "../../settings";
import { walk } from "../service/collection";
import type { Lookup } from "./kit";

/** An order the service applies to a collection, which a walk read in another order can be put in on our side. */
export interface ServiceOrder<Item> {
  /** The query that asks the service for it, e.g. `{ "orders[sdate]": "DESC" }`. */
  query: Record<string, string>;
  /** The service's comparison; ties compare equal, their order being open at the service too. */
  compare(a: Item, b: Item): number;
}

interface SharedWalk {
  /** The lookup whose client walks, named in the walk's errors. */
  label: string;
  /** The order the walk asked the service for; undefined for the service's own. */
  order: string | undefined;
  items: Promise<unknown[]>;
}

/**
 * The walks of each run, by account, path and bound. A run has a resource monitor of its
 * own (one per program process, one per run of an Automation API inline program, one per
 * setMocks) and keeps the settings it started with (useStackConfig names others in
 * tests); without a monitor, the settings alone tell runs apart.
 */
const runs = new WeakMap<object, { settings: object; walks: Map<string, SharedWalk> }>();

function walksOfRun(): Map<string, SharedWalk> {
  const settings = settingsInUse();
  const run = pulumi.runtime.getMonitor() ?? settings;
  let known = runs.get(run);
  if (known?.settings !== settings) runs.set(run, (known = { settings, walks: new Map() }));
  return known.walks;
}

/**
 * Every item of the collection, as `walk` with `lookup.bound(narrow)` reads them, from the
 * walk that a lookup of this run started already, finished or not, in `order` (the first
 * walk asks the service for it; a walk read in another order is sorted here), or in the
 * walk's order without one. A failed walk is every sharer's failure, told in each one's name.
 */
export async function sharedWalk<Item>(lookup: Lookup<unknown>, path: string, collection: string, narrow: string, order?: ServiceOrder<Item>): Promise<Item[]> {
  const walks = walksOfRun();
  const { client } = lookup;
  const key = JSON.stringify([client.accountKey, path, lookup.maxRecords]);
  const orderKey = order && JSON.stringify(order.query);
  let shared = walks.get(key);
  if (!shared) {
    shared = { label: client.resource, order: orderKey, items: walk(client, path, collection, order?.query ?? {}, undefined, lookup.bound(narrow)) };
    walks.set(key, shared);
  }
  const { label, items } = shared;
  let found: Item[];
  try {
    found = (await items) as Item[];
  } catch (error) {
    const walkers = `${label}: `;
    if (label === client.resource || !(error instanceof ServiceError) || !error.message.startsWith(walkers)) throw error;
    throw new ServiceError(`${client.resource}: ${error.message.slice(walkers.length)}`, error);
  }
  // A stable sort: ties keep the order the service read them in.
  return order && orderKey !== shared.order ? [...found].sort(order.compare) : found;
}
