// What the processes of a benchmark's run cost, read from Linux's /proc: peak resident set and
// CPU time of each process started while the run runs. On the real CLI the program and the
// provider host are grandchildren of this process (pulumi -> language host -> node .../cmd/run;
// pulumi -> pulumi-resource-pulumi-nodejs, a sh script -> node .../cmd/dynamic-provider), so
// every descendant is sampled, not only the children.

import { readFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { ensureToolchain, programNodeVersion } from "../scripts/toolchain";
import { descendantsOf } from "../scripts/harness/process-tree";

export type Role = "cli" | "language host" | "program" | "provider host" | "other";

export interface SampledProcess {
  pid: number;
  role: Role;
  command: string;
  /** VmHWM, KiB. */
  peakKiB: number;
  /** utime + stime at the last sample: up to one interval short of what it used before it ended. */
  cpuSeconds: number;
  /** Bytes it had written (wchar: files, pipes and sockets alike) at the last sample. */
  writtenBytes: number;
}

/** USER_HZ, the unit of /proc/<pid>/stat's times (`getconf CLK_TCK`): 100 on Linux's builds. */
const ticksPerSecond = 100;

// By the script a process runs: `node -e "...require.resolve('.../cmd/dynamic-provider')"`, the
// sh script's look-up of the host, names the host without running it.
const roles: Array<[Role, RegExp]> = [
  ["cli", /^\S*\/pulumi( |$)/],
  ["language host", /\/(language-host\.js|pulumi-language-nodejs)( |$)/],
  ["program", /\/cmd\/run(\/index\.js)?( |$)/],
  // The dynamic provider host, or a native plugin (its sh wrapper execs node on its bundle).
  ["provider host", /\/(cmd\/dynamic-provider(\/index\.js)?|pulumi-resource-(crm|chat)(\.js)?)( |$)/],
];
const roleOf = (command: string): Role => roles.find(([, pattern]) => pattern.test(command))?.[0] ?? "other";

/** Bytes a process has written, or 0 where the kernel keeps no I/O accounting (no /proc/<pid>/io). */
function writtenBy(pid: number): number {
  try {
    return Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Peak resident set, CPU time and bytes written of a live process, or undefined once it is gone. */
function usageOf(pid: number): { peakKiB: number; cpuSeconds: number; writtenBytes: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, in parentheses: utime and stime are the 14th and 15th of the line.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return {
      peakKiB: Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0),
      cpuSeconds: (Number(fields[11]) + Number(fields[12])) / ticksPerSecond,
      writtenBytes: writtenBy(pid),
    };
  } catch {
    return undefined;
  }
}

export interface Measured<T> {
  result: T;
  /** The descendants of this process that the run started; none where /proc cannot be read. */
  processes: SampledProcess[];
  /** Wall time. */
  seconds: number;
  /** The machine's load when the run started (`load`). */
  load: string;
}

/** Runs `run`, sampling the processes it starts every `everyMs`. */
export async function measure<T>(run: () => Promise<T>, everyMs = 100): Promise<Measured<T>> {
  const list = () => {
    try {
      return descendantsOf(process.pid);
    } catch {
      return [];
    }
  };
  const before = new Set(list().map((p) => p.pid));
  const seen = new Map<number, SampledProcess>();
  const sample = () => {
    for (const { pid, command } of list()) {
      if (before.has(pid)) continue;
      const usage = usageOf(pid);
      if (!usage) continue;
      // Sampled between fork and exec, a process shows its parent's command, and once ended (a
      // zombie, its times still there) none: the newest command there was counts.
      const latest = command || seen.get(pid)?.command || "";
      seen.set(pid, { pid, role: roleOf(latest), command: latest, ...usage, peakKiB: Math.max(seen.get(pid)?.peakKiB ?? 0, usage.peakKiB) });
    }
  };
  const atStart = load();
  const started = Date.now();
  const timer = setInterval(sample, everyMs);
  try {
    const result = await run();
    return { result, processes: [...seen.values()], seconds: (Date.now() - started) / 1000, load: atStart };
  } finally {
    clearInterval(timer);
  }
}

/** A table of a run's processes by role: count, CPU time (each), share of the CPU, peak RSS, bytes written. */
export function byRole(processes: SampledProcess[], seconds: number): string {
  const roles: Role[] = ["cli", "language host", "program", "provider host", "other"];
  const total = processes.reduce((sum, p) => sum + p.cpuSeconds, 0);
  const rows = roles.map((role) => {
    const of = processes.filter((p) => p.role === role);
    const cpu = of.reduce((sum, p) => sum + p.cpuSeconds, 0);
    const each = of.map((p) => p.cpuSeconds.toFixed(1)).join(" + ");
    const peak = Math.max(0, ...of.map((p) => p.peakKiB)) / 1024;
    const written = of.reduce((sum, p) => sum + p.writtenBytes, 0) / 2 ** 20;
    return `| ${role} | ${of.length} | ${cpu.toFixed(1)} (${each || "-"}) | ${((100 * cpu) / total).toFixed(0)}% | ${peak.toFixed(0)} | ${written.toFixed(1)} |`;
  });
  return [
    `CPU ${total.toFixed(1)} s in ${seconds.toFixed(1)} s of wall time`,
    "",
    "| process | count | CPU s (each) | share | peak RSS MiB | written MiB |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** The largest peak resident set of the processes of `role`, MiB; undefined when none was sampled. */
export function peakMiB(processes: SampledProcess[], role: Role): number | undefined {
  const peaks = processes.filter((p) => p.role === role).map((p) => p.peakKiB);
  return peaks.length === 0 ? undefined : Math.max(...peaks) / 1024;
}

/** The machine's load averages (1, 5, 15 minutes), as `uptime` prints them: the machine is shared. */
export const load = () =>
  `load ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")}`;

/** What the runs of `program` run on, and the machine, for the figures' heading. */
export function runsOn(program: string): string {
  const sdk = (JSON.parse(readFileSync(join(program, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as { version: string }).version;
  const cpus = os.cpus();
  return `pulumi ${ensureToolchain().cliVersion}, programs and provider hosts on Node.js ${programNodeVersion}, @pulumi/pulumi ${sdk}; machine: ${cpus.length} CPUs (${cpus[0]?.model ?? "unknown"})`;
}
