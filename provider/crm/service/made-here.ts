// Objects this provider host created. The host serves one deployment (PULUMI-NOTES.md),
// so an object made here holds only what this deployment put into it since: an account
// made here has no custom-field values but those its values' creates write, and a look-up
// of them before those creates cannot find anything.

import type { CrmClient } from "./client";

/** By account, collection and id; one short string per object created. */
const made = new Set<string>();
const keyOf = (client: CrmClient, path: string, id: string) => `${client.accountKey} ${path}/${id}`;

export function recordMade(client: CrmClient, path: string, id: string): void {
  made.add(keyOf(client, path, id));
}

/** Whether this host created the object `{path}/{id}` (a take-over, or an object of an earlier deployment, is not). */
export function madeHere(client: CrmClient, path: string, id: string): boolean {
  return made.has(keyOf(client, path, id));
}
