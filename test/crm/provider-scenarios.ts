// Deployments at the provider level: the calls a provider host receives from the engine,
// made on the provider modules directly against an emulator, and the requests the
// service got for them. bench/coalescing.ts prints their figures; the tests in this
// folder hold their request counts.

import * as account from "../../provider/crm/account";
import * as value from "../../provider/crm/account-custom-field-value";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, emulatorStats, type RunningEmulator } from "../../scripts/harness/emulator";
import { checked, providerCode } from "../support/provider-steps";

/**
 * Runs `step` over `items` as the engine's step executor runs a deployment's creates or
 * a refresh's reads: at most `parallel` at once, the next one started as soon as one
 * returns (PULUMI-NOTES.md: 4 per CPU by default).
 */
async function inParallel<T, R>(items: readonly T[], parallel: number, step: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await step(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return results;
}

export interface Requests {
  total: number;
  /** By the emulator's route, e.g. `GET /api/3/accounts/:id`. */
  byRoute: Record<string, number>;
  seconds: number;
}

/** The requests the emulator answered while `run` ran. */
export async function requestsDuring(emulator: RunningEmulator, run: () => Promise<unknown>): Promise<Requests> {
  const before = (await emulatorStats(emulator)).byRoute;
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  const byRoute: Record<string, number> = {};
  for (const [route, count] of Object.entries((await emulatorStats(emulator)).byRoute))
    if (count > (before[route] ?? 0)) byRoute[route] = count - (before[route] ?? 0);
  return { total: Object.values(byRoute).reduce((sum, count) => sum + count, 0), byRoute, seconds };
}

/**
 * Points the provider at the emulator (whose own limit is off, so that a scene is set
 * without waiting), or at `url` in front of it, pacing the provider at
 * `requestsPerSecond` as it paces itself at the service's limit; 0 leaves it unpaced.
 */
export function useEmulator(emulator: RunningEmulator, requestsPerSecond: number, url = emulator.crmUrl): void {
  useStackConfig(configOf({ "crm:apiUrl": url, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": String(requestsPerSecond) }));
}

/** `count` objects POSTed out of band, 16 at a time; their ids, in creation order. */
export async function madeOutOfBand(emulator: RunningEmulator, path: string, count: number, body: (n: number) => unknown): Promise<string[]> {
  const numbers = Array.from({ length: count }, (_, n) => n);
  return inParallel(numbers, 16, async (n) => {
    const { status, body: answer } = await emulatorCall(emulator, "POST", `/api/3${path}`, body(n));
    if (status >= 300) throw new Error(`POST ${path}: ${status} ${JSON.stringify(answer)}`);
    return String((Object.values(answer)[0] as { id: string }).id);
  });
}

/** A create as the engine makes it: check, then create with the checked inputs; the state it leaves. */
export const created = async (provider: typeof account | typeof value, inputs: Record<string, unknown>) => {
  const { id, outs } = await provider.create(await checked(provider, inputs));
  return { id, props: { ...outs, __provider: providerCode } as Record<string, unknown> };
};

/**
 * The values of the mixed bench (bench/mixed): `accounts` accounts, `fields` custom fields
 * and every account's value of each, created at `parallel`, as the engine hands them over
 * once their account exists. The accounts are made first, through the provider as in the
 * same deployment (`madeBy: "deployment"`), or out of band (`"earlier"`, a later `up`
 * adding values to accounts a stack already has). Counts the values' requests only.
 */
export async function valueCreates(
  emulator: RunningEmulator,
  { accounts, fields, parallel, madeBy, run }: { accounts: number; fields: number; parallel: number; madeBy: "deployment" | "earlier"; run: string },
): Promise<Requests & { values: Array<{ id: string; props: Record<string, unknown> }> }> {
  const fieldIds = await madeOutOfBand(emulator, "/accountCustomFieldMeta", fields, (n) => ({
    accountCustomFieldMetum: { fieldLabel: `${run} field ${n}`, fieldType: "text" },
  }));
  const names = Array.from({ length: accounts }, (_, n) => `${run} account ${n}`);
  const accountIds =
    madeBy === "deployment"
      ? (await inParallel(names, parallel, (name) => created(account, { name }))).map((made) => made.id)
      : await madeOutOfBand(emulator, "/accounts", accounts, (n) => ({ account: { name: names[n] } }));
  const inputs = accountIds.flatMap((accountId) =>
    fieldIds.map((customFieldId) => ({ accountId, customFieldId, fieldValue: `${run} ${accountId}/${customFieldId}` })),
  );
  let values: Array<{ id: string; props: Record<string, unknown> }> = [];
  const requests = await requestsDuring(emulator, async () => (values = await inParallel(inputs, parallel, (declared) => created(value, declared))));
  return { ...requests, values };
}

/**
 * The state of `objects` accounts made out of band, for a drift check: the outputs a
 * create gives, in the state's order (creation order, which is the order of their ids).
 */
export async function accountsToRefresh(emulator: RunningEmulator, objects: number, run: string) {
  const names = Array.from({ length: objects }, (_, n) => `${run} account ${n}`);
  const ids = await madeOutOfBand(emulator, "/accounts", objects, (n) => ({ account: { name: names[n] } }));
  return ids
    .map((id, n) => ({ id, props: { name: names[n], accountUrl: null, __provider: providerCode } as Record<string, unknown> }))
    .sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * The deletes of a destroy of `states` at `parallel`, as the CLI makes them: a worker
 * starts each delete after a write of the state and, once it returns, records it with
 * another; the CLI writes the state one write at a time, each taking `writeMs`.
 */
export async function destroyed(emulator: RunningEmulator, states: Array<{ id: string; props: Record<string, unknown> }>, parallel: number, writeMs: number) {
  let writes = Promise.resolve();
  const stateWritten = () => (writes = writes.then(() => new Promise((resolve) => setTimeout(resolve, writeMs))));
  return requestsDuring(emulator, () =>
    inParallel(states, parallel, async (state) => {
      await stateWritten();
      await account.delete(state.id, state.props);
      await stateWritten();
    }),
  );
}

/** The reads of a drift check (`refresh --preview-only --expect-no-changes`) of `states` at `parallel`, and the requests they sent. */
export async function refreshed(emulator: RunningEmulator, states: Array<{ id: string; props: Record<string, unknown> }>, parallel: number) {
  let results: Awaited<ReturnType<typeof account.read>>[] = [];
  const requests = await requestsDuring(emulator, async () => (results = await inParallel(states, parallel, (state) => account.read(state.id, state.props))));
  return { ...requests, results };
}
