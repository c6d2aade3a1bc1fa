// `pulumi-crm fleet` as installed, run as an agency runs it, and the emulator accounts it
// deploys into, read and changed as their owners would: for the fleet's program tests.

import assert from "node:assert/strict";
import { ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { ensureToolchain } from "../../scripts/toolchain";

export interface FleetRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `pulumi-crm fleet <args> --clients <file>` as installed, on the programs' Node.js, with `env`:
 * its exit code and output. `started` is handed the process (in a process group of its own, as a
 * terminal starts a command) once it runs, and its stderr as it comes.
 */
export async function runFleet(bin: string, clientsFile: string, env: NodeJS.ProcessEnv, args: string[], started?: (child: ChildProcess, stderr: () => string) => void): Promise<FleetRun> {
  const child = spawn(join(ensureToolchain().nodeBin, "node"), [bin, "fleet", ...args, "--clients", clientsFile], { env, stdio: ["ignore", "pipe", "pipe"], detached: started !== undefined });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  started?.(child, () => stderr);
  const code = await new Promise<number>((resolve) => child.on("close", (exit, signal) => resolve(exit ?? (signal ? 128 : 1))));
  return { code, stdout, stderr };
}

export interface Account {
  crmUrl: string;
  apiToken: string;
}

/** The messages of an emulator account, read as its owner would. */
export async function messagesOf({ crmUrl, apiToken }: Account): Promise<Array<{ id: string; fromname: string }>> {
  for (;;) {
    const answer = await fetch(`${crmUrl}/api/3/messages`, { headers: { "Api-Token": apiToken } });
    // The account's 5 requests a second, which the run just before may have used up.
    if (answer.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 1000 * Number(answer.headers.get("retry-after") ?? 1)));
      continue;
    }
    assert.equal(answer.status, 200, await answer.clone().text());
    return ((await answer.json()) as { messages: Array<{ id: string; fromname: string }> }).messages;
  }
}

/** Renames the sender of an account's only message behind its stack's back. */
export async function renameSender(account: Account, fromname: string): Promise<void> {
  const [message] = await messagesOf(account);
  const changed = await fetch(`${account.crmUrl}/api/3/messages/${message.id}`, { method: "PUT", headers: { "Api-Token": account.apiToken, "Content-Type": "application/json" }, body: JSON.stringify({ message: { fromname } }) });
  assert.equal(changed.status, 200);
}

/** The environment variable a test's clients file names for a stack's key: `CLIENT_1_CRM_TOKEN`. */
export const tokenVariable = (stack: string) => `${stack.toUpperCase().replace(/-/g, "_")}_CRM_TOKEN`;
