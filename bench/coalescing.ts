// Requests of coalesced writes and reads at the provider level: the calls a provider host
// receives from the engine, made on the provider modules directly against the emulator
// in this process (test/crm/provider-scenarios.ts), and the emulator's count of requests
// by route. Three scenarios:
//
// - values: the mixed bench's custom-field values (bench/mixed: 50 accounts, 3 fields,
//   150 values) created at the engine's parallelism, on accounts the same deployment made
//   and on accounts made earlier;
// - drift check: the reads of `refresh --preview-only --expect-no-changes` of N accounts;
// - destroy: the deletes of 149 accounts (as test/lifecycle/coalesced-requests.test.ts has
//   them) at a CLI's pace: each state write, one at a time, at a step's start and end,
//   taking --write-ms (0, 20, 60 and 150 ms: a CLI from idle to a machine at load 10).
//
// The provider paces itself at the service's limit (--rate, crm:requestsPerSecond; 0: not
// paced); the emulator's own limit is off, so that the scene is set without waiting.
// Simulated time is the requests at the service's budget (requests / 5 s at 5 a second):
// what a run takes at the limit when the requests are all there is to wait for.
//
//   npx ts-node --transpile-only bench/coalescing.ts [--rate 5] [--parallel 8] [--accounts 50] [--fields 3] [--objects 1000,5000] [--order state|shuffled] [--write-ms 0,20,60,150] [--only values|drift|destroy]
//
// The drift check reads in the state's order (creation order, as the engine lists the
// resources), or with --order shuffled in an order unrelated to the pages'.
//
// Figures are printed, never asserted.

import { parseArgs } from "node:util";
import { startEmulator } from "../emulator";
import { accountsToRefresh, destroyed, refreshed, type Requests, useEmulator, valueCreates } from "../test/crm/provider-scenarios";

const { values: options } = parseArgs({
  options: {
    rate: { type: "string", default: "5" },
    parallel: { type: "string", default: "8" },
    accounts: { type: "string", default: "50" },
    fields: { type: "string", default: "3" },
    objects: { type: "string", default: "1000,5000" },
    order: { type: "string", default: "state" },
    "write-ms": { type: "string", default: "0,20,60,150" },
    only: { type: "string" },
  },
});
const rate = Number(options.rate);
const parallel = Number(options.parallel);
/** The service's budget, for the simulated time of a run without the limit. */
const budgetPerSecond = 5;

const routes = (requests: Requests) =>
  Object.entries(requests.byRoute)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([route, count]) => `${route.replace("/api/3", "")} ${count}`)
    .join(", ");
const figures = (requests: Requests) =>
  `${requests.total} requests, wall ${requests.seconds.toFixed(1)} s, simulated ${(requests.total / budgetPerSecond).toFixed(1)} s (${routes(requests)})`;

/** The items in an order drawn from a fixed seed, the same on every run. */
function shuffled<T>(items: T[]): T[] {
  const result = [...items];
  let seed = 1;
  for (let index = result.length - 1; index > 0; index--) {
    seed = (seed * 48271) % 2147483647;
    const other = seed % (index + 1);
    [result[index], result[other]] = [result[other], result[index]];
  }
  return result;
}

async function main() {
  const emulator = await startEmulator({ port: 0, rateLimit: 0 });
  try {
    useEmulator(emulator, rate);
    console.log(`P = ${parallel}, provider paced at ${rate ? `${rate} requests/s` : "no limit"}`);
    if (options.only === undefined || options.only === "values") {
      const [accounts, fields] = [Number(options.accounts), Number(options.fields)];
      for (const madeBy of ["deployment", "earlier"] as const) {
        const run = `values ${madeBy}`;
        const result = await valueCreates(emulator, { accounts, fields, parallel, madeBy, run });
        console.log(
          `values: ${accounts * fields} on ${accounts} accounts made by ${madeBy === "deployment" ? "the same deployment" : "an earlier one"}, ${fields} fields: ${figures(result)}`,
        );
      }
    }
    if (options.only === undefined || options.only === "destroy") {
      for (const writeMs of options["write-ms"].split(",").map(Number)) {
        const states = await accountsToRefresh(emulator, 149, `destroy ${writeMs}`);
        console.log(`destroy: 149 accounts, state writes of ${writeMs} ms: ${figures(await destroyed(emulator, states, parallel, writeMs))}`);
      }
    }
    if (options.only === undefined || options.only === "drift") {
      for (const objects of options.objects.split(",").map(Number)) {
        // Each size on its own: the CRM account holds just the accounts the stack has.
        await fetch(`${emulator.crmUrl}/__emulator/reset`, { method: "POST" });
        const states = await accountsToRefresh(emulator, objects, `drift ${objects}`);
        const result = await refreshed(emulator, options.order === "shuffled" ? shuffled(states) : states, parallel);
        console.log(`drift check: ${objects} accounts, ${options.order} order: ${figures(result)}`);
      }
    }
  } finally {
    await emulator.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
