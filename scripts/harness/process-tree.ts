// The processes a process started, read from /proc (Linux): a test that kills the `pulumi` CLI
// with SIGKILL finds the plugin and program processes the CLI leaves behind, which the kill
// does not reach, and waits for them to end before it counts what the service holds.

import { readdirSync, readFileSync } from "node:fs";

export interface ProcessInfo {
  pid: number;
  /** The command line, its arguments joined by spaces. */
  command: string;
}

/** pid, parent pid and state of a live process, or undefined once it is gone. */
function statOf(pid: number): { ppid: number; state: string } | undefined {
  try {
    // The command name, in parentheses, may hold spaces: the fields that follow it are read from its end.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(ppid), state };
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return "";
  }
}

/** Every live descendant of `pid` (children, their children...), synchronously: call it just before a kill. */
export function descendantsOf(pid: number): ProcessInfo[] {
  const childrenOf = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat) childrenOf.set(stat.ppid, [...(childrenOf.get(stat.ppid) ?? []), Number(entry)]);
  }
  const found: ProcessInfo[] = [];
  const visit = (parent: number) => {
    for (const child of childrenOf.get(parent) ?? []) {
      found.push({ pid: child, command: commandOf(child) });
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/** Whether the process runs (a zombie, ended and not yet reaped, does not). */
export function isRunning(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== "Z" && stat.state !== "X";
}

/** Waits until none of `pids` runs, or `timeoutMs` has passed; returns those still running. */
export async function waitUntilEnded(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running = pids.filter(isRunning);
    if (running.length === 0 || Date.now() >= deadline) return running;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
