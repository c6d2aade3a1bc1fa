// The peak resident set of the engine's child processes, for the benchmarks' memory figures.

import { readdirSync, readFileSync } from "node:fs";

/**
 * The largest VmHWM (peak resident set) of this process's children whose command line holds
 * `marker` (`dynamic-provider`: the provider hosts; `cmd/run`: the programs) while `run` runs,
 * sampled from Linux's /proc every 100 ms; undefined where /proc cannot be read.
 */
export async function withPeakRss<T>(marker: string, run: () => Promise<T>): Promise<{ result: T; peakMiB?: number }> {
  let peakKiB: number | undefined;
  const sample = () => {
    let entries: string[];
    try {
      entries = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
    } catch {
      return;
    }
    for (const pid of entries) {
      try {
        const status = readFileSync(`/proc/${pid}/status`, "utf8");
        if (Number(/PPid:\s+(\d+)/.exec(status)?.[1]) !== process.pid) continue;
        if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker)) continue;
        const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
        if (kib) peakKiB = Math.max(peakKiB ?? 0, kib);
      } catch {
        // The process ended between listing and reading.
      }
    }
  };
  const timer = setInterval(sample, 100);
  try {
    const result = await run();
    return { result, peakMiB: peakKiB === undefined ? undefined : peakKiB / 1024 };
  } finally {
    clearInterval(timer);
  }
}
