// A server the tests and benchmarks run in a child process of their own (s3rver, moto), which
// prints its port as its first line once it serves.

import type { ChildProcess } from "node:child_process";

export interface ServingChild {
  port: number;
  /** Ends the server, and answers once its process has (at once if it had already). */
  stop(): Promise<void>;
}

/** Waits for `child` (named `what` in errors) to print its port; fails if it ends or cannot start first. */
export async function servingChild(child: ChildProcess, what: string): Promise<ServingChild> {
  const ended = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once("data", (chunk) => resolve(Number(String(chunk).trim())));
    child.once("error", reject);
    child.once("exit", (code, signal) => reject(new Error(`${what} ended (${code ?? signal}) before it listened`)));
  });
  return {
    port,
    stop: async () => {
      child.kill();
      await ended;
    },
  };
}
