/**
 * Timestamps as the service writes them: ISO 8601 with the account's UTC offset for most
 * resources, "YYYY-MM-DD HH:MM:SS" for custom account fields. The emulated account sits at
 * a fixed -05:00, like every example in the reference.
 */
const OFFSET_MINUTES = -5 * 60;
const OFFSET_SUFFIX = "-05:00";

function wallClock(ms: number): string {
  return new Date(ms + OFFSET_MINUTES * 60_000).toISOString().slice(0, 19);
}

export function isoTimestamp(ms: number): string {
  return wallClock(ms) + OFFSET_SUFFIX;
}

export function sqlTimestamp(ms: number): string {
  return wallClock(ms).replace("T", " ");
}
