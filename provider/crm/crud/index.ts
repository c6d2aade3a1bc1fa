// The lifecycle of a plain CRM object. A resource file declares its kind (schema,
// normalization, request bodies; see ./kind.ts) and exports what crmLifecycle makes of
// it; only what is particular to the resource stays in its file. The steps are in
// ./core.ts, taking objects over in ./take-over.ts, natural keys in ./natural-key.ts.

import type { z } from "zod";
import { checkInputs, diffInputs } from "../../kit/check-diff";
import { withoutUndefined } from "../../kit/inputs";
import { bulkDeleter } from "../bulk-deletes";
import { adoptIdOf, createNew, inputsOf, LifecycleContext, read, remove, update } from "./core";
import type { CrmLifecycle, CrmObjectKind } from "./kind";
import { adopting, bulkWrites } from "./natural-key";
import { adoptById } from "./take-over";

export type { CrmLifecycle, CrmObjectKind, NaturalKeyAdoption } from "./kind";
export { adoptIdClaims } from "./take-over";

export function crmLifecycle<Schema extends z.AnyZodObject, State extends Record<string, unknown>>(kind: CrmObjectKind<Schema, State>): CrmLifecycle {
  const context: LifecycleContext = { kind, deleteTogether: kind.bulkDelete && bulkDeleter(kind.path, kind.bulkDelete) };
  // Made after the context: its single path takes objects over through the context.
  context.bulk = kind.bulk && kind.adoption && bulkWrites(context, kind.adoption, kind.bulk);

  const lifecycle: CrmLifecycle = {
    check: async (_olds, news) => checkInputs(kind, news),
    diff: async (_id, olds, news) => diffInputs(kind, olds, news),
    async create(props) {
      const adoptId = adoptIdOf(kind, props);
      return adoptId ? adoptById(context, props, adoptId) : createNew(kind, props);
    },
    read: (id, props) => read(kind, id, props),
    update: (id, olds, news) => update(context, id, olds, news),
    delete: (id, props) => remove(context, id, props),
    inputsDeclaring: (object) => (kind.otherKind?.(object) ? undefined : withoutUndefined(inputsOf(kind, kind.stateOf(object)))),
  };
  return kind.adoption ? adopting(context, kind.adoption, lifecycle) : lifecycle;
}
