// Starts the emulator in this process for a test file and points the provider's
// settings at it, as stack config would.

import { startEmulator } from "../../emulator";
import { useStackConfig } from "../../provider/settings";

export type RunningEmulator = Awaited<ReturnType<typeof startEmulator>>;

export async function emulatorForProvider(options: Parameters<typeof startEmulator>[0] = {}): Promise<RunningEmulator> {
  const emulator = await startEmulator({ port: 0, rateLimit: 0, ...options });
  useStackConfig(
    configOf({ "crm:apiUrl": emulator.crmUrl, "crm:apiToken": emulator.apiToken, "chat:apiUrl": emulator.chatUrl, "chat:apiToken": emulator.apiToken }),
  );
  return emulator;
}

export function configOf(values: Record<string, string>) {
  return { get: (key: string) => values[key] };
}

/**
 * The stack settings that point a lifecycle test's program at the emulator: its address (with
 * the test's own `config`), and its key, or `apiToken`, as a secret.
 */
export function stackOnEmulator(emulator: { crmUrl: string; apiToken: string }, config: Record<string, string> = {}, apiToken = emulator.apiToken) {
  return { config: { "crm:apiUrl": emulator.crmUrl, ...config }, secrets: { "crm:apiToken": apiToken } };
}

/** A direct call to the emulator, for changes made out of band and for checking what the provider did. */
export async function emulatorCall(emulator: RunningEmulator, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${emulator.crmUrl}${path}`, {
    method,
    headers: { "Api-Token": emulator.apiToken, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** emulatorCall, waiting out the account's rate limit (Retry-After: 1 s) as often as it answers 429. */
export async function emulatorCallWhenAdmitted(
  emulator: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const reply = await emulatorCall(emulator, method, path, body);
  if (reply.status !== 429) return reply;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return emulatorCallWhenAdmitted(emulator, method, path, body);
}

/** A read of the test's own on the CRM API (`path` below /api/3), waiting out the account's rate limit. */
export async function emulatorRead(emulator: RunningEmulator, path: string): Promise<any> {
  return (await emulatorCallWhenAdmitted(emulator, "GET", `/api/3${path}`)).body;
}

interface EmulatorStats {
  requests: number;
  byRoute: Record<string, number>;
  byStatus: Record<string, number>;
  byRouteAndStatus: Record<string, Record<string, number>>;
}

export async function emulatorStats(emulator: { crmUrl: string }): Promise<EmulatorStats> {
  return (await (await fetch(`${emulator.crmUrl}/__emulator/stats`)).json()) as EmulatorStats;
}

/** Requests the emulator answered, over both services; admin routes are not counted. */
export async function requestCount(emulator: { crmUrl: string }): Promise<number> {
  return (await emulatorStats(emulator)).requests;
}

/** Requests that write (POST, PUT, PATCH, DELETE) the emulator answered. */
export async function writeCount(emulator: { crmUrl: string }): Promise<number> {
  const { byRoute } = await emulatorStats(emulator);
  return Object.entries(byRoute)
    .filter(([route]) => /^(POST|PUT|PATCH|DELETE)\b/.test(route))
    .reduce((sum, [, count]) => sum + count, 0);
}

/** Flow runs the chat service was asked to start, on any channel. */
export async function flowRunsStarted(emulator: RunningEmulator): Promise<number> {
  const { byRoute } = await emulatorStats(emulator);
  return Object.entries(byRoute)
    .filter(([route]) => route.startsWith("POST") && route.endsWith("/run"))
    .reduce((sum, [, count]) => sum + count, 0);
}

/** Replaces the emulator's injected faults, drawn from `seed`; an empty spec clears them. */
export async function setFaults(emulator: RunningEmulator, spec: string, seed = 0): Promise<void> {
  await fetch(`${emulator.crmUrl}/__emulator/faults`, { method: "POST", body: JSON.stringify({ spec, seed }) });
}
