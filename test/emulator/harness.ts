import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";

/** A new folder under the system's temp folder for `use`, removed after it whatever its outcome. */
export async function inTempDir<T>(prefix: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Reply {
  status: number;
  headers: Headers;
  // Tests inspect arbitrary JSON (or a page's text); `any` keeps the assertions readable.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface Harness {
  emulator: RunningEmulator;
  /** A request with the emulator's API key; body objects are sent as JSON, strings as they are. */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** A request with exactly the given headers (no key added). */
  raw(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  close(): Promise<void>;
}

/** Starts an emulator with the rate limit off unless the options turn it on. */
export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({ rateLimit: 0, ...options });
  const raw = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const response = await fetch(`${emulator.crmUrl}${path}`, {
      method,
      headers: body === undefined ? headers : { "Content-Type": "application/json", ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    // JSON parsed; any other body (an HTML error page) as text.
    const json = /json/.test(response.headers.get("content-type") ?? "");
    return { status: response.status, headers: response.headers, body: text === "" ? undefined : json ? JSON.parse(text) : text };
  };
  return {
    emulator,
    raw,
    api: (method, path, body, headers = {}) => raw(method, path, body, { "Api-Token": emulator.apiToken, ...headers }),
    close: () => emulator.close(),
  };
}
