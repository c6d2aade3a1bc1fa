// The CRM service's wire forms (see ../kit/wire.ts), each with its one normalization (see
// ./normalize.ts): a field's declaration names its form, and its request and answer names
// where they are not the field's own.

import type { Wire } from "../../kit/wire";
import { flagForService, flagOf, idOf, numberOf, optionalTextOf, textOf } from "./normalize";

/** Where a field travels under another name: in requests (false: never sent), in answers. */
type Names = Pick<Wire, "request" | "answer">;

/** Text the object always holds. */
export const text = (names: Names = {}): Wire => ({ ...names, read: (value) => String(value) });

/** Optional text: answered as "" or null when unset, and cleared on update with "". */
export const optionalText = (names: Names = {}): Wire => ({ ...names, read: optionalTextOf, clearWith: "" });

/** Text whose unset value is null (an account's website): left out of a create, sent as null to clear it. */
export const nullableText = (names: Names = {}): Wire => ({ ...names, read: textOf, createLeavesOutNull: true });

/** A flag, answered as 0/1, "0"/"1" or a boolean; sent as a boolean, or as 0/1 where the service takes that. */
export const flag = (names: Names = {}, sent: "boolean" | "0/1" = "boolean"): Wire => ({
  ...names,
  read: flagOf,
  ...(sent === "0/1" ? { send: (value) => flagForService(value as boolean) } : {}),
});

/** An id, answered as a number or digits (null when unset), sent as a number. */
export const id = (names: Names = {}): Wire => ({ ...names, read: idOf, send: Number });

/** A number answered as a number or a numeric string; left out of the state when unset. */
export const optionalNumber = (names: Names = {}): Wire => ({ ...names, read: (value) => numberOf(value) ?? undefined });

/** An optional id: like id, but left out of the state when unset, as an unset input is left out. */
export const optionalId = (names: Names = {}): Wire => ({ ...names, read: (value) => idOf(value) ?? undefined, send: Number });

/** An id where 0 means none (a webhook's list): left out of the state when 0, sent as a number, cleared with 0. */
export const idOrZero = (names: Names = {}): Wire => ({
  ...names,
  read: (value) => (idOf(value) === "0" ? undefined : (idOf(value) ?? undefined)),
  send: Number,
  clearWith: 0,
});

/** A set of words, answered as a list in any order: kept sorted, as the check sorts the input. */
export const wordSet = (names: Names = {}): Wire => ({ ...names, read: (value) => (Array.isArray(value) ? value.map(String).sort() : []) });
