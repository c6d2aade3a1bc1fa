// Starts the emulator in this process for a test file and points the provider's
// settings at it, as stack config would.

import { startEmulator } from "../../emulator";
import { useStackConfig } from "../../provider/settings";

export type RunningEmulator = Awaited<ReturnType<typeof startEmulator>>;

export async function emulatorForProvider(options: Parameters<typeof startEmulator>[0] = {}): Promise<RunningEmulator> {
  const emulator = await startEmulator({ port: 0, rateLimit: 0, ...options });
  useStackConfig(configOf({ "crm:apiUrl": emulator.crmUrl, "crm:apiToken": emulator.apiToken, "chat:apiUrl": emulator.chatUrl, "chat:apiToken": emulator.apiToken }));
  return emulator;
}

export function configOf(values: Record<string, string>) {
  return { get: (key: string) => values[key] };
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

export async function requestCount(emulator: RunningEmulator): Promise<number> {
  const response = await fetch(`${emulator.crmUrl}/__emulator/stats`);
  return ((await response.json()) as { requests: number }).requests;
}
