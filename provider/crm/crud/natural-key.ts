// Objects unique by a natural key (see NaturalKeyAdoption): the key claimed by one
// resource of the program, a replacement that keeps it deleting the old object first,
// and the bulk writes, whose groups the key sorts into new and existing objects.

import { unknownValue } from "../../kit/inputs";
import { claimNaturalKey, releaseNaturalKey } from "../../kit/adoption";
import { ServiceError } from "../../transport/errors";
import { bulkWriter, type BulkWrites } from "../service/bulk-writes";
import { forgetListed } from "../service/read-batcher";
import { type Adoption, adoptIdOf, clientFor, confirmed, type LifecycleContext, parse, postNew, prepared, updateAlone, updateBodyOf } from "./core";
import type { CrmCore } from "./kind";
import { createByKey, createOrAdopt } from "./take-over";

const keyOf = (adoption: Adoption, props: Record<string, unknown>) => adoption.key(props).toLowerCase();

/** The kind's bulk writes; their single path is the lifecycle's. */
export function bulkWrites(context: LifecycleContext, adoption: Adoption, bulk: BulkWrites) {
  const { kind } = context;
  return bulkWriter(bulk, {
    keyOf: (inputs) => keyOf(adoption, inputs),
    keyOfObject: (object) => keyOf(adoption, kind.stateOf(object)),
    createBody: (inputs) => kind.createBody(inputs),
    updateBody: (inputs, olds) => updateBodyOf(kind, inputs, olds),
    create: (client, inputs, turn) => postNew(kind, client, inputs, turn),
    createOverExisting: (client, props) => createByKey(context, client, props, adoption),
    update: (client, id, olds, inputs) => updateAlone(kind, client, id, olds, inputs),
    confirmed: (client, id, object, inputs) => confirmed(kind, client, id, object, inputs),
    forgetListed: (client) => forgetListed(client, kind),
  });
}

/** The lifecycle of objects unique by a natural key: `lifecycle`'s, with the key claimed by create and freed by delete. */
export function adopting(context: LifecycleContext, adoption: Adoption, lifecycle: CrmCore): CrmCore {
  const { kind } = context;
  const enforced = adoption.enforcedByService;
  return {
    ...lifecycle,
    // A replacement holding the same key would find its predecessor and refuse to take it: the old object goes first.
    async diff(id, olds, news) {
      const result = await lifecycle.diff(id, olds, news);
      const newKey = keyOf(adoption, news);
      const keepsKey = newKey.includes(unknownValue) || keyOf(adoption, olds) === newKey;
      return result.fields.some((change) => change.replace) && keepsKey ? { ...result, deleteBeforeReplace: true } : result;
    },
    async create(props) {
      const inputs = parse(kind, props);
      const client = clientFor(kind, props);
      const key = adoption.key(inputs);
      if (!claimNaturalKey(client, kind.type, key)) {
        // A key the service enforces is named with its rule, which the two declarations break.
        const rule = enforced ? ` (${enforced.field}s are unique regardless of case)` : "";
        throw new ServiceError(
          `${client.resource}: two resources of this program declare ${adoption.describe(inputs)}${rule}; give each its own${enforced ? ` ${enforced.field}` : ""}.`,
          {
            code: "duplicate",
            field: enforced?.field,
          },
        );
      }
      try {
        // By id, the natural key is claimed but not looked up.
        if (adoptIdOf(kind, props)) return await lifecycle.create(props);
        // The bulk writer looks the keys of its group up together.
        if (context.bulk) return await context.bulk.create(client, props, await prepared(kind, client, props));
        if (enforced) return await createOrAdopt(context, client, props, adoption, enforced);
        return await createByKey(context, client, props, adoption);
      } catch (error) {
        releaseNaturalKey(client, kind.type, key);
        throw error;
      }
    },
    // Deleted, the object no longer holds its key: another resource of the program may take it.
    async delete(id, props) {
      await lifecycle.delete(id, props);
      // Props without the key (a delete given no state) name no claim.
      const key: string | undefined = adoption.key(props);
      if (key !== undefined) releaseNaturalKey(clientFor(kind, props, id), kind.type, key);
    },
  };
}
