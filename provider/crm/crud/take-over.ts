// Taking existing objects over: by id (adoptId), and by natural key, either looked up
// before the create or, where the service enforces the key, on its duplicate refusal.
// Every take-over is said out loud, and claimed so that two resources never manage one object.

import type { BuiltIns, Created, UniqueName } from "../../kit/core";
import { differingFields, replacedBy, sameValue } from "../../kit/check-diff";
import { announceAdoption, claimNaturalKey, nameTaken, notAdoptable, releaseNaturalKey, unrecordedObjectAdvice } from "../../kit/adoption";
import { ServiceError } from "../../transport/errors";
import type { CrmClient } from "../service/client";
import { objectAt, type ServiceObject, walk } from "../service/collection";
import {
  type Adoption,
  clientFor,
  createNew,
  type Kind,
  type LifecycleContext,
  parse,
  postNew,
  prepared,
  stateAt,
  update,
  updateAlone,
  updateBodyOf,
} from "./core";

/**
 * The claims of objects taken over by adoptId, by kind (see claimNaturalKey): two
 * resources managing one object would undo each other's changes.
 */
export const adoptIdClaims = (type: string) => `${type} adoptId`;

/** Runs a take-over by adoptId with the object claimed for this resource; a second resource of the program naming it is refused. */
async function claimingAdoptId<T>(client: CrmClient, type: string, id: string, takeOver: () => Promise<T>): Promise<T> {
  if (!claimNaturalKey(client, adoptIdClaims(type), id)) {
    throw new ServiceError(`${client.resource}: two resources of this program take over ${type} ${id} with adoptId; declare it once.`, {
      code: "duplicate",
      field: "adoptId",
    });
  }
  try {
    return await takeOver();
  } catch (error) {
    releaseNaturalKey(client, adoptIdClaims(type), id);
    throw error;
  }
}

/**
 * Takes an existing object over, said out loud once it is done. Refused when a field an update cannot
 * change differs (`taken` names the object, `instead` the way out); an update is sent
 * only when a declared value differs, so an object that matches already gets no write.
 */
async function takeOver(
  context: LifecycleContext,
  client: CrmClient,
  id: string,
  object: ServiceObject,
  props: Record<string, unknown>,
  taken: string,
  instead: string,
): Promise<Created> {
  const { kind } = context;
  const inputs = await prepared(kind, client, props);
  const current = await stateAt(kind, client, id, object, inputs);
  for (const field of Object.keys(inputs)) {
    if (inputs[field] !== undefined && !sameValue(current[field], inputs[field]) && replacedBy(kind, field, current[field], inputs[field])) {
      const held = JSON.stringify(current[field] ?? null);
      throw new ServiceError(`${taken}, whose ${field} is ${held}, which an update cannot change; declare ${field} ${held} to take it over, or ${instead}.`, {
        code: "duplicate",
        field,
      });
    }
  }
  const differing = differingFields(kind.desiredState(inputs), current);
  let outs = current;
  if (differing.length && kind.takeOverSendsDiffering) {
    const body = updateBodyOf(kind, inputs, current);
    outs = (await updateAlone(kind, client, id, current, inputs, Object.fromEntries(differing.map((field) => [field, body[field]])))).outs;
  } else if (differing.length) {
    outs = (await update(context, id, current, props)).outs;
  }
  announceAdoption(client.resource, id);
  return { id, outs };
}

/** Create with adoptId: the object of that id taken over. */
export function adoptById(context: LifecycleContext, props: Record<string, unknown>, id: string): Promise<Created> {
  const { kind } = context;
  const client = clientFor(kind, props);
  return claimingAdoptId(client, kind.type, id, async () => {
    const object = await objectAt(client, kind, id);
    const other = object && kind.otherKind?.(object);
    if (!object || other) throw notAdoptable(client.resource, kind.type, id, other);
    return takeOver(context, client, id, object, props, `${client.resource}: the object ${id} named by adoptId`, "remove adoptId to create a new one");
  });
}

/**
 * Create of an object every account comes with (see BuiltIns): the account's own, found by its
 * name, taken over; made only in an account that lacks it (one deleted by hand).
 */
export async function adoptBuiltIn(context: LifecycleContext, props: Record<string, unknown>, builtIns: BuiltIns): Promise<Created> {
  const { kind } = context;
  const client = clientFor(kind, props);
  const name = String(parse(kind, props)[builtIns.field]).toLowerCase();
  const holds = (object: ServiceObject) => String(kind.stateOf(object)[builtIns.field]).toLowerCase() === name;
  const existing = (await walk<ServiceObject>(client, kind.path, kind.collection!, {}, holds, undefined, kind.alongside)).find(holds);
  // The name is held by none, as just read: nothing identical to look for before the POST.
  if (!existing) return postNew(kind, client, await prepared(kind, client, props));
  const id = String(existing.id);
  return claimingAdoptId(client, kind.type, id, () =>
    takeOver(
      context,
      client,
      id,
      existing,
      props,
      `${client.resource}: the ${kind.type} ${id}, one of ${builtIns.what}`,
      `declare another ${builtIns.field} to make a new one`,
    ),
  );
}

const adoptsExisting = (inputs: Record<string, unknown>) => (inputs as { adoptExisting?: boolean }).adoptExisting;
const takenBy = (client: CrmClient, adoption: Adoption, inputs: Record<string, unknown>, id: string) =>
  `${client.resource}: ${adoption.describe(inputs)} is taken by the existing object ${id}`;
const objectUrl = (client: CrmClient, kind: Kind, id: string) => `${client.rootUrl}${kind.path}/${id}`;

/** A create by natural key on its own: the object holding the key is refused, or with adoptExisting taken over out loud; with none, one is made. */
export async function createByKey(context: LifecycleContext, client: CrmClient, props: Record<string, unknown>, adoption: Adoption): Promise<Created> {
  const inputs = parse(context.kind, props);
  const existing = await adoption.find(client, inputs);
  if (!existing) return createNew(context.kind, props);
  const id = String(existing.id);
  const taken = takenBy(client, adoption, inputs, id);
  if (!adoptsExisting(inputs)) {
    throw new ServiceError(
      `${taken}; ${adoption.instead}, or, only if no stack manages that object, set adoptExisting: true to take it over with this stack; ${unrecordedObjectAdvice(id, objectUrl(client, context.kind, id))}.`,
      { code: "duplicate" },
    );
  }
  return takeOver(context, client, id, existing, props, taken, adoption.instead);
}

/**
 * A create by a natural key the service enforces (see enforcedByService): POSTed first. On
 * the service's duplicate refusal, the holder is taken over with adoptExisting; else the
 * refusal, whose advice is the kind's, is completed with the holder and how to take it
 * back or delete it.
 */
export async function createOrAdopt(
  context: LifecycleContext,
  client: CrmClient,
  props: Record<string, unknown>,
  adoption: Adoption,
  { field, noun }: NonNullable<Adoption["enforcedByService"]>,
): Promise<Created> {
  try {
    return await createNew(context.kind, props);
  } catch (refusal) {
    if (!(refusal instanceof ServiceError && refusal.code === "duplicate")) throw refusal;
    const inputs = parse(context.kind, props);
    const existing = await adoption.find(client, inputs);
    if (!existing) {
      if (!adoptsExisting(inputs)) throw refusal;
      throw new ServiceError(
        `${client.resource}: the service reported the ${field} as taken, but no ${noun} of exactly that ${field} was found to adopt; check the ${field}'s spelling and case.`,
        { code: "duplicate", field },
      );
    }
    const id = String(existing.id);
    if (adoptsExisting(inputs)) return takeOver(context, client, id, existing, props, takenBy(client, adoption, inputs, id), adoption.instead);
    throw new ServiceError(
      `${refusal.message} The ${noun} that holds it is ${id}: ${unrecordedObjectAdvice(id, objectUrl(client, context.kind, id))}.`,
      refusal,
    );
  }
}

/** A create the service refused as a duplicate of a unique name (see CrmObjectKind.uniqueName): the object holding it, found in the kind's collection (see nameTaken). */
export function nameTakenBy(kind: Kind, unique: UniqueName): NonNullable<Kind["explainFailure"]> {
  const nameOf = (state: Record<string, unknown>) => String(state[unique.field]).toLowerCase();
  const scopeOf = (state: Record<string, unknown>) => (unique.within ? String(state[unique.within]) : "");
  return async (client, inputs, refusal) => {
    if (refusal.code !== "duplicate" || !kind.collection) return undefined;
    const holds = (object: ServiceObject) => {
      const state = kind.stateOf(object);
      return nameOf(state) === nameOf(inputs) && scopeOf(state) === scopeOf(inputs);
    };
    const holder = (await walk<ServiceObject>(client, kind.path, kind.collection, {}, holds)).find(holds);
    if (!holder) return undefined;
    const id = String(holder.id);
    return nameTaken(client.resource, kind.type, unique, inputs[unique.field], id, objectUrl(client, kind, id), refusal.status);
  };
}
