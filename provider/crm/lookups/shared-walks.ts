// Lookups of one program run that read the same collection with the same query share one
// walk: `getCampaigns()` and `getCampaign({ name })` filter the same pages on the client, so
// the second would read them all again (and an `up` runs the program twice). Only
// collections no pulumi-crm resource writes share: a lookup of accounts may wait
// (dependsOn) for an account the run creates, and must read after it.

import * as pulumi from "@pulumi/pulumi";
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
 * The walks of each run, by account, path, query and bound. A run has a resource monitor
 * of its own (one per program process, one per run of an Automation API inline program,
 * one per setMocks) and keeps the settings it started with (useStackConfig names others
 * in tests); without a monitor, the settings alone tell runs apart.
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
 * walk that a lookup of this run started already, finished or not; its failure is every
 * sharer's, told in each one's name.
 */
export function sharedWalk<Item>(lookup: Lookup<unknown>, path: string, collection: string, query: HttpRequest["query"], narrow: string): Promise<Item[]> {
  const walks = walksOfRun();
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
