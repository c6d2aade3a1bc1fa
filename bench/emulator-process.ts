// The emulator in a process of its own (emulator/bin.ts), for the benchmarks: so that the
// load they generate does not share the emulator's event loop.

import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

export interface RunningEmulatorProcess {
  crmUrl: string;
  apiToken: string;
  /** The named accounts (--accounts), each `{crmUrl, chatUrl, apiToken}`. */
  accounts: Record<string, { crmUrl: string; chatUrl: string; apiToken: string }>;
  child: ChildProcess;
}

/** Starts the emulator at `rateLimit` requests per second per account (0: off), with the named `accounts` besides the default one. */
export async function startEmulatorProcess(rateLimit: number, accounts: string[] = []): Promise<RunningEmulatorProcess> {
  const bin = path.resolve(__dirname, "../emulator/bin.ts");
  const child = spawn(
    process.execPath,
    [
      "-r",
      "ts-node/register/transpile-only",
      bin,
      "--rate-limit",
      String(rateLimit),
      "--port",
      "0",
      ...(accounts.length ? ["--accounts", accounts.join(",")] : []),
    ],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  // The bin's first stdout line is a JSON object with the addresses and the key.
  const [firstLine] = await Promise.race([
    createInterface({ input: child.stdout! })
      [Symbol.asyncIterator]()
      .next()
      .then((line) => [line.value as string]),
    new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)))),
  ]);
  const { crmUrl, apiToken, accounts: named } = JSON.parse(firstLine) as Omit<RunningEmulatorProcess, "child">;
  return { crmUrl, apiToken, accounts: named, child };
}
