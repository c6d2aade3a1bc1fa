import type { CrmRequest } from "./api";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface ListRules<T> {
  /** filters[name]=value (or filters[name][operator]=value) the endpoint understands; other filters are ignored, as by the service. */
  filters?: Record<string, (row: T, value: string, operator: string) => boolean>;
  /** The page size without limit=: DEFAULT_LIMIT unless the reference says otherwise (100 for /fields). */
  defaultLimit?: number;
  /** The value orders[field] sorts on; by default a top-level property of the row, a timestamp by its stored milliseconds (see orderedValue). */
  orderValue?: (row: T, field: string) => unknown;
}

export interface Page<T> {
  rows: T[];
  total: number;
  limit: number;
  offset: number;
}

/** Filters, orders and pages a collection: filters[...], orders[...] (in query order), limit, offset. */
export function selectPage<T>(req: CrmRequest, rows: T[], rules: ListRules<T> = {}): Page<T> {
  let selected = rows;
  const orderKeys: Array<{ field: string; descending: boolean }> = [];
  for (const [key, value] of req.query) {
    const filter = /^filters\[([^\]]+)\](?:\[(\w+)\])?$/.exec(key);
    const predicate = filter && rules.filters?.[filter[1]];
    if (predicate) selected = selected.filter((row) => predicate(row, value, filter[2] ?? "eq"));
    const order = /^orders\[([^\]]+)\]$/.exec(key);
    if (order) orderKeys.push({ field: order[1], descending: value.toUpperCase() === "DESC" });
  }
  if (orderKeys.length > 0) {
    const orderOf = rules.orderValue ?? orderedValue;
    selected = [...selected].sort((a, b) => {
      for (const { field, descending } of orderKeys) {
        const order = compareValues(orderOf(a, field), orderOf(b, field));
        if (order !== 0) return descending ? -order : order;
      }
      return 0;
    });
  }
  const limit = clamp(parseInt(req.query.get("limit") ?? "", 10), rules.defaultLimit ?? DEFAULT_LIMIT, 1, MAX_LIMIT);
  const offset = clamp(parseInt(req.query.get("offset") ?? "", 10), 0, 0, Number.MAX_SAFE_INTEGER);
  return { rows: selected.slice(offset, offset + limit), total: selected.length, limit, offset };
}

/**
 * A row's value for orders[field]: `createdTimestamp` and `updatedTimestamp` (the
 * seed's example orders by createdTimestamp) sort by the epoch milliseconds rows keep,
 * finer than the second the formatted timestamp shows.
 */
function orderedValue<T>(row: T, field: string): unknown {
  const stored = row as Record<string, unknown>;
  const timestamp = /^(created|updated)Timestamp$/.exec(field);
  return timestamp && `${timestamp[1]}Ms` in stored ? stored[`${timestamp[1]}Ms`] : stored[field];
}

/** Missing values first; numbers and digit strings numerically; text case-insensitively. */
export function compareValues(a: unknown, b: unknown): number {
  const aMissing = a === undefined || a === null || a === "";
  const bMissing = b === undefined || b === null || b === "";
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? -1 : 1;
  const aNumber = asNumber(a);
  const bNumber = asNumber(b);
  if (aNumber !== undefined && bNumber !== undefined) return aNumber - bNumber;
  const aText = String(a).toLowerCase();
  const bText = String(b).toLowerCase();
  return aText < bText ? -1 : aText > bText ? 1 : 0;
}

export function asNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return undefined;
}

/** Equality filter on a stored field, comparing as strings ("2" matches 2). */
export function equals<T>(field: keyof T): (row: T, value: string) => boolean {
  return (row, value) => String(row[field]) === value;
}

/**
 * A text filter with the operators the reference lists for names (eq, neq, contains,
 * starts_with), ignoring case as the service's collation does; an unknown operator matches nothing.
 */
export function matches<T>(field: keyof T): (row: T, value: string, operator: string) => boolean {
  return (row, value, operator) => {
    const [text, wanted] = [String(row[field]).toLowerCase(), value.toLowerCase()];
    if (operator === "eq") return text === wanted;
    if (operator === "neq") return text !== wanted;
    if (operator === "contains") return text.includes(wanted);
    return operator === "starts_with" && text.startsWith(wanted);
  };
}

function clamp(value: number, fallback: number, min: number, max: number): number {
  if (Number.isNaN(value) || value < min) return fallback;
  return Math.min(value, max);
}
