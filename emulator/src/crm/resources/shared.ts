import { ok, type CrmRequest } from "../api";
import type { CrmContext } from "../context";
import type { Kind, ListOptions } from "../kinds";
import type { Route } from "../router";
import type { Row } from "../store";

/** Route pieces most resources share. Each route's pattern is the kind's plural: "/calendars", "/calendars/:id". */

/** The links object resources carry: {name: "<baseUrl>/<collection>/<id>/<name>"} for each name, in order. */
export function linksOf(req: { baseUrl: string }, collection: string, id: string, names: readonly string[]): Record<string, string> {
  const url = `${req.baseUrl}/${collection}/${id}`;
  return Object.fromEntries(names.map((name) => [name, `${url}/${name}`]));
}

/** GET /<plural>: the rows, filtered, ordered and paged as the query asks. */
export function listRoute<T extends Row>(crm: CrmContext, kind: Kind<T>, rows: (req: CrmRequest) => T[], options?: ListOptions<T>): Route {
  return { method: "GET", pattern: `/${kind.plural}`, handle: (req) => ok(crm.kinds.list(req, kind, rows(req), options)) };
}

/**
 * GET /<collection>/:id/<link>: where a resource's link leads, answered as the reference's
 * examples of such links are (the related records under one member, no meta); the owner's
 * 404 when it is unknown.
 */
export function linkRoute<T extends Row>(
  collection: string,
  link: string,
  find: (id: string) => T,
  answer: (owner: T, req: CrmRequest) => Record<string, unknown>,
): Route {
  return { method: "GET", pattern: `/${collection}/:id/${link}`, handle: (req) => ok(answer(find(req.params.id), req)) };
}

/** What a link leads to, from its owner: the related records under one member. */
export type LinkAnswer<T> = (owner: T, req: CrmRequest) => Record<string, unknown>;

/**
 * A route for each link the emulator writes on a resource, so that none leads nowhere:
 * its answer, or (null) an empty collection under the link's name, for what the emulator
 * keeps none of.
 */
export function linkRoutes<T extends Row>(collection: string, find: (id: string) => T, links: Record<string, LinkAnswer<T> | null>): Route[] {
  return Object.entries(links).map(([name, answer]) => linkRoute(collection, name, find, answer ?? (() => ({ [name]: [] }))));
}

/** Links to what the emulator keeps none of, each answering an empty collection. */
export function noneHeld(names: readonly string[]): Record<string, null> {
  return Object.fromEntries(names.map((name) => [name, null]));
}

/** The user every account starts with, user 1 (the reference's GET /users/1): its admin, who owns everything the emulator holds. */
export const ADMIN_USER = { username: "admin", firstName: "John", lastName: "Doe", email: "johndoe@example.com", id: "1" } as const;

/** Where a `user` link leads: the account's admin ("userid": "1"). */
export const userLink: LinkAnswer<unknown> = () => ({ user: ADMIN_USER });

/** GET /<plural>/:id: the row alone, or a 404. */
export function readRoute<T extends Row>(crm: CrmContext, kind: Kind<T>, find: (id: string) => T): Route {
  return { method: "GET", pattern: `/${kind.plural}/:id`, handle: (req) => ok(crm.kinds.one(req, kind, find(req.params.id))) };
}

/** DELETE /<plural>/:id: removes the row (and whatever `remove` takes with it); the service answers {}. */
export function deleteRoute<T extends Row>(kind: Kind<T>, find: (id: string) => T, remove: (row: T) => void): Route {
  return {
    method: "DELETE",
    pattern: `/${kind.plural}/:id`,
    handle: (req) => {
      remove(find(req.params.id));
      return ok({});
    },
  };
}
