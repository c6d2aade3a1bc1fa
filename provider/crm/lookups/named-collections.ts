// What the lookups of named objects (./contact-side.ts, ./sales-side.ts) share: a
// collection walked once per program run (see ./shared-walks.ts), every object of it or
// those whose name contains a text, and the one of an id or a name.

import { z } from "zod";
import type { ServiceObject } from "../service/collection";
import type { GetByIdOrNameArgs } from "./contact-side";
import { exactlyOne, idOrName, type LookupOptions, startLookup } from "./kit";
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
  /** A second key a single lookup takes besides the name, compared regardless of case (a user's email). */
  alsoBy?: { arg: string; of(info: Info): string };
}

export const nameContains = z.string({ invalid_type_error: "must be a string" }).min(1, "must not be empty").optional();

/** Every object of the collection, or those whose name contains `contains`. */
export async function every<Info>(
  looked: Looked<Info>,
  name: string,
  schema: z.AnyZodObject,
  args: unknown,
  opts?: LookupOptions,
): Promise<{ found: Info[]; args: Record<string, unknown> }> {
  const lookup = startLookup(name, schema, args, opts);
  const all = await sharedWalk<ServiceObject>(lookup, looked.path, looked.collection, `the service cannot filter ${looked.what}s here`);
  const contains = (lookup.args.nameContains as string | undefined)?.toLowerCase();
  return { found: all.map(looked.infoOf).filter((info) => contains === undefined || looked.nameOf(info).toLowerCase().includes(contains)), args: lookup.args };
}

/** The one object of this id, name (or `alsoBy` key); an error when none or several match. */
export async function one<Info extends { id: string }>(
  looked: Looked<Info>,
  name: string,
  args: GetByIdOrNameArgs | Record<string, string>,
  opts?: LookupOptions,
): Promise<Info> {
  const lookup = startLookup(name, idOrName(looked.what, looked.alsoBy?.arg), args, opts);
  const key = lookup.args as Record<string, string | undefined>;
  const all = (await sharedWalk<ServiceObject>(lookup, looked.path, looked.collection, `look the ${looked.what} up by id`)).map(looked.infoOf);
  const same = (a: string, b: string) => (looked.anyCase ? a.toLowerCase() === b.toLowerCase() : a === b);
  const also = looked.alsoBy && key[looked.alsoBy.arg];
  const matches = (info: Info) =>
    key.id !== undefined
      ? info.id === key.id
      : also !== undefined
        ? looked.alsoBy!.of(info).toLowerCase() === also.toLowerCase()
        : same(looked.nameOf(info), key.name!);
  return exactlyOne(lookup.client.resource, looked.what, key, all.filter(matches));
}
