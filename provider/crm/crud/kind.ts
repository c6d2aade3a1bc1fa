// What a plain CRM object's kind declares to crmCore (see ./index.ts): where its
// objects are, how they are normalized and written, and the hooks for what is
// particular to it. Types only.

import type { z } from "zod";
import type { ResourceKind } from "../../kit/check-diff";
import type { BuiltIns, ResourceCore, UniqueName } from "../../kit/core";
import type { ServiceError } from "../../transport/errors";
import type { BulkDelete } from "../service/bulk-deletes";
import type { BulkWrites } from "../service/bulk-writes";
import type { CrmClient } from "../service/client";
import type { Collection, ServiceObject } from "../service/collection";
import type { CreatedObjectMatch } from "../service/recovery";

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
  /**
   * A take-over's PUT holds only the members of updateBody whose declared value differs
   * from the object's (updateBody's members named as the state's), and goes out alone;
   * by default it is a whole update.
   */
  takeOverSendsDiffering?: boolean;
  /** A write's members go at the top of the request body, not under the root key (the reference's /dealRoles and /groupMembers); answers keep the root key. */
  bareBody?: boolean;
  /** The service's answer to a write is partial or unspecified: read the object back. */
  readBackAfterWrite?: boolean;
  /** Advice by service code or status for failed writes (see CallContext). */
  advice?: Record<string, string>;
  /**
   * How messages name the object `id` in read, update and delete, from its state or new
   * inputs; by default its label, or `type id` when the label names no object.
   */
  labelWithId?(props: Record<string, unknown>, id: string): string;
  /**
   * Members the service keeps behind calls of their own (an address's group and list
   * associations), merged into the object before stateOf. `declared` is what the stack
   * manages: the inputs after a write, the stored state on read (nothing on import); `object` is
   * the service's object as read.
   */
  readRelated?(client: CrmClient, id: string, declared: Record<string, unknown>, object: ServiceObject): Promise<ServiceObject>;
  /**
   * Those members as an import from the id alone, and the export, declare them: all of them
   * (an address's first group and list), in the inputs' names.
   */
  relatedForImport?(client: CrmClient, id: string): Promise<ServiceObject>;
  /** After a create's POST, before it is confirmed: the members made by calls of their own (a field's options and list relations). */
  afterCreate?(client: CrmClient, id: string, inputs: z.output<Schema>): Promise<void>;
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
   * `inputs` sends (see ../service/recovery.ts). One made since the attempt is what an ambiguous
   * create made; one that exists before the create is refused, named with the way to take
   * it over or delete it, since it may be what a killed deployment made and never recorded.
   */
  sameContent?(inputs: z.output<Schema>): CreatedObjectMatch;
  /**
   * Before a create or an update: the inputs completed with what the write needs from
   * other objects (a value's field type), and put in the form that depends on it;
   * inputs that do not fit are refused here, before anything is written. `olds` is the
   * state an update changes (or an adopted object's), which may hold it already; `id` the object it changes.
   */
  prepareWrite?(client: CrmClient, inputs: z.output<Schema>, olds?: Record<string, unknown>, id?: string): Promise<z.output<Schema>>;
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
  /** Objects unique by a natural key: see NaturalKeyAdoption. */
  adoption?: NaturalKeyAdoption<Schema>;
  /**
   * The service's bulk create and update: writes that arrive together go out through
   * them (see ../service/bulk-writes.ts). Only with `adoption`, whose key tells which creates a
   * bulk may hold; not with readBackAfterWrite or afterUpdate.
   */
  bulk?: BulkWrites;
  /** The service's bulk delete: deletes that arrive together go out through it (see ../service/bulk-deletes.ts). */
  bulkDelete?: BulkDelete;
  /**
   * The name the service keeps unique (a task type's title): a create refused as a duplicate,
   * or beside an identical object (see sameContent), names the object that holds the name, to
   * take over with adoptId or to leave alone.
   */
  uniqueName?: UniqueName;
  /** The objects every account comes with (see BuiltIns): taken over by name on create, left in place on delete. */
  builtIns?: BuiltIns;
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
 * A create first looks for an object holding the natural key (a field label), unless the
 * service enforces the key (see enforcedByService). One that exists is taken over only
 * with the input `adoptExisting: true`, else the error names it; two resources of one
 * program declaring the key are refused before any request. An ambiguous create is
 * recovered by the same lookup.
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
  /**
   * The service refuses a second object with the key itself (a `duplicate` answer, as
   * for account names): the create is POSTed first, and the key looked up only on that
   * refusal, to take the holder over with adoptExisting or to name it in the error.
   * `field` is the input holding the key (`name`), `noun` what messages call an object (`account`).
   */
  enforcedByService?: { field: string; noun: string };
}

/** A plain CRM object's provider core, and the inputs declaring an object as the service holds it. */
export interface CrmCore extends ResourceCore {
  /**
   * The inputs that declare an object exactly as the service holds it, as read gives
   * them back (for `pulumi-crm export`); `object` carries what readRelated would add (a
   * value's fieldType, an address's groupId). Undefined for an object of another kind.
   */
  inputsDeclaring(object: ServiceObject): Record<string, unknown> | undefined;
}
