// What a stack's backend holds beyond what a run of the CLI reports, read through the CLI alone,
// so that it is the same on every backend (file://, postgres://, s3://, Pulumi Cloud): the
// operations an interrupted run left pending (`pulumi stack export`), and the lock of another
// run, as the CLI words it to a command that takes the lock (up, destroy). A preview and a drift
// check take no lock, and the CLI tells them of none.

import { firstLine, type RunResult } from "./run";

interface PendingOperation {
  type: string;
  resource: { urn: string; type: string };
}

/**
 * The `interrupted` row of a stack whose state (`pulumi stack export`'s JSON) holds operations a
 * run left pending, with the commands that clear them; undefined when none.
 */
export function pendingRow(exported: string, stack: string): RunResult | undefined {
  const pending = (JSON.parse(exported) as { deployment?: { pending_operations?: PendingOperation[] } }).deployment?.pending_operations ?? [];
  if (!pending.length) return undefined;
  const what = pending.map((operation) => `${operation.type} ${operation.resource.type} ${operation.resource.urn.split("::").pop()}`);
  return {
    status: "interrupted",
    error:
      `a run left ${pending.length} operation${pending.length === 1 ? "" : "s"} pending (${what.join(", ")}): if it has ended (killed, interrupted), ` +
      `\`pulumi cancel --stack ${stack} --yes\` deletes any lock it left, then \`pulumi refresh --stack ${stack} --clear-pending-creates --yes\` settles them; then run the fleet again`,
  };
}

/** The `locked` row of the CLI's own error for a stack another run holds (a DIY backend's words, or Pulumi Cloud's), with who holds it where the CLI says. */
export function lockedRow(stderr: string, stack: string): RunResult {
  // pkg/backend/diy/lock.go: "<lock's URL>: created by <user>@<host> (pid <n>) at <time>", a line per lock.
  const holders = [...stderr.matchAll(/created by (\S+@\S+) \(pid (\d+)\) at (\S+)/g)].map(([, who, pid, since]) => `${who} (pid ${pid}) since ${since}`);
  const line = stderr.split("\n").find((text) => /locked|in progress/i.test(text)) ?? stderr;
  return {
    status: "locked",
    error: `${holders.length ? `locked by ${holders.join(", ")}` : `another run holds the stack (${firstLine(line)})`}; not waited on. If that run has ended (killed, interrupted), \`pulumi cancel --stack ${stack} --yes\` deletes its lock`,
  };
}
