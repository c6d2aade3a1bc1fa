// The lifecycle of a plain CRM object: created by POST to its collection, read,
// changed and deleted at `{collection}/{id}`, its JSON under one root key. A
// resource file declares its kind (schema, normalization, request bodies) and
// exports what crmLifecycle makes of it; only what is particular to the resource
// stays in its file.

import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { checkInputs, confirmWrite, diffInputs, ResourceKind, withoutProvider } from "../resource-kit";
import { HttpResponse } from "../transport/transport";
import { CrmClient } from "./client";

export type ServiceObject = Record<string, unknown>;

export interface CrmObjectKind<Schema extends z.AnyZodObject, State extends Record<string, unknown>> extends ResourceKind<Schema> {
  /** The collection below /api/3, e.g. `/calendars`; one object is `{path}/{id}`. */
  path: string;
  /** The root key of one object in requests and responses, e.g. `calendar`. */
  member: string;
  /**
   * The outputs: the service's object normalized (strings for ids, booleans for 0/1
   * flags, one form for dates), so that read returns exactly what create returned.
   * Volatile members (timestamps, counters) are left out.
   */
  stateOf(object: ServiceObject): State;
  /** What the inputs ask the service to hold, in stateOf's form: every write is confirmed against it. */
  desiredState(inputs: z.output<Schema>): Partial<State>;
  /** The request member for a create; unset optional members left out. */
  createBody(inputs: z.output<Schema>): Record<string, unknown>;
  /** The request member for an update; by default the create's. */
  updateBody?(inputs: z.output<Schema>): Record<string, unknown>;
  /** The service's answer to a write is partial or unspecified: read the object back. */
  readBackAfterWrite?: boolean;
  /** Advice by service code or status for failed writes (see CallContext). */
  advice?: Record<string, string>;
  /**
   * After a create that may have reached the service: the object it made, found by a
   * natural key, else undefined (it is then sent again). Without it, such a create is
   * reported and not resent.
   */
  findCreated?(client: CrmClient, inputs: z.output<Schema>, attemptStarted: number): Promise<ServiceObject | undefined>;
}

export interface CrmLifecycle {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props?: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Record<string, unknown>): Promise<void>;
}

/** The object at `{path}/{id}`, or undefined when the service has none (either 404 shape). */
export async function getObject(client: CrmClient, path: string, member: string): Promise<ServiceObject | undefined> {
  const response = await client.call({ method: "GET", path }, { accept: [404] });
  return response.status === 404 ? undefined : objectIn(response, member);
}

/** Deletes `path`; already gone is what delete wants. */
export async function deleteObject(client: CrmClient, path: string): Promise<void> {
  await client.call({ method: "DELETE", path }, { accept: [404] });
}

export function objectIn(response: HttpResponse, member: string): ServiceObject {
  const object = (response.body as Record<string, unknown> | undefined)?.[member];
  if (!object || typeof object !== "object") throw new Error(`the service's answer holds no "${member}"`);
  return object as ServiceObject;
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
  /** The object as the service holds it after a write, confirmed against the inputs. */
  const confirmed = async (client: CrmClient, id: string, answer: ServiceObject, inputs: z.output<Schema>) => {
    const object = kind.readBackAfterWrite ? await getObject(client, `${kind.path}/${id}`, kind.member) : answer;
    if (!object) throw new Error(`${client.resource}: the object ${id} was gone right after it was written; run \`pulumi up\` again`);
    const state = kind.stateOf(object);
    confirmWrite(client.resource, id, kind.desiredState(inputs), state);
    return state;
  };

  return {
    check: async (_olds, news) => checkInputs(kind, news),
    diff: async (_id, olds, news) => diffInputs(kind, olds, news),

    async create(props) {
      const inputs = parse(props);
      const client = clientFor(props);
      const attemptStarted = Date.now();
      const findCreated = kind.findCreated;
      const response = await client.call(
        { method: "POST", path: kind.path, body: { [kind.member]: kind.createBody(inputs) } },
        {
          advice: kind.advice,
          recover: findCreated
            ? async () => {
                const found = await findCreated(client, inputs, attemptStarted);
                return found && { status: 200, body: { [kind.member]: found } };
              }
            : undefined,
        },
      );
      const answer = objectIn(response, kind.member);
      const id = String(answer.id);
      return { id, outs: await confirmed(client, id, answer, inputs) };
    },

    async read(id, props = {}) {
      const object = await getObject(clientFor(props, id), `${kind.path}/${id}`, kind.member);
      // No id: the object is gone, and refresh drops it from the state.
      if (!object) return {};
      const state = kind.stateOf(object);
      return { id, props: state, inputs: inputsOf(kind, state) };
    },

    async update(id, _olds, news) {
      const inputs = parse(news);
      const client = clientFor(news, id);
      const body = (kind.updateBody ?? kind.createBody)(inputs);
      const response = await client.call({ method: "PUT", path: `${kind.path}/${id}`, body: { [kind.member]: body } }, { advice: kind.advice });
      const answer = kind.readBackAfterWrite ? {} : objectIn(response, kind.member);
      return { outs: await confirmed(client, id, answer, inputs) };
    },

    delete: (id, props) => deleteObject(clientFor(props, id), `${kind.path}/${id}`),
  };
}
