// Lookups of one program run that read the same collection with the same query share one
// walk: `getCampaigns()` and `getCampaign({ name })` filter the same pages on the client, so
// the second would read them all again (and an `up` runs the program twice). Only
// collections no pulumi-crm resource writes share: a lookup of accounts may wait
// (dependsOn) for an account the run creates, and must read after it.

import { HttpRequest } from "../../transport/transport";
import { ServiceError } from "../../transport/errors";
import { settingsInUse } from "../../settings";
import { walk } from "../collection";
import { Lookup } from "./kit";

interface SharedWalk {
  /** The lookup whose client walks, named in the walk's errors. */
  label: string;
  items: Promise<unknown[]>;
}

/**
 * The walks of the run, by account, path, query and bound. A run is the settings in use:
 * a program process's whole life, or until useStackConfig names others.
 */
const walksOfRun = new WeakMap<object, Map<string, SharedWalk>>();

/**
 * Every item of the collection, as `walk` with `lookup.bound(narrow)` reads them, from the
 * walk that a lookup of this run started already, finished or not; its failure is every
 * sharer's, told in each one's name.
 */
export function sharedWalk<Item>(lookup: Lookup<unknown>, path: string, collection: string, query: HttpRequest["query"], narrow: string): Promise<Item[]> {
  const run = settingsInUse();
  let walks = walksOfRun.get(run);
  if (!walks) walksOfRun.set(run, (walks = new Map()));
  const { client } = lookup;
  // A query's unset values are left out of the key, as out of the request.
  const key = JSON.stringify([client.accountKey, path, query, lookup.maxRecords]);
  let shared = walks.get(key);
  if (!shared) {
    shared = { label: client.resource, items: walk(client, path, collection, query, undefined, lookup.bound(narrow)) };
    walks.set(key, shared);
  }
  const { label, items } = shared;
  return items.then(
    (found) => found as Item[],
    (error: unknown) => {
      const walkers = `${label}: `;
      if (label === client.resource || !(error instanceof ServiceError) || !error.message.startsWith(walkers)) throw error;
      throw new ServiceError(`${client.resource}: ${error.message.slice(walkers.length)}`, error);
    },
  );
}
