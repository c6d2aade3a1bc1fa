// Objects this deployment created (kit/deployment.ts; a host serves one, PULUMI-NOTES.md),
// so an object made here holds only what this deployment put into it since: an account
// made here has no custom-field values but those its values' creates write, and a look-up
// of them before those creates cannot find anything.

import { perDeployment } from "../../kit/deployment";
import type { CrmClient } from "./client";

/** By account, collection and id; one short string per object created. */
const made = perDeployment(() => new Set<string>());
const keyOf = (client: CrmClient, path: string, id: string) => `${client.accountKey} ${path}/${id}`;

export function recordMade(client: CrmClient, path: string, id: string): void {
  made().add(keyOf(client, path, id));
}

/** Whether this deployment created the object `{path}/{id}` (a take-over, or an object of an earlier deployment, is not). */
export function madeHere(client: CrmClient, path: string, id: string): boolean {
  return made().has(keyOf(client, path, id));
}
