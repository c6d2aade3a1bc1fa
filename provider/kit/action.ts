// What the action resources (chat.FlowRun, crm.ContactSync) share. Like
// pulumi-command's Command, an action acts when created and again whenever one of its
// run inputs changes, `triggers` always among them; deleting it only forgets it, as an
// action cannot be undone. Here: the `triggers` input and the rule for running again,
// refresh of a recorded run, the recording of a run that stopped part way, and the
// polling that follows work on the service until it ends.

import { z } from "zod";
import { type Declared, declaredKind, type DeclaredInKind, diffInputs, type ResourceKind, sameValue } from "./check-diff";
import type { Changes, Found, Importability, ReadFrom } from "./core";
import { withoutProvider } from "./inputs";
import { log } from "./log";
import { PartlyDoneError } from "./write-errors";
import { sleep } from "../transport/limiter";

/** `triggers`: any values; when they change, the action runs again. */
export const triggersInput = z.array(z.unknown(), { invalid_type_error: "must be a list" }).default([]);

/** What an action declares besides its declaration: whose change runs it again, and how. */
export interface ActionKind<Schema extends z.AnyZodObject> extends Omit<ResourceKind<Schema>, DeclaredInKind> {
  /** The inputs whose change runs the action again; `triggers` always among them. */
  runOn: readonly string[];
  /**
   * How running again shows: `replace` when each run is its own object on the service
   * (the resource's id is the run's), `update` when the action runs again in place.
   */
  runAgainAs: "replace" | "update";
}

/** The resource kind of an action, with its run inputs: `triggers` last. */
export type Action<Schema extends z.AnyZodObject> = ResourceKind<Schema> & { runInputs: readonly string[] };

/** The resource kind of an action: its run inputs replace it or update it in place, as it runs again. */
export function actionKind<Schema extends z.AnyZodObject>(declaration: Declared<Schema>, { runOn, runAgainAs, ...kind }: ActionKind<Schema>): Action<Schema> {
  const runInputs = [...new Set([...runOn, "triggers"])];
  // Every other input (how long to wait, say) changes in place without a run (see updatableFields).
  return { ...declaredKind(declaration), ...kind, replaceOn: runAgainAs === "replace" ? runInputs : [], runInputs };
}

/** Whether the new inputs run the action again: one of its run inputs changed. */
export function runsAgain(action: Pick<Action<z.AnyZodObject>, "runInputs">, olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  return action.runInputs.some((field) => !sameValue(olds[field], news[field]));
}

/**
 * The diff of an action: its inputs' changes, and a change tied to no input whenever the
 * recorded run is `unfinished` (it stopped part way, or a wait for it ended first: the
 * reason), so that the next up carries it on in place, unless a new run replaces it.
 */
export function diffAction(
  kind: ResourceKind<z.AnyZodObject>,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  unfinished: string | undefined,
): Changes {
  const changes = diffInputs(kind, olds, news);
  return unfinished && !changes.fields.some((change) => change.replace) ? { ...changes, unfinished } : changes;
}

/** An action's id names a run, which does not tell what it was declared with: it cannot be imported. */
export const notImportable: Importability = {
  refused: "its id names a run, which does not tell what the run was declared with; declare it in the program, and it runs when created",
};

/**
 * Refresh of an action: the state as recorded. What the service did since (a run's
 * counters, contacts changed afterwards) is not configuration, and a run that happened
 * must not become a change that runs it again.
 */
export function recordedRead(kind: ResourceKind<z.AnyZodObject>, id: string, from: ReadFrom): Found {
  const state = withoutProvider("refresh" in from ? from.refresh : {});
  const inputs = Object.fromEntries(Object.keys(kind.schema.shape).flatMap((field) => (state[field] === undefined ? [] : [[field, state[field]]])));
  return { id, outputs: state, inputs };
}

/** An action cannot be undone: deleting its resource forgets the run. */
export async function forget(): Promise<void> {}

/**
 * A failure after the action took effect, as the record of how far it came: the
 * failure's message and what the next up does (`sequel`), with the resource's id and
 * outputs so far, so that the host records them and the next up carries on instead of
 * acting a second time.
 */
export function stoppedPartWay(error: Error, id: string, outputs: Record<string, unknown>, sequel: string): PartlyDoneError {
  return new PartlyDoneError(`${error.message} ${sequel}`, id, outputs);
}

/** How a wait paces its looks at the service: the documented pace unless a test says otherwise. */
export interface Pace {
  /** The first interval between looks; each next one is 1.5 times longer... */
  firstMs: number;
  /** ...up to this. */
  longestMs: number;
  /** The longest silence while waiting with progress lines. */
  progressEveryMs: number;
}

export const documentedPace: Pace = { firstMs: 250, longestMs: 5_000, progressEveryMs: 10_000 };

/** Time as a wait sees it; tests pass one that moves only when slept on. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: Clock = { now: Date.now, sleep };

/** One wait for work on the service. */
export interface Wait<Seen> {
  /** One look at the work: one request. */
  look(): Promise<Seen>;
  hasEnded(seen: Seen): boolean;
  /** How long to wait for the end. */
  timeoutMs: number;
  /** The failure once timeoutMs have passed, from what was seen last. */
  outlasted(seen: Seen): Error;
  /** The work never ends at once (a queued batch): the first look comes after the first interval. */
  lookAfterFirstInterval?: boolean;
  /** A line saying how far the work has come, logged whenever it changes and at least every progressEveryMs. */
  progress?(seen: Seen | undefined): string;
}

export interface WaitOptions {
  pace?: Pace;
  clock?: Clock;
  /** Where progress lines go; the deployment's log (info) by default. */
  log?: (line: string) => void;
}

/**
 * Looks at the work until it ends, with growing intervals (250 ms, then 1.5 times
 * longer each time, at most 5 s), and returns what it saw last; throws `outlasted`
 * once the timeout has passed without an end. The last interval is cut short to look
 * once more at the deadline.
 */
export async function waitUntilEnded<Seen>(wait: Wait<Seen>, options: WaitOptions = {}): Promise<Seen> {
  const { pace = documentedPace, clock = realClock, log: say = log.info } = options;
  const deadline = clock.now() + wait.timeoutMs;
  let seen: Seen | undefined;
  let lastLine: string | undefined;
  const report = (always: boolean) => {
    if (!wait.progress) return;
    const line = wait.progress(seen);
    if (always || line !== lastLine) say(line);
    lastLine = line;
  };
  // A timer, not the loop: one look may take long itself (retries), and the wait is never silent for longer.
  const heartbeat = wait.progress ? setInterval(() => report(true), pace.progressEveryMs) : undefined;
  const grown = (interval: number) => Math.min(interval * 1.5, pace.longestMs);
  try {
    let interval = pace.firstMs;
    if (wait.lookAfterFirstInterval) {
      await clock.sleep(interval);
      interval = grown(interval);
    }
    for (; ; interval = grown(interval)) {
      const latest = await wait.look();
      seen = latest;
      report(false);
      if (wait.hasEnded(latest)) return latest;
      const remaining = deadline - clock.now();
      if (remaining <= 0) throw wait.outlasted(latest);
      await clock.sleep(Math.min(interval, remaining));
    }
  } finally {
    clearInterval(heartbeat);
  }
}
