// Coalesced deletes (issue 11): deletes of one kind and one account that arrive together
// (a destroy) go out as one bulk request, e.g. DELETE /accounts/bulk_delete with
// `ids[]=1&ids[]=2`. The service skips ids it does not hold, and already gone is what
// delete wants. A refused bulk request leaves each object to its own DELETE, so that a
// failure lands on its own resource.

import type { CrmClient } from "./client";
import { answerInBulk, coalescing, type GroupWindow } from "./coalesce";
import { deleteObject } from "./collection";

/** What a kind declares to have its deletes coalesced: the service's bulk delete. */
export interface BulkDelete {
  /** DELETEd with the ids as `ids[]`, e.g. `/accounts/bulk_delete`. */
  path: string;
  /** Ids per request: few enough to keep the query string far below common URL length limits. */
  max: number;
}

/**
 * The CLI starts a destroy's deletes one after another, each once the state has
 * recorded the one before, and its workers (`--parallel`) each wait for their delete:
 * on pulumi 3.274 with a file backend they arrived 5 to 60 ms apart on a loaded 2-core
 * machine, the more objects the state holds the further apart, and past 100 ms at a load
 * average of 10. A group that closed after 5 ms of quiet went out mostly alone (132
 * requests for 149 accounts). A group closes once it holds as many deletes as were ever
 * waiting at once (a batch of the CLI's parallelism, complete), else after 400 ms of
 * quiet: a slow CLI's batch stays whole, and only a destroy's first and last batches, or
 * a lone delete, wait the quiet out.
 */
const deleteWindow: GroupWindow = { quietMs: 400, maxOpenMs: 2_000, closeWhenFull: true };

/** Deletes `{path}/{id}`, coalesced with the deletes arriving with it. */
export function bulkDeleter(path: string, bulk: BulkDelete): (client: CrmClient, id: string) => Promise<void> {
  const deleteTogether = coalescing<{ client: CrmClient; id: string }, void>(
    (group) =>
      answerInBulk(group, bulk.max, {
        sendBulk: (requests) =>
          deletedInBulk(
            requests[0].client,
            bulk.path,
            requests.map((request) => request.id),
          ),
        afterBulk: async (sent) => {
          for (const waiting of sent) waiting.resolve();
          return [];
        },
        single: ({ client, id }) => deleteObject(client, `${path}/${id}`),
      }),
    deleteWindow,
  );
  return (client, id) => deleteTogether(client.accountKey, { client, id });
}

/** Whether the service took the bulk delete; a failure is left to the single deletes that follow. */
async function deletedInBulk(client: CrmClient, path: string, ids: string[]): Promise<boolean> {
  try {
    const response = await client.call({ method: "DELETE", path, query: { "ids[]": ids } });
    return (response.body as { meta?: { success?: unknown } } | undefined)?.meta?.success !== false;
  } catch {
    return false;
  }
}
