/**
 * Timestamps as the service writes them: ISO 8601 with the account's UTC offset for most
 * resources (campaigns' snake_case timestamps included), naive "YYYY-MM-DD HH:MM:SS" in
 * account-local time for addresses, and ISO 8601 at +00:00 for custom account fields (REAL-WORLD.md).
 * The emulated account sits at a fixed -05:00, like every example in the reference.
 */
const OFFSET_MINUTES = -5 * 60;
const OFFSET_SUFFIX = "-05:00";

function wallClock(ms: number): string {
  return new Date(ms + OFFSET_MINUTES * 60_000).toISOString().slice(0, 19);
}

export function isoTimestamp(ms: number): string {
  return wallClock(ms) + OFFSET_SUFFIX;
}

/** Naive "YYYY-MM-DD HH:MM:SS", in the account's time or (a contact's *_utc_timestamp) in UTC. */
export function sqlTimestamp(ms: number, zone: "account" | "UTC" = "account"): string {
  return (zone === "UTC" ? new Date(ms).toISOString().slice(0, 19) : wallClock(ms)).replace("T", " ");
}

/** "2024-01-08T15:00:00+00:00": the service's own clock, whatever the account's offset. */
export function utcTimestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
}

/**
 * Epoch milliseconds of a date or time a client sends: YYYY-MM-DD (midnight) or
 * YYYY-MM-DD HH:MM[:SS] in account-local time, or ISO 8601 with its own offset;
 * undefined for anything else.
 */
export function accountTimeOf(text: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(text.trim());
  if (!match) return undefined;
  const [, date, time = "00:00", offset = OFFSET_SUFFIX] = match;
  const ms = Date.parse(`${date}T${time}${offset.toUpperCase()}`);
  return Number.isNaN(ms) || !new Date(`${date}T00:00:00Z`).toISOString().startsWith(date) ? undefined : ms;
}
