// The provider core of a resource: what both doors need of it, decided once. The dynamic
// class (./dynamic-door.ts) and the native plugin (../plugin/server.ts) only translate
// these calls and answers into their own protocol: check, a diff that names each changed
// field and whether it replaces the object (plus a change tied to no field, such as a run
// to carry on), a read that knows a refresh from an import, create, update and delete.

import type { AnyResourceDeclaration } from "./declaration";

/** A field a program may declare once only: an account's name, a field's label (see ./unique-names.ts). */
export interface UniqueName {
  field: string;
  /** How messages call it: `account name`. */
  what: string;
  /** The input whose value scopes the name (a tag's type): unique within each value of it. */
  within?: string;
}

/**
 * The objects every account comes with (the task types Call, Email, Lunch and Meeting), known
 * in each account by the value of `field`, regardless of case. A resource declaring one takes
 * the account's own over (said out loud) instead of making a second, and its delete leaves it
 * in place; `pulumi-crm export` declares them in a program for any account without an id.
 */
export interface BuiltIns {
  field: string;
  names: readonly string[];
  /** How messages and pages call them: `the task types every account comes with`. */
  what: string;
}

/** Whether inputs or a state declare one of the built-ins. */
export const isBuiltIn = (builtIns: BuiltIns | undefined, values: Record<string, unknown>): boolean =>
  !!builtIns &&
  typeof values[builtIns.field] === "string" &&
  builtIns.names.some((name) => name.toLowerCase() === String(values[builtIns.field]).toLowerCase());

/** One problem of the inputs: the property path (empty: the resource as a whole) and why. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** The checked inputs to store, or the failures that refuse them. */
export interface Checked {
  inputs?: Record<string, unknown>;
  failures?: CheckFailure[];
}

/** One changed input: changed in place, or replacing the object. */
export interface FieldChange {
  field: string;
  replace: boolean;
}

/** What an up would do to an object: its changed inputs, and a change tied to no input. */
export interface Changes {
  fields: FieldChange[];
  /** Why the object changes though no input did (an action's run that did not finish), if it does. */
  unfinished?: string;
  /** The old object goes before its replacement is made (it holds a unique key the new one needs). */
  deleteBeforeReplace?: boolean;
}

/** A refresh reads from the stored outputs; an import from the id alone. */
export type ReadFrom = { refresh: Record<string, unknown> } | { import: true };

/** An object as read: its outputs, and the inputs that declare it. */
export interface Found {
  id: string;
  outputs: Record<string, unknown>;
  inputs: Record<string, unknown>;
}

export interface Created {
  id: string;
  outs: Record<string, unknown>;
}

export interface Updated {
  outs: Record<string, unknown>;
}

/** Whether `pulumi import` can take an object from its id alone, or why not. */
export type Importability = true | { refused: string };

/** A resource's provider core. */
export interface ResourceCore {
  readonly declaration: AnyResourceDeclaration;
  /** Declared per resource: an import reads an object from its id alone, declaring what `pulumi-crm export` would. */
  readonly importable: Importability;
  /** The field a deployment declares once, if any. */
  readonly uniqueName?: UniqueName;
  /** The objects every account comes with, if the kind has any. */
  readonly builtIns?: BuiltIns;
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Checked>;
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Changes>;
  /** Undefined: the object is gone. Never called to import a resource that is not importable. */
  read(id: string, from: ReadFrom): Promise<Found | undefined>;
  create(inputs: Record<string, unknown>): Promise<Created>;
  update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Updated>;
  delete(id: string, outputs: Record<string, unknown>): Promise<void>;
}

/** Whether anything changes: a changed input, or a change tied to none. */
export const hasChanges = (changes: Changes) => changes.fields.length > 0 || changes.unfinished !== undefined;

/** The changed inputs that replace the object. */
export const replacedFields = (changes: Changes) => changes.fields.filter((change) => change.replace).map((change) => change.field);

/** The stored outputs a refresh reads from, or none for an import. */
export const storedOutputs = (from: ReadFrom): Record<string, unknown> => ("refresh" in from ? from.refresh : {});
