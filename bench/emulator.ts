// Requests per second the emulator serves on loopback, rate limit off, for a read, a
// list and a create at a few concurrency levels; p50/p99 latency and the emulator's
// peak RSS. The emulator runs in its own process (emulator/bin.ts) so that the load
// generator does not share its event loop.
//
//   npx ts-node --transpile-only bench/emulator.ts [--seconds 2] [--concurrency 1,16,64]

import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { startEmulatorProcess } from "./emulator-process";

interface Scenario {
  name: string;
  method: "GET" | "POST";
  path: string;
  /** A fresh body per request (creates need unique names). */
  body?: () => string;
}

interface Figures {
  requests: number;
  failures: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
}

const WARM_UP_SECONDS = 0.5;

/** Peak resident set of a process in MiB, from Linux's /proc; undefined elsewhere. */
function peakRssMiB(pid: number): number | undefined {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

function percentile(sorted: number[], fraction: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

/** Keeps `concurrency` requests in flight for `seconds`. */
async function measure(pool: Pool, token: string, scenario: Scenario, concurrency: number, seconds: number): Promise<Figures> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const client = async () => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      const response = await pool.request({
        method: scenario.method,
        path: `/api/3${scenario.path}`,
        headers: scenario.body ? { "api-token": token, "content-type": "application/json" } : { "api-token": token },
        body: scenario.body?.(),
      });
      await response.body.dump();
      latencies.push(performance.now() - sent);
      if (response.statusCode >= 300) failures++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    failures,
    seconds: (performance.now() - started) / 1000,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

async function createAccount(pool: Pool, token: string, name: string): Promise<string> {
  const response = await pool.request({
    method: "POST",
    path: "/api/3/accounts",
    headers: { "api-token": token, "content-type": "application/json" },
    body: JSON.stringify({ account: { name } }),
  });
  const body = (await response.body.json()) as { account?: { id: string } };
  if (!body.account) throw new Error(`creating the account to read answered ${response.statusCode}: ${JSON.stringify(body)}`);
  return body.account.id;
}

function row(cells: Array<string | number>): string {
  const widths = [8, 12, 10, 9, 9, 10, 9, 9];
  return cells.map((cell, index) => String(cell).padStart(widths[index])).join(" ");
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: "string", default: "2" }, concurrency: { type: "string", default: "1,16,64" } } });
  const seconds = Number(values.seconds);
  const levels = values.concurrency!.split(",").map(Number);

  const emulator = await startEmulatorProcess(0);
  const pool = new Pool(emulator.crmUrl, { connections: Math.max(...levels) });
  try {
    const accountId = await createAccount(pool, emulator.apiToken, "Bench read target");
    let created = 0;
    const scenarios: Scenario[] = [
      { name: "read", method: "GET", path: `/accounts/${accountId}` },
      { name: "list", method: "GET", path: "/campaigns?limit=100" },
      { name: "create", method: "POST", path: "/accounts", body: () => JSON.stringify({ account: { name: `Bench account ${++created}` } }) },
    ];

    console.log(`emulator pid ${emulator.child.pid}, ${seconds} s per run, rate limit off\n`);
    console.log(row(["scenario", "concurrency", "requests", "failed", "seconds", "req/s", "p50 ms", "p99 ms"]));
    for (const scenario of scenarios) {
      await measure(pool, emulator.apiToken, scenario, Math.max(...levels), WARM_UP_SECONDS);
      for (const concurrency of levels) {
        const figures = await measure(pool, emulator.apiToken, scenario, concurrency, seconds);
        console.log(
          row([
            scenario.name,
            concurrency,
            figures.requests,
            figures.failures,
            figures.seconds.toFixed(2),
            Math.round(figures.requests / figures.seconds),
            figures.p50Ms.toFixed(2),
            figures.p99Ms.toFixed(2),
          ]),
        );
      }
    }
    const rss = peakRssMiB(emulator.child.pid!);
    console.log(`\naccounts created: ${created}; emulator peak RSS: ${rss === undefined ? "n/a (no /proc)" : `${rss.toFixed(1)} MiB`}`);
  } finally {
    await pool.close();
    emulator.child.kill("SIGTERM");
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exitCode = 1;
});
