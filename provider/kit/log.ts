// Where the provider's lines for the user go (a take-over, an action's progress, a warning):
// to the engine's log, attached to the resource whose call said them. Through the dynamic
// provider host that is pulumi.log (the host knows no resource); through a native plugin, the
// engine the plugin was started with, with the URN of the call being served (see withLog).

import { AsyncLocalStorage } from "node:async_hooks";
import * as pulumi from "@pulumi/pulumi";

export type Severity = "info" | "warning";

/** Takes one line of the provider's. */
export type LogSink = (severity: Severity, message: string) => void;

const hostLog: LogSink = (severity, message) => void (severity === "info" ? pulumi.log.info(message) : pulumi.log.warn(message));

let processSink: LogSink = hostLog;
const callSink = new AsyncLocalStorage<LogSink>();

/** Where the lines said outside any call go in this process (a plugin's: its engine, with no resource). */
export function useProcessLog(sink: LogSink): void {
  processSink = sink;
}

/** Runs `call` with its lines, awaited work included, going to `sink`. */
export function withLog<T>(sink: LogSink, call: () => T): T {
  return callSink.run(sink, call);
}

const sink = () => callSink.getStore() ?? processSink;

export const log = {
  info: (message: string) => sink()("info", message),
  warn: (message: string) => sink()("warning", message),
};
