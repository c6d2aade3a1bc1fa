// What `pulumi-crm export` needs to know of a resource whose objects it declares: a
// resource module exports it as `exported`, and ../commands/export/read-account.ts reads every
// registered resource that has one, in the registry's order. Only types here: a
// resource module imports this file and not the export command.

import type { CrmClient } from "../service/client";
import type { Alongside, ServiceObject } from "../service/collection";

export interface ExportDeclaration {
  /** The comment over the objects' part of the program. */
  section: string;
  /**
   * What the objects are to a team: the account's `setup` (fields, lists, groups, tracking: what a
   * program for every account carries), or its `data` (companies, their notes and values: exported
   * only when asked for by `--kinds`).
   */
  part: "setup" | "data";
  /**
   * The lookup finding an object of the kind by its name (`getList`: `crm.getListOutput({ name })`),
   * through which a program refers to one its kinds leave out.
   */
  lookup?: string;
  /** Where the service lists the objects, read once, page by page, as a Collection names it: its path, and the list's root key. */
  path: string;
  collection: string;
  /** The path answers one object under `collection`, not a list (an account-wide switch): it is read once, its id the collection's name. */
  single?: true;
  /**
   * The kind's one object is the account's own (the branding, a switch): every account has it, and the
   * resource's create takes it over, so a program declares it without an id.
   */
  accountWide?: true;
  /** The object's id, the resource's adoptId, where it is not its `id` member (a name-keyed object's name). */
  id?(object: ServiceObject): string;
  /**
   * The object's own name: what `--name-filter` matches, and what the titles of objects
   * referring to it name it by. A kind without one follows an object it refers to (`follows`).
   */
  name?(object: ServiceObject): string;
  /**
   * Inputs that hold the id of an object of another exported kind (the registered name,
   * e.g. `account`): written as a reference when that object is exported too.
   */
  refersTo?: Readonly<Record<string, string>>;
  /**
   * The input (one of refersTo) naming the object this one belongs to: it is exported only
   * when that object is read and kept by the name filter. Its kind is read whenever this
   * one is wanted, so it comes earlier in the registry.
   */
  follows?: string;
  /**
   * What inputsDeclaring needs of an object this one refers to, as the resource does (a
   * value's field type): the object read of that input's kind whose id `id` gives,
   * `members` merged into the service's object. An object whose referred object is not
   * found is left out. That kind is read whenever this one is wanted, so it comes earlier
   * in the registry.
   */
  completedFrom?: { input: string; id(object: ServiceObject): string | null | undefined; members(referred: ServiceObject): ServiceObject };
  /** What a page of the objects carries beside them (see Collection.alongside). */
  alongside?: Alongside;
  /** Members the service keeps behind calls of their own (an address's group and list), read for each object the name filter keeps. */
  related?(client: CrmClient, object: ServiceObject): Promise<ServiceObject>;
  /**
   * What the program's names for the object are made from, e.g. `Acme Corp note`: from the
   * object, its inputs, and `names`, the names of the objects its refersTo inputs hold (of
   * the kinds read, by input).
   */
  title(object: ServiceObject, inputs: Record<string, unknown>, names: Readonly<Record<string, string>>): string;
}
