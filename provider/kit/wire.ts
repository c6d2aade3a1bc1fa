// A field's wire form: its name in the service's requests and answers, how an answer's value
// is read into the state (one form per value, so that read returns what create returned), and
// how an input is sent. Declared with the field (see ./declaration.ts); the state, the desired
// state every write is confirmed against, and the create and update bodies come from it.

import { withoutUndefined } from "./inputs";

export interface Wire {
  /** The member's name in requests; false: never sent (the path names it). By default the field's name. */
  request?: string | false;
  /** Its name in answers, when not the request's; several: the first the answer holds (a value's account, answered under two names). */
  answer?: string | readonly string[];
  /** The state's value of the answer's member (`object`: the whole answer, for a value read in the form of another member). */
  read(value: unknown, object: Record<string, unknown>): unknown;
  /** The request's value of the input, when not the input itself (`inputs`: all of them, for a value sent in the form of another). */
  send?(value: unknown, inputs: Record<string, unknown>): unknown;
  /** An update does not send it (the service's update does not take it: a change replaces the object). */
  createOnly?: boolean;
  /** What an update sends for an unset input to clear it (a PUT leaves out what it does not change); by default nothing. */
  clearWith?: unknown;
  /** The clearing value goes only where the state holds a value: the service takes it for clearing only then. */
  clearsOnlyHeld?: boolean;
  /** A create leaves the member out when the input is unset or null; by default only when unset. */
  createLeavesOutNull?: boolean;
  /** The sent value, an object, goes as members of the request's own, each under its name (a user group's permissions). */
  spread?: boolean;
}

/** An input the service takes but never answers (a run's contacts): the state keeps the input as given. */
export const sentOnly = (names: Pick<Wire, "request" | "send">): Wire => ({ ...names, read: () => undefined });

/** A declared field with its wire form, as the forms below read it. */
export interface WiredField {
  name: string;
  role: "input" | "output" | "both";
  wire?: Wire;
}

const requestName = (field: WiredField) => (field.wire?.request === undefined ? field.name : field.wire.request);

/** The answer's member holding the field: the first of its answer names that is set. */
function answered(field: WiredField & { wire: Wire }, object: Record<string, unknown>): unknown {
  const names = [field.wire.answer ?? (requestName(field) || field.name)].flat();
  return object[names.find((name) => object[name] !== undefined && object[name] !== null) ?? names[0]];
}
const wired = (fields: readonly WiredField[]) => fields.filter((field): field is WiredField & { wire: Wire } => field.wire !== undefined);

/** What a resource's declaration gives its lifecycle: its state, desired state and request bodies, from the wire forms. */
export interface WireForms {
  /** The state of a service object: each wired field read from its answer member; unset ones left out. */
  stateOf(object: Record<string, unknown>): Record<string, unknown>;
  /** What the inputs ask the service to hold, in the state's form: null for an unset input, which the write must leave unset or clear. */
  desiredState(inputs: Record<string, unknown>): Record<string, unknown>;
  /** The create's request member: each sent input under its request name; unset ones left out. */
  createBody(inputs: Record<string, unknown>): Record<string, unknown>;
  /** The update's of the state `olds`: the create's, with an unset input's clearing value (see clearsOnlyHeld). */
  updateBody(inputs: Record<string, unknown>, olds: Record<string, unknown>): Record<string, unknown>;
}

export function wireForms(fields: readonly WiredField[]): WireForms {
  const all = wired(fields);
  const inputs = all.filter((field) => field.role === "both");
  const sent = inputs.filter((field) => requestName(field) !== false);
  const unset = (value: unknown) => value === undefined || value === null;
  const spread = sent.filter((field) => field.wire.spread).map(requestName) as string[];
  const body = (values: Record<string, unknown>, step: "create" | "update", olds: Record<string, unknown> = {}) => {
    const members: Record<string, unknown> = sentMembers(values, step, olds);
    for (const name of spread) Object.assign(members, members[name], { [name]: undefined });
    return withoutUndefined(members);
  };
  const sentMembers = (values: Record<string, unknown>, step: "create" | "update", olds: Record<string, unknown>) =>
    withoutUndefined(
      Object.fromEntries(
        sent
          .filter((field) => step === "create" || !field.wire.createOnly)
          .map((field) => {
            const value = values[field.name];
            const clears = step === "update" && unset(value) && "clearWith" in field.wire && !(field.wire.clearsOnlyHeld && unset(olds[field.name]));
            if (clears) return [requestName(field), field.wire.clearWith];
            if (value === undefined || (value === null && (step === "create" ? field.wire.createLeavesOutNull : false))) return [requestName(field), undefined];
            return [requestName(field), field.wire.send && value !== null ? field.wire.send(value, values) : value];
          }),
      ),
    );
  return {
    stateOf: (object) => withoutUndefined(Object.fromEntries(all.map((field) => [field.name, field.wire.read(answered(field, object), object)]))),
    desiredState: (values) => Object.fromEntries(inputs.map((field) => [field.name, values[field.name] ?? null])),
    createBody: (values) => body(values, "create"),
    updateBody: (values, olds) => body(values, "update", olds),
  };
}
