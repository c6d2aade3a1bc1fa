// The lifecycle of a plain CRM object: created by POST to its collection, read,
// changed and deleted at `{collection}/{id}`, its JSON under one root key. A
// resource file declares its kind (schema, normalization, request bodies) and
// exports what crmLifecycle makes of it; only what is particular to the resource
// stays in its file.

import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { unknownValue, withoutProvider, withoutUndefined } from "../kit/inputs";
import { checkInputs, differingFields, diffInputs, ResourceKind, sameValue } from "../kit/check-diff";
import { announceAdoption, claimNaturalKey, notAdoptable, releaseNaturalKey, unrecordedObjectAdvice } from "../kit/adoption";
import { confirmWrite } from "../kit/write-errors";
import { ServiceError } from "../transport/errors";
import { HttpResponse } from "../transport/transport";
import { bulkWriter, BulkWrites } from "./bulk-writes";
import { CrmClient } from "./client";
import { Collection, getObject, objectIn, ServiceObject } from "./collection";
import { forgetListed, readObject } from "./read-batcher";
import { CreatedObjectMatch, findCreatedObject, findIdenticalObject, forgetListingBeforeCreates } from "./recovery";

/** A plain CRM object's kind: where its objects are (see Collection), and what is particular to it. */
export interface CrmObjectKind<Schema extends z.AnyZodObject, State extends Record<string, unknown>> extends ResourceKind<Schema>, Collection {
  /**
   * The outputs: the service's object normalized (strings for ids, booleans for 0/1
   * flags, one form for dates), so that read returns exactly what create returned.
   * Volatile members (timestamps, counters) are left out.
   */
  stateOf(object: ServiceObject): State;
  /** What the inputs ask the service to hold, in stateOf's form (null: unset): every write is confirmed against it. */
  desiredState(inputs: z.output<Schema>): { [Field in keyof State]?: State[Field] | null };
  /** The request member for a create; unset optional members left out. */
  createBody(inputs: z.output<Schema>): Record<string, unknown>;
  /** The request member for an update; by default the create's. `olds` is the state it changes. */
  updateBody?(inputs: z.output<Schema>, olds: Record<string, unknown>): Record<string, unknown>;
  /** The service's answer to a write is partial or unspecified: read the object back. */
  readBackAfterWrite?: boolean;
  /** Advice by service code or status for failed writes (see CallContext). */
  advice?: Record<string, string>;
  /**
   * Members the service keeps behind calls of their own (an address's group and list
   * associations), merged into the object before stateOf. `declared` is what the stack
   * manages: the inputs after a write, the stored state on read.
   */
  readRelated?(client: CrmClient, id: string, declared: Record<string, unknown>): Promise<ServiceObject>;
  /** After an update's PUT, before it is confirmed: what the PUT cannot do itself (deleting a replaced association). */
  afterUpdate?(client: CrmClient, id: string, olds: Record<string, unknown>, inputs: z.output<Schema>): Promise<void>;
  /**
   * After a create that may have reached the service: the object it made, found by a
   * natural key, else undefined (it is then sent again). Without it (or sameContent, or
   * adoption), such a create is reported and not resent.
   */
  findCreated?(client: CrmClient, inputs: z.output<Schema>, attemptStarted: number): Promise<ServiceObject | undefined>;
  /**
   * For objects without a unique key: how to find those holding every value a create of
   * `inputs` sends (see ./recovery.ts). One made since the attempt is what an ambiguous
   * create made; one that exists before the create is refused, named with the way to take
   * it over or delete it, since it may be what a killed deployment made and never recorded.
   */
  sameContent?(inputs: z.output<Schema>): CreatedObjectMatch;
  /**
   * Before a create or an update: the inputs completed with what the write needs from
   * other objects (a value's field type), and put in the form that depends on it;
   * inputs that do not fit are refused here, before anything is written. `olds` is the
   * state an update changes (or an adopted object's), which may hold it already.
   */
  prepareWrite?(client: CrmClient, inputs: z.output<Schema>, olds?: Record<string, unknown>): Promise<z.output<Schema>>;
  /** Where a create is POSTed when not to `path`, e.g. `/accounts/{id}/notes` for an account's note. */
  createPath?(inputs: z.output<Schema>): string;
  /** Where an update is PUT when not to `{path}/{id}`. */
  updatePath?(id: string, inputs: z.output<Schema>): string;
  /**
   * Fields the service fills in when the inputs leave them unset (a field's display
   * order): the state holds them only while the stack declares them, so the service's
   * choice is neither a change nor drift. Their unset input must be undefined.
   */
  serviceAssigned?: readonly string[];
  /** Objects unique by a natural key the service does not enforce: see NaturalKeyAdoption. */
  adoption?: NaturalKeyAdoption<Schema>;
  /**
   * The service's bulk create and update: writes that arrive together go out through
   * them (see ./bulk-writes.ts). Only with `adoption`, whose key tells which creates a
   * bulk may hold; not with readBackAfterWrite or afterUpdate.
   */
  bulk?: BulkWrites;
  /** A clearer error for a refused write, after a look around (which account holds a contact); undefined keeps the service's. */
  explainFailure?(client: CrmClient, inputs: z.output<Schema>, error: ServiceError): Promise<Error | undefined>;
  /**
   * What an object read at `{path}/{id}` (or listed at `path`) is when it is not of this
   * kind, e.g. `a note on a Subscriber`; undefined when it is. Adoption by id refuses
   * it, and the export leaves it out.
   */
  otherKind?(object: ServiceObject): string | undefined;
}

/**
 * A create first looks for an object holding the natural key (a field label). One that
 * exists is taken over only with the input `adoptExisting: true`, else the error names
 * it; two resources of one program declaring the key are refused before any request.
 * An ambiguous create is recovered by the same lookup.
 */
export interface NaturalKeyAdoption<Schema extends z.AnyZodObject> {
  /** The key, compared without regard to case. */
  key(inputs: z.output<Schema>): string;
  /** How messages name it, e.g. `the field label "Tier"`. */
  describe(inputs: z.output<Schema>): string;
  /** The way out besides adoption, e.g. `choose another label`. */
  instead: string;
  /** The object holding the key, if any. */
  find(client: CrmClient, inputs: z.output<Schema>): Promise<ServiceObject | undefined>;
}

export interface CrmLifecycle {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props?: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Record<string, unknown>): Promise<void>;
  /**
   * The inputs that declare an object exactly as the service holds it, as read gives
   * them back (for `pulumi-crm export`); `object` carries what readRelated would add (a
   * value's fieldType, an address's groupId). Undefined for an object of another kind.
   */
  inputsDeclaring(object: ServiceObject): Record<string, unknown> | undefined;
}

/** Deletes `path`; already gone is what delete wants. */
export async function deleteObject(client: CrmClient, path: string): Promise<void> {
  await client.call({ method: "DELETE", path }, { accept: [404] });
}

/**
 * The claims of objects taken over by adoptId, by kind (see claimNaturalKey): two
 * resources managing one object would undo each other's changes.
 */
export const adoptIdClaims = (type: string) => `${type} adoptId`;

/** Runs a take-over by adoptId with the object claimed for this resource; a second resource of the program naming it is refused. */
export async function claimingAdoptId<T>(client: CrmClient, type: string, id: string, takeOver: () => Promise<T>): Promise<T> {
  if (!claimNaturalKey(client, adoptIdClaims(type), id)) {
    throw new ServiceError(`${client.resource}: two resources of this program take over ${type} ${id} with adoptId; declare it once.`, { code: "duplicate", field: "adoptId" });
  }
  try {
    return await takeOver();
  } catch (error) {
    releaseNaturalKey(client, adoptIdClaims(type), id);
    throw error;
  }
}

/** The inputs read gives back: the input fields of the state, creation-only options left out. */
export function inputsOf(kind: ResourceKind<z.AnyZodObject>, state: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(kind.schema.shape).filter((field) => field in state).map((field) => [field, state[field]]));
}

export function crmLifecycle<Schema extends z.AnyZodObject, State extends Record<string, unknown>>(
  kind: CrmObjectKind<Schema, State>,
): CrmLifecycle {
  const parse = (props: Record<string, unknown>) => kind.schema.parse(withoutProvider(props)) as z.output<Schema>;
  const clientFor = (props: Record<string, unknown>, id?: string) => {
    const label = kind.label(props);
    return new CrmClient(label === kind.type && id ? `${kind.type} ${id}` : label);
  };
  // Undefined members left out: the provider host's protobuf Struct refuses them.
  const stateAt = async (client: CrmClient, id: string, object: ServiceObject, declared: Record<string, unknown>) =>
    withoutUndefined(
      declaredOnly(kind.stateOf(kind.readRelated ? { ...object, ...(await kind.readRelated(client, id, declared)) } : object), declared),
    ) as State;
  /** The state without the service-assigned fields the stack does not declare (see serviceAssigned). */
  const declaredOnly = (state: State, declared: Record<string, unknown>): State => {
    const undeclared = (kind.serviceAssigned ?? []).filter((field) => declared[field] === undefined || declared[field] === null);
    return Object.fromEntries(Object.entries(state).filter(([field]) => !undeclared.includes(field))) as State;
  };
  const adoptIdOf = (props: Record<string, unknown>) => (parse(props) as { adoptId?: string }).adoptId;
  /** The inputs of a write, completed by the kind (see prepareWrite). */
  const prepared = async (client: CrmClient, props: Record<string, unknown>, olds?: Record<string, unknown>) =>
    kind.prepareWrite ? kind.prepareWrite(client, parse(props), olds) : parse(props);
  /** A write's call, its failure explained by the kind when it can be. */
  const written = (client: CrmClient, inputs: z.output<Schema>, call: Promise<HttpResponse>): Promise<HttpResponse> => {
    // What this host listed of the collection no longer holds after a write.
    forgetListed(client, kind);
    return call.catch(async (error: unknown) => {
      throw (error instanceof ServiceError && (await kind.explainFailure?.(client, inputs, error))) || error;
    });
  };
  /** The object as the service holds it after a write, confirmed against the inputs. */
  const confirmed = async (client: CrmClient, id: string, answer: ServiceObject, inputs: z.output<Schema>) => {
    const object = kind.readBackAfterWrite ? await getObject(client, `${kind.path}/${id}`, kind.member) : answer;
    if (!object) throw new Error(`${client.resource}: the object ${id} was gone right after it was written; run \`pulumi up\` again`);
    const state = await stateAt(client, id, object, inputs);
    confirmWrite(client.resource, id, kind.desiredState(inputs), state);
    return state;
  };
  /**
   * Takes an existing object over, said out loud. Refused when a field an update cannot
   * change differs (`taken` names the object, `instead` the way out); an update is sent
   * only when a declared value differs, so an object that matches already gets no write.
   */
  const takeOver = async (client: CrmClient, id: string, object: ServiceObject, props: Record<string, unknown>, taken: string, instead: string) => {
    const inputs = await prepared(client, props);
    const current = await stateAt(client, id, object, inputs);
    for (const field of kind.replaceOn ?? []) {
      if (inputs[field] !== undefined && !sameValue(current[field], inputs[field])) {
        const held = JSON.stringify(current[field] ?? null);
        throw new ServiceError(`${taken}, whose ${field} is ${held}, which an update cannot change; declare ${field} ${held} to take it over, or ${instead}.`, {
          code: "duplicate",
          field,
        });
      }
    }
    announceAdoption(client.resource, id);
    if (!differingFields(kind.desiredState(inputs), current).length) return { id, outs: current };
    return { id, outs: (await lifecycle.update(id, current, props)).outs };
  };
  const updateBodyOf = (inputs: z.output<Schema>, olds: Record<string, unknown>) => (kind.updateBody ? kind.updateBody(inputs, olds) : kind.createBody(inputs));
  /** One PUT of prepared inputs. */
  const updateAlone = async (client: CrmClient, id: string, olds: Record<string, unknown>, inputs: z.output<Schema>): Promise<pulumi.dynamic.UpdateResult> => {
    const path = kind.updatePath?.(id, inputs) ?? `${kind.path}/${id}`;
    const body = updateBodyOf(inputs, olds);
    const response = await written(client, inputs, client.call({ method: "PUT", path, body: { [kind.member]: body } }, { advice: kind.advice }));
    await kind.afterUpdate?.(client, id, olds, inputs);
    const answer = kind.readBackAfterWrite ? {} : objectIn(response, kind.member);
    return { outs: await confirmed(client, id, answer, inputs) };
  };
  /** Create with adoptId: the object of that id taken over. */
  const adoptById = (props: Record<string, unknown>, id: string): Promise<pulumi.dynamic.CreateResult> => {
    const client = clientFor(props);
    return claimingAdoptId(client, kind.type, id, async () => {
      const object = await getObject(client, `${kind.path}/${id}`, kind.member);
      const other = object && kind.otherKind?.(object);
      if (!object || other) throw notAdoptable(client.resource, kind.type, id, other);
      return takeOver(client, id, object, props, `${client.resource}: the object ${id} named by adoptId`, "remove adoptId to create a new one");
    });
  };

  const { sameContent } = kind;
  /** What an ambiguous create made: found by the kind's own lookup, by its content, or by its natural key. */
  const findCreated: CrmObjectKind<Schema, State>["findCreated"] =
    kind.findCreated ?? (sameContent ? (client, inputs, started) => findCreatedObject(client, sameContent(inputs), started) : kind.adoption?.find);
  /** Refuses a create while an object identical to it exists (see sameContent). */
  const refuseIdentical = async (client: CrmClient, match: CreatedObjectMatch) => {
    const existing = await findIdenticalObject(client, match);
    if (!existing) return;
    const id = String(existing.id);
    throw new ServiceError(
      `${client.resource}: the existing ${kind.type} ${id} holds exactly what this resource declares; ${unrecordedObjectAdvice(id, `${client.rootUrl}${kind.path}/${id}`)}. To have both, declare something that tells them apart.`,
      { code: "duplicate" },
    );
  };

  const lifecycle: CrmLifecycle = {
    check: async (_olds, news) => checkInputs(kind, news),
    diff: async (_id, olds, news) => diffInputs(kind, olds, news),

    async create(props) {
      const adoptId = adoptIdOf(props);
      if (adoptId) return adoptById(props, adoptId);
      const client = clientFor(props);
      const inputs = await prepared(client, props);
      if (sameContent) await refuseIdentical(client, sameContent(inputs));
      const attemptStarted = Date.now();
      const response = await written(
        client,
        inputs,
        client.call({ method: "POST", path: kind.createPath?.(inputs) ?? kind.path, body: { [kind.member]: kind.createBody(inputs) } }, {
          advice: kind.advice,
          recover: findCreated
            ? async () => {
                const found = await findCreated(client, inputs, attemptStarted);
                return found && { status: 200, body: { [kind.member]: found } };
              }
            : undefined,
        }),
      );
      const answer = objectIn(response, kind.member);
      const id = String(answer.id);
      return { id, outs: await confirmed(client, id, answer, inputs) };
    },

    async read(id, props = {}) {
      const client = clientFor(props, id);
      const object = await readObject(client, kind, id);
      // No id: the object is gone, and refresh drops it from the state.
      if (!object) return {};
      const state = await stateAt(client, id, object, props);
      return { id, props: state, inputs: inputsOf(kind, state) };
    },

    async update(id, olds, news) {
      const client = clientFor(news, id);
      const inputs = await prepared(client, news, olds);
      return bulk ? bulk.update(client, id, olds, inputs) : updateAlone(client, id, olds, inputs);
    },

    async delete(id, props) {
      const client = clientFor(props, id);
      forgetListed(client, kind);
      forgetListingBeforeCreates(client, kind.path);
      await deleteObject(client, `${kind.path}/${id}`);
    },

    inputsDeclaring: (object) => (kind.otherKind?.(object) ? undefined : withoutUndefined(inputsOf(kind, kind.stateOf(object)))),
  };

  /** A create by natural key on its own: the object holding the key is refused, or with adoptExisting taken over out loud; with none, one is made. */
  const createByKey = async (client: CrmClient, props: Record<string, unknown>, adoption: NaturalKeyAdoption<Schema>) => {
    const inputs = parse(props);
    const existing = await adoption.find(client, inputs);
    if (!existing) return lifecycle.create(props);
    const id = String(existing.id);
    const taken = `${client.resource}: ${adoption.describe(inputs)} is taken by the existing object ${id}`;
    if (!(inputs as { adoptExisting?: boolean }).adoptExisting) {
      throw new ServiceError(
        `${taken}; ${adoption.instead}, or, only if no stack manages that object, set adoptExisting: true to take it over with this stack; ${unrecordedObjectAdvice(id, `${client.rootUrl}${kind.path}/${id}`)}.`,
        { code: "duplicate" },
      );
    }
    return takeOver(client, id, existing, props, taken, adoption.instead);
  };

  const keyOf = (adoption: NaturalKeyAdoption<Schema>, props: Record<string, unknown>) => adoption.key(props as z.output<Schema>).toLowerCase();
  const bulk =
    kind.bulk &&
    kind.adoption &&
    bulkWriter(kind.bulk, {
      keyOf: (inputs) => keyOf(kind.adoption!, inputs),
      keyOfObject: (object) => keyOf(kind.adoption!, kind.stateOf(object)),
      createBody: (inputs) => kind.createBody(inputs as z.output<Schema>),
      updateBody: (inputs, olds) => updateBodyOf(inputs as z.output<Schema>, olds),
      create: (props) => lifecycle.create(props),
      createOverExisting: (client, props) => createByKey(client, props, kind.adoption!),
      update: (client, id, olds, inputs) => updateAlone(client, id, olds, inputs as z.output<Schema>),
      confirmed: (client, id, object, inputs) => confirmed(client, id, object, inputs as z.output<Schema>),
      forgetListed: (client) => forgetListed(client, kind),
    });

  /** Create for objects unique by a natural key the service does not enforce (see NaturalKeyAdoption). */
  const adopting = (adoption: NaturalKeyAdoption<Schema>): CrmLifecycle => ({
    ...lifecycle,
    // A replacement holding the same key would find its predecessor and refuse to take it: the old object goes first.
    async diff(id, olds, news) {
      const result = await lifecycle.diff(id, olds, news);
      const newKey = keyOf(adoption, news);
      const keepsKey = newKey.includes(unknownValue) || keyOf(adoption, olds) === newKey;
      return result.replaces?.length && keepsKey ? { ...result, deleteBeforeReplace: true } : result;
    },
    async create(props) {
      const inputs = parse(props);
      const client = clientFor(props);
      const key = adoption.key(inputs);
      if (!claimNaturalKey(client, kind.type, key)) {
        throw new ServiceError(`${client.resource}: two resources of this program declare ${adoption.describe(inputs)}; give each its own.`, { code: "duplicate" });
      }
      try {
        // By id, the natural key is claimed but not looked up.
        if (adoptIdOf(props)) return await lifecycle.create(props);
        // The bulk writer looks the keys of its group up together.
        if (bulk) return await bulk.create(client, props, await prepared(client, props));
        return await createByKey(client, props, adoption);
      } catch (error) {
        releaseNaturalKey(client, kind.type, key);
        throw error;
      }
    },
    // Deleted, the object no longer holds its key: another resource of the program may take it.
    async delete(id, props) {
      await lifecycle.delete(id, props);
      releaseNaturalKey(clientFor(props, id), kind.type, adoption.key(props as z.output<Schema>));
    },
  });
  return kind.adoption ? adopting(kind.adoption) : lifecycle;
}
