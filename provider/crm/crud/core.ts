// The core of a plain CRM object's lifecycle: created by POST to its collection, read,
// changed and deleted at `{collection}/{id}`, its JSON under one root key; every write
// confirmed against the inputs. Taking objects over is ./take-over.ts's, natural keys
// ./natural-key.ts's; crmCore (./index.ts) puts them together.

import { type Created, type Found, type ReadFrom, storedOutputs, type Updated } from "../../kit/core";
import type { z } from "zod";
import { withoutProvider, withoutUndefined } from "../../kit/inputs";
import { nameTaken, unrecordedObjectAdvice } from "../../kit/adoption";
import { confirmWrite, PartlyDoneError } from "../../kit/write-errors";
import { PulumiCrmError, ServiceError } from "../../transport/errors";
import type { Answered } from "../../transport/limiter";
import type { HttpResponse } from "../../transport/transport";
import type { bulkWriter } from "../service/bulk-writes";
import { CrmClient } from "../service/client";
import { deleteObject, objectAt, objectIn, type ServiceObject } from "../service/collection";
import { forgetListed, readObject } from "../service/read-batcher";
import { recordMade } from "../service/made-here";
import { findCreatedObject, findIdenticalObject, forgetListingBeforeCreates } from "../service/recovery";
import type { CrmObjectKind, NaturalKeyAdoption } from "./kind";

/** A kind as the lifecycle's steps see it: the types of its inputs and state are the resource file's business. */
export type Kind = CrmObjectKind<z.AnyZodObject, Record<string, unknown>>;
export type Inputs = z.output<z.AnyZodObject>;
export type Adoption = NaturalKeyAdoption<z.AnyZodObject>;

/** A kind, and what crmCore makes for it once per provider host: its coalesced writes and deletes. */
export interface LifecycleContext {
  readonly kind: Kind;
  /** The kind's bulk writes (see CrmObjectKind.bulk). */
  bulk?: ReturnType<typeof bulkWriter>;
  /** The kind's coalesced deletes (see CrmObjectKind.bulkDelete). */
  readonly deleteTogether?: (client: CrmClient, id: string) => Promise<void>;
}

export const parse = (kind: Kind, props: Record<string, unknown>) => kind.schema.parse(withoutProvider(props)) as Inputs;

export const adoptIdOf = (kind: Kind, props: Record<string, unknown>) => (parse(kind, props) as { adoptId?: string }).adoptId;

/** A client whose errors name the object: by its label, or with `id` when the label names none (see labelWithId). */
export function clientFor(kind: Kind, props: Record<string, unknown>, id?: string): CrmClient {
  if (id && kind.labelWithId) return new CrmClient(kind.labelWithId(props, id));
  const label = kind.label(props);
  return new CrmClient(label === kind.type && id ? `${kind.type} ${id}` : label);
}

/** The inputs read gives back: the input fields of the state, creation-only options left out. */
export function inputsOf(kind: Kind, state: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(kind.schema.shape)
      .filter((field) => field in state)
      .map((field) => [field, state[field]]),
  );
}

/** The state without the service-assigned fields the stack does not declare (see serviceAssigned). */
function declaredOnly(kind: Kind, state: Record<string, unknown>, declared: Record<string, unknown>): Record<string, unknown> {
  const undeclared = (kind.serviceAssigned ?? []).filter((field) => declared[field] === undefined || declared[field] === null);
  return Object.fromEntries(Object.entries(state).filter(([field]) => !undeclared.includes(field)));
}

/**
 * The state of `object`, with what readRelated adds; the service-assigned fields only where
 * `declared` holds them, unless `everyField` (an import, which declares what export declares).
 */
export async function stateAt(
  kind: Kind,
  client: CrmClient,
  id: string,
  object: ServiceObject,
  declared: Record<string, unknown>,
  everyField = false,
): Promise<Record<string, unknown>> {
  const related = kind.readRelated ? { ...object, ...(await kind.readRelated(client, id, declared, object)) } : object;
  const state = kind.stateOf(related);
  // Undefined members left out: the provider host's protobuf Struct refuses them.
  return withoutUndefined(everyField ? state : declaredOnly(kind, state, declared));
}

/** The inputs of a write, completed by the kind (see prepareWrite). */
export const prepared = async (kind: Kind, client: CrmClient, props: Record<string, unknown>, olds?: Record<string, unknown>, id?: string) =>
  kind.prepareWrite ? kind.prepareWrite(client, parse(kind, props), olds, id) : parse(kind, props);

/** A write's call, its failure explained by the kind when it can be. */
/** A write's body: its members under the kind's root key, or at the top where the service takes them so (`bareBody`). */
const requestBody = (kind: Kind, members: Record<string, unknown>) => (kind.bareBody ? members : { [kind.member]: members });

function written(kind: Kind, client: CrmClient, inputs: Inputs, call: Promise<HttpResponse>): Promise<HttpResponse> {
  // What this host listed of the collection no longer holds after a write.
  forgetListed(client, kind);
  return call.catch(async (error: unknown) => {
    throw (error instanceof ServiceError && (await kind.explainFailure?.(client, inputs, error))) || error;
  });
}

/** The object as the service holds it after a write, confirmed against the inputs. */
export async function confirmed(kind: Kind, client: CrmClient, id: string, answer: ServiceObject, inputs: Inputs): Promise<Record<string, unknown>> {
  const object = kind.readBackAfterWrite ? await objectAt(client, kind, id) : answer;
  if (!object) throw new PulumiCrmError(`${client.resource}: the object ${id} was gone right after it was written; run \`pulumi up\` again`);
  const state = await stateAt(kind, client, id, object, inputs);
  confirmWrite(client.resource, id, kind.desiredState(inputs), state);
  return state;
}

export const updateBodyOf = (kind: Kind, inputs: Inputs, olds: Record<string, unknown>) =>
  kind.updateBody ? kind.updateBody(inputs, olds) : kind.createBody(inputs);

/** What an ambiguous create made: found by the kind's own lookup, by its content, or by its natural key. */
function createdFinder(kind: Kind): Kind["findCreated"] {
  const { sameContent } = kind;
  return kind.findCreated ?? (sameContent ? (client, inputs, started) => findCreatedObject(client, sameContent(inputs), started) : kind.adoption?.find);
}

/** Refuses a create while an object identical to it exists (see sameContent); one holding a unique name is named as its holder (see uniqueName). */
async function refuseIdentical(kind: Kind, client: CrmClient, inputs: Inputs): Promise<void> {
  const existing = await findIdenticalObject(client, kind.sameContent!(inputs));
  if (!existing) return;
  const id = String(existing.id);
  const unique = kind.uniqueName;
  if (unique) throw nameTaken(client.resource, kind.type, unique, inputs[unique.field], id, `${client.rootUrl}${kind.path}/${id}`);
  throw new ServiceError(
    `${client.resource}: the existing ${kind.type} ${id} holds exactly what this resource declares; ${unrecordedObjectAdvice(id, `${client.rootUrl}${kind.path}/${id}`)}. To have both, declare something that tells them apart.`,
    { code: "duplicate" },
  );
}

/** A create's POST of a new object (adoption aside), recovered when its answer is lost (see findCreated). */
export async function createNew(kind: Kind, props: Record<string, unknown>): Promise<Created> {
  const client = clientFor(kind, props);
  const inputs = await prepared(kind, client, props);
  if (kind.sameContent) await refuseIdentical(kind, client, inputs);
  return postNew(kind, client, inputs);
}

/** createNew's POST, of prepared inputs; on `turn` when the caller holds one at the rate limit (see ServiceClient.turn). */
export async function postNew(kind: Kind, client: CrmClient, inputs: Inputs, turn?: Answered): Promise<Created> {
  const findCreated = createdFinder(kind);
  const attemptStarted = Date.now();
  const response = await written(
    kind,
    client,
    inputs,
    client.call(
      { method: "POST", path: kind.createPath?.(inputs) ?? kind.path, body: requestBody(kind, kind.createBody(inputs)) },
      {
        advice: kind.advice,
        recover: findCreated
          ? async () => {
              const found = await findCreated(client, inputs, attemptStarted);
              return found && { status: 200, body: { [kind.member]: found } };
            }
          : undefined,
        turn,
      },
    ),
  );
  const answer = objectIn(response, kind.member);
  const id = String(answer.id);
  recordMade(client, kind.path, id);
  try {
    await kind.afterCreate?.(client, id, inputs);
  } catch (error) {
    throw await madeButUnfinished(kind, client, id, inputs, error);
  }
  return { id, outs: await confirmed(kind, client, id, answer, inputs) };
}

/**
 * A create whose object was made, but whose own calls after it (a field's options, its lists)
 * failed: the object is recorded as made (Pulumi's "failed to initialize"), in the state the
 * service holds, so that the next `up` finishes it instead of leaving it unmanaged and then
 * refusing to make its twin.
 */
async function madeButUnfinished(kind: Kind, client: CrmClient, id: string, inputs: Inputs, error: unknown): Promise<unknown> {
  if (!(error instanceof Error)) return error;
  const object = await objectAt(client, kind, id).catch(() => undefined);
  const state = object && (await stateAt(kind, client, id, object, inputs).catch(() => undefined));
  return new PartlyDoneError(`${error.message} The ${kind.type} ${id} was made; run \`pulumi up\` again to finish it.`, id, state ?? {});
}

/**
 * A refresh reads the object as the stored state declares it; an import, from the id alone,
 * as the export declares it: with every member the service keeps behind calls of its own
 * (an address's group and list, see relatedForImport), not only those a stack declares.
 */
export async function read(kind: Kind, id: string, from: ReadFrom): Promise<Found | undefined> {
  const props = storedOutputs(from);
  const client = clientFor(kind, props, id);
  const object = await readObject(client, kind, id);
  // Undefined: the object is gone, and refresh drops it from the state.
  if (!object) return undefined;
  const importing = "import" in from;
  const declared = importing ? ((await kind.relatedForImport?.(client, id)) ?? {}) : props;
  // An import declares what the service chose too (a field's display order), as the export does.
  const state = await stateAt(kind, client, id, object, declared, importing);
  return { id, outputs: state, inputs: inputsOf(kind, state) };
}

/** One PUT of prepared inputs: the update body, or `body` when given. */
export async function updateAlone(
  kind: Kind,
  client: CrmClient,
  id: string,
  olds: Record<string, unknown>,
  inputs: Inputs,
  body = updateBodyOf(kind, inputs, olds),
): Promise<Updated> {
  const path = kind.updatePath?.(id, inputs) ?? `${kind.path}/${id}`;
  const response = await written(kind, client, inputs, client.call({ method: "PUT", path, body: requestBody(kind, body) }, { advice: kind.advice }));
  await kind.afterUpdate?.(client, id, olds, inputs);
  const answer = kind.readBackAfterWrite ? {} : objectIn(response, kind.member);
  return { outs: await confirmed(kind, client, id, answer, inputs) };
}

export async function update(context: LifecycleContext, id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Updated> {
  const { kind, bulk } = context;
  const client = clientFor(kind, news, id);
  const inputs = await prepared(kind, client, news, olds, id);
  return bulk ? bulk.update(client, id, olds, inputs) : updateAlone(kind, client, id, olds, inputs);
}

export async function remove(context: LifecycleContext, id: string, props: Record<string, unknown>): Promise<void> {
  const { kind, deleteTogether } = context;
  const client = clientFor(kind, props, id);
  forgetListed(client, kind);
  forgetListingBeforeCreates(client, kind.path);
  await (deleteTogether ? deleteTogether(client, id) : deleteObject(client, `${kind.path}/${id}`));
}
