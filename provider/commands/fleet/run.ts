// Runs one operation over a fleet of client stacks, a bounded number at a time: a client that
// fails, cannot reach its service or finds its stack locked is reported and never stops the
// others. What one client's run does is the driver's (automation.ts: the Pulumi CLI through the
// Automation API).

/**
 * `sync` writes each client's stack and settings only; the others run the stack through the CLI.
 * `offboard` destroys and removes the stacks of clients the clients file no longer names.
 */
export const operations = ["sync", "preview", "up", "drift", "destroy", "offboard"] as const;
export type Operation = (typeof operations)[number];

/** A resource the drift check found changed or gone in the client's account. */
export interface Drifted {
  /** `crm:index:Message newsletter` */
  resource: string;
  /** `changed` (its fields differ) or `gone` (deleted from the account). */
  how: "changed" | "gone";
  /** The fields that differ, for `changed`. */
  fields: string[];
}

/** A resource a preview or an up changes (or would): how, and which of its fields. */
export interface Planned {
  /** `crm:index:Message newsletter` */
  resource: string;
  how: "create" | "update" | "replace" | "delete";
  /** The fields that change, for update and replace. */
  fields: string[];
}

export type ClientStatus = "no change" | "changed" | "drift" | "unreachable" | "locked" | "interrupted" | "failed";

export interface ClientOutcome {
  stack: string;
  status: ClientStatus;
  /** Resources created, updated, replaced or deleted (or, in a preview, that would be). */
  changes?: number;
  /** Those resources, how each changes and its fields (preview and up). */
  planned?: Planned[];
  drift?: Drifted[];
  /** The first line of what went wrong, for unreachable, locked, interrupted and failed. */
  error?: string;
  seconds: number;
}

/** What a driver reports of one client's run; the runner adds the time. */
export type RunResult = Omit<ClientOutcome, "stack" | "seconds">;

export type RunOne<C> = (client: C, operation: Operation) => Promise<RunResult>;

export interface FleetProgress {
  started(client: { stack: string }, index: number, total: number): void;
  finished(outcome: ClientOutcome, done: number, total: number): void;
}

/**
 * `operation` on every client, at most `parallel` at once, in the clients' order; the outcomes in
 * that order. A driver that throws is a failed client, not a failed fleet. Once `stopped` answers
 * a result (the first Ctrl-C, a problem of every client's), no client starts: each not started
 * gets that result, and the running ones end as their driver reports them.
 */
export async function runFleet<C extends { stack: string }>(
  clients: C[],
  operation: Operation,
  options: { parallel: number; runOne: RunOne<C>; progress?: FleetProgress; stopped?: () => RunResult | undefined },
): Promise<ClientOutcome[]> {
  const outcomes: ClientOutcome[] = new Array(clients.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < clients.length) {
      const index = next++;
      const client = clients[index];
      const stopped = options.stopped?.();
      if (stopped) {
        outcomes[index] = { stack: client.stack, ...stopped, seconds: 0 };
        continue;
      }
      options.progress?.started(client, index, clients.length);
      const started = Date.now();
      let result: RunResult;
      try {
        result = await options.runOne(client, operation);
      } catch (error) {
        result = { status: "failed", error: firstLine(error instanceof Error ? error.message : String(error)) };
      }
      outcomes[index] = { stack: client.stack, ...result, seconds: (Date.now() - started) / 1000 };
      options.progress?.finished(outcomes[index], ++done, clients.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.parallel, clients.length)) }, worker));
  return outcomes;
}

/** What `pulumi --expect-no-changes` exits with on changes; the fleet's code for drift. */
export const DRIFT_EXIT_CODE = 7;

/** What a shell reports of a command a Ctrl-C stopped: 128 + SIGINT. */
export const INTERRUPTED_EXIT_CODE = 130;

/** 130 if the fleet was interrupted (Ctrl-C); else 1 if any client failed, was unreachable, locked or left interrupted; else 7 if any drifted; else 0. */
export function exitCodeOf(outcomes: ClientOutcome[], interrupted = false): number {
  if (interrupted) return INTERRUPTED_EXIT_CODE;
  if (outcomes.some((outcome) => ["failed", "unreachable", "locked", "interrupted"].includes(outcome.status))) return 1;
  if (outcomes.some((outcome) => outcome.status === "drift")) return DRIFT_EXIT_CODE;
  return 0;
}

/**
 * The first line with text of a message, without the CLI's "error: " in front, and without the
 * password of a URL in it: the CLI names a PostgreSQL backend's URL as it was given
 * (`unable to open state database "postgres://user:password@..."`).
 */
export function firstLine(text: string): string {
  const line = text.split("\n").find((candidate) => candidate.trim() !== "") ?? "";
  return line
    .trim()
    .replace(/^error:\s*/, "")
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+@/gi, "$1****@");
}
