// What the lookups of named objects (./contact-side.ts, ./sales-side.ts) share: a
// collection walked once per program run (see ./shared-walks.ts), every object of it or
// those whose name contains a text, and the one of an id or a name.

import { z } from "zod";
import type { ServiceObject } from "../service/collection";
import type { GetByIdOrNameArgs } from "./contact-side";
import { exactlyOne, idOrName, LookupOptions, startLookup } from "./kit";
import { sharedWalk } from "./shared-walks";

/** A collection as the lookups of named objects read it: where, what its objects are called, and how one reads. */
export interface Looked<Info> {
  what: string;
  path: string;
  collection: string;
  infoOf(object: ServiceObject): Info;
  nameOf(info: Info): string;
  /** Names compared regardless of case (the service's unique names). */
  anyCase: boolean;
}

export const nameContains = z.string({ invalid_type_error: "must be a string" }).min(1, "must not be empty").optional();

/** Every object of the collection, or those whose name contains `contains`. */
export async function every<Info>(looked: Looked<Info>, name: string, schema: z.AnyZodObject, args: unknown, opts?: LookupOptions): Promise<{ found: Info[]; args: Record<string, unknown> }> {
  const lookup = startLookup(name, schema, args, opts);
  const all = await sharedWalk<ServiceObject>(lookup, looked.path, looked.collection, `the service cannot filter ${looked.what}s here`);
  const contains = (lookup.args.nameContains as string | undefined)?.toLowerCase();
  return { found: all.map(looked.infoOf).filter((info) => contains === undefined || looked.nameOf(info).toLowerCase().includes(contains)), args: lookup.args };
}

/** The one object of this id or name; an error when none or several match. */
export async function one<Info extends { id: string }>(looked: Looked<Info>, name: string, args: GetByIdOrNameArgs, opts?: LookupOptions): Promise<Info> {
  const lookup = startLookup(name, idOrName(looked.what), args, opts);
  const key = lookup.args;
  const all = (await sharedWalk<ServiceObject>(lookup, looked.path, looked.collection, `look the ${looked.what} up by id`)).map(looked.infoOf);
  const same = (a: string, b: string) => (looked.anyCase ? a.toLowerCase() === b.toLowerCase() : a === b);
  const matches = (info: Info) => (key.id !== undefined ? info.id === key.id : same(looked.nameOf(info), key.name!));
  return exactlyOne(lookup.client.resource, looked.what, key, all.filter(matches));
}
