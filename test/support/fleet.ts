// `pulumi-crm fleet` as installed, run as an agency runs it, and the emulator accounts it
// deploys into, read and changed as their owners would: for the fleet's program tests.

import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { startPostgres } from "../../scripts/postgres";
import { startS3 } from "../../scripts/s3";
import { ensureToolchain } from "../../scripts/toolchain";
import { installYamlProgram } from "../../scripts/harness/plugin-program";

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
export async function runFleet(
  bin: string,
  clientsFile: string,
  env: NodeJS.ProcessEnv,
  args: string[],
  started?: (child: ChildProcess, stderr: () => string) => void,
): Promise<FleetRun> {
  const child = spawn(join(ensureToolchain().nodeBin, "node"), [bin, "fleet", ...args, "--clients", clientsFile], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: started !== undefined,
  });
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
  const changed = await fetch(`${account.crmUrl}/api/3/messages/${message.id}`, {
    method: "PUT",
    headers: { "Api-Token": account.apiToken, "Content-Type": "application/json" },
    body: JSON.stringify({ message: { fromname } }),
  });
  assert.equal(changed.status, 200);
}

/** The environment variable a test's clients file names for a stack's key: `CLIENT_1_CRM_TOKEN`. */
export const tokenVariable = (stack: string) => `${stack.toUpperCase().replace(/-/g, "_")}_CRM_TOKEN`;

/** A backend the fleet's program tests run on. */
export interface TestBackend {
  /** PULUMI_BACKEND_URL, and what the CLI needs beside it (an S3 server's keys). */
  env: NodeJS.ProcessEnv;
  /** What a test's own `pulumi` calls need beside the fleet's environment (the fleet sets it for its calls itself). */
  direct: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/**
 * The backends the fleet's program tests run on each: a folder (`file://`), a PostgreSQL server
 * (`postgres://`, scripts/postgres.ts) and an S3-compatible one (`s3://`, scripts/s3.ts), each
 * the test's own.
 */
export const fleetBackends: Array<{ name: string; start(home: string): Promise<TestBackend> }> = [
  {
    name: "file://",
    start: async (home) => {
      mkdirSync(join(home, "backend"));
      return { env: { PULUMI_BACKEND_URL: `file://${join(home, "backend")}` }, direct: {}, stop: async () => undefined };
    },
  },
  {
    name: "postgres://",
    start: async () => {
      const server = await startPostgres();
      // From 4 stacks on 2 cores, the CLI 3.274.1's `pulumi stack ls` on PostgreSQL waits forever on its own connections (agencies.md).
      return { env: { PULUMI_BACKEND_URL: server.url }, direct: { PULUMI_DIY_BACKEND_PARALLEL: "1" }, stop: server.stop };
    },
  },
  {
    name: "s3://",
    start: async () => {
      const server = await startS3();
      return { env: { PULUMI_BACKEND_URL: server.url, ...server.env }, direct: {}, stop: server.stop };
    },
  },
];

/** A service that takes each connection and never answers: a run against it is surely under way, and stays so. */
export async function heldService(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const execFileAsync = promisify(execFile);

/**
 * Waits until the stack's state holds pending operations (`pulumi stack export`) and their number
 * has stopped growing: the run creating them is under way and waits on its service, writing no
 * more state. A run killed while it writes the state may leave it unreadable (seen once on a file
 * backend: `pulumi stack ls` then failed with `EOF`), which is another test than this one.
 */
export async function untilPending(stack: string, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  let seen = 0;
  for (;;) {
    const exported = await execFileAsync("pulumi", ["stack", "export", "--stack", stack], { cwd, env, encoding: "utf8" }).then(
      ({ stdout }) => stdout,
      () => "{}",
    );
    const pending = (JSON.parse(exported) as { deployment?: { pending_operations?: unknown[] } }).deployment?.pending_operations?.length ?? 0;
    if (pending && pending === seen) return;
    seen = pending;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * A `pulumi up` of `stack` that holds its lock and waits, as a person's does at its prompt ("Do you
 * want to perform this update?", on a terminal of its own): no operation under way, none pending.
 * Its process group is handed back once it asks; `SIGKILL` to it leaves the lock behind.
 */
export async function promptingUp(stack: string, cwd: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  // The CLI asks only on a terminal (not a "dumb" one), and where it finds no CI system.
  const terminal = { ...env, PULUMI_DISABLE_CI_DETECTION: "true", TERM: "xterm" };
  const child = spawn("script", ["-qfec", `pulumi up --stack ${stack}`, "/dev/null"], { cwd, env: terminal, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      if (/Do you want to perform this update\?/.test(output)) resolve();
    });
    child.on("close", () => reject(new Error(`pulumi up ended without asking:\n${output}`)));
  });
  return child;
}

/** The cheapest fleet program: a YAML program of one tag a client (`clientName`), on the plugin built for the test. Its folder. */
export async function installTagProgram(name: string): Promise<string> {
  const { program } = await installYamlProgram(undefined, name);
  // The plugin's folder, which installYamlProgram names, after the program itself.
  const plugins = readFileSync(join(program, "Pulumi.yaml"), "utf8");
  writeFileSync(
    join(program, "Pulumi.yaml"),
    [
      "name: crm-tags",
      "runtime: yaml",
      "config:",
      "  clientName:",
      "    type: string",
      "resources:",
      "  tag:",
      "    type: crm:Tag",
      "    properties:",
      "      tag: ${clientName}",
      plugins,
    ].join("\n"),
  );
  return program;
}

/** Whether a process of the group `group` still runs after up to 10 s: polled, as each of its processes ends on its own. */
export async function groupAliveAfter(group: number): Promise<boolean> {
  for (let waited = 0; waited < 100; waited++) {
    try {
      process.kill(-group, 0);
    } catch {
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}
