// The provider core of a plain CRM object. A resource file declares its kind (its
// normalization and request bodies; see ./kind.ts) and exports what crmCore makes of
// it; only what is particular to the resource stays in its file. The steps are in
// ./core.ts, taking objects over in ./take-over.ts, natural keys in ./natural-key.ts.

import type { z } from "zod";
import { checkInputs, type Declared, declaredKind, type DeclaredInKind, diffInputs } from "../../kit/check-diff";
import { isBuiltIn, type UniqueName } from "../../kit/core";
import type { AnyResourceDeclaration } from "../../kit/declaration";
import { withoutUndefined } from "../../kit/inputs";
import { wireForms } from "../../kit/wire";
import { bulkDeleter } from "../service/bulk-deletes";
import { adoptIdOf, createNew, inputsOf, type Kind, type LifecycleContext, parse, read, remove, update } from "./core";
import type { CrmCore, CrmObjectKind } from "./kind";
import { adopting, bulkWrites } from "./natural-key";
import { adoptBuiltIn, adoptById, nameTakenBy } from "./take-over";
import { log } from "../../kit/log";

export type { CrmCore, CrmObjectKind, NaturalKeyAdoption } from "./kind";
export { adoptIdClaims } from "./take-over";

/** What the fields' wire forms give a kind (see ../../kit/wire.ts), unless it writes its own. */
type WireDerived = "stateOf" | "desiredState" | "createBody";

/**
 * A plain CRM object's kind as its resource file writes it: what its declaration says (type,
 * schema, services, replaced fields, and the state and request bodies of its fields' wire
 * forms) is taken from there.
 */
export type CrmKindSpec<Schema extends z.AnyZodObject, State extends Record<string, unknown> = Record<string, unknown>> = Omit<
  CrmObjectKind<Schema, State>,
  DeclaredInKind | WireDerived
> &
  Partial<Pick<CrmObjectKind<Schema, State>, WireDerived>>;

/** The provider core of a plain CRM object: its declaration, and its kind's lifecycle (see ./core.ts). */
export function crmCore<Schema extends z.AnyZodObject, State extends Record<string, unknown>>(
  declaration: Declared<Schema> & Omit<AnyResourceDeclaration, "inputSchema">,
  spec: CrmKindSpec<Schema, State>,
  uniqueName?: UniqueName,
): CrmCore {
  const forms = wireForms(declaration.fields);
  // A kind that writes its own create body updates with it too, unless it writes an update body.
  // A field the service fills in when unset (see serviceAssigned) is left to it: not asked for.
  const desiredState = (inputs: Record<string, unknown>) => ({
    ...forms.desiredState(inputs),
    ...Object.fromEntries((spec.serviceAssigned ?? []).map((field) => [field, inputs[field]])),
  });
  const fromWire = { stateOf: forms.stateOf, desiredState, createBody: forms.createBody, ...(spec.createBody ? {} : { updateBody: forms.updateBody }) };
  const described = { ...declaredKind(declaration), ...fromWire, ...spec } as Kind;
  // A kind taking objects over by natural key (see NaturalKeyAdoption) says itself who holds its key.
  const kind: Kind =
    uniqueName && !described.adoption
      ? { ...described, uniqueName, explainFailure: described.explainFailure ?? nameTakenBy(described, uniqueName) }
      : described;
  const context: LifecycleContext = { kind, deleteTogether: kind.bulkDelete && bulkDeleter(kind.path, kind.bulkDelete) };
  // Made after the context: its single path takes objects over through the context.
  context.bulk = kind.bulk && kind.adoption && bulkWrites(context, kind.adoption, kind.bulk);

  const core: CrmCore = {
    declaration: declaration as AnyResourceDeclaration,
    uniqueName,
    builtIns: kind.builtIns,
    importable: true,
    check: async (_olds, news) => checkInputs(kind, news),
    diff: async (_id, olds, news) => diffInputs(kind, olds, news),
    async create(props) {
      const adoptId = adoptIdOf(kind, props);
      if (adoptId) return adoptById(context, props, adoptId);
      return kind.builtIns && isBuiltIn(kind.builtIns, parse(kind, props)) ? adoptBuiltIn(context, props, kind.builtIns) : createNew(kind, props);
    },
    read: (id, from) => read(kind, id, from),
    update: (id, olds, news) => update(context, id, olds, news),
    async delete(id, props) {
      // What the account came with outlives the stack: a destroy that did not make it leaves it.
      if (kind.builtIns && isBuiltIn(kind.builtIns, props)) return log.info(`${kind.label(props)}: left in place, one of ${kind.builtIns.what}`);
      return remove(context, id, props);
    },
    inputsDeclaring: (object) => (kind.otherKind?.(object) ? undefined : withoutUndefined(inputsOf(kind, kind.stateOf(object)))),
  };
  return kind.adoption ? adopting(context, kind.adoption, core) : core;
}
