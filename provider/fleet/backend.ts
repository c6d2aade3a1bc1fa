// What a file backend holds of the fleet's stacks beyond what a run of the CLI says: a stack's
// locks and the operations an interrupted run left pending. A preview and a drift check take no
// lock, and an up runs past pending operations: read here before each client's run, each with
// the command that clears it. Other backends (Pulumi Cloud) are not read here.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import type { RunResult } from "./run";

/** The stack's own name: `acme` of `org/project/acme`. */
const stackName = (stack: string) => stack.split("/").pop()!;

/** A file backend's folder (`file:///path`, `file://~/path`); undefined for any other backend. */
export function fileBackendRoot(url: string | undefined): string | undefined {
  if (!url?.startsWith("file://")) return undefined;
  const path = url.startsWith("file://~") ? join(process.env.HOME ?? "", url.slice("file://~".length)) : fileURLToPath(url.split("?")[0]);
  return path;
}

interface LockFile {
  pid?: number;
  username?: string;
  hostname?: string;
  timestamp?: string;
}

interface PendingOperation {
  type: string;
  resource: { urn: string; type: string };
}

/**
 * Why `stack` cannot run now on the file backend at `root` (project `project`): a lock another
 * run holds or left behind, or operations an interrupted run left pending; with the command that
 * clears it. Undefined when neither.
 */
export function blockedStack(root: string, project: string, stack: string): RunResult | undefined {
  const name = stackName(stack);
  const lockFolder = join(root, ".pulumi", "locks", "organization", project, name);
  const locks = existsSync(lockFolder) ? readdirSync(lockFolder).filter((file) => file.endsWith(".json")) : [];
  if (locks.length) {
    const holders = locks.map((file) => {
      const lock = readJson<LockFile>(join(lockFolder, file)) ?? {};
      return `${lock.username ?? "?"}@${lock.hostname ?? "?"} (pid ${lock.pid ?? "?"}) since ${lock.timestamp ?? "?"}`;
    });
    return {
      status: "locked",
      error: `locked by ${holders.join(", ")}; not waited on. If that run has ended (killed, interrupted), \`pulumi cancel --stack ${stack} --yes\` deletes its lock`,
    };
  }
  const pending = pendingOperations(join(root, ".pulumi", "stacks", project, name));
  if (pending.length) {
    const what = pending.map((operation) => `${operation.type} ${operation.resource.type} ${operation.resource.urn.split("::").pop()}`);
    return {
      status: "interrupted",
      error:
        `an interrupted run left ${pending.length} operation${pending.length === 1 ? "" : "s"} pending (${what.join(", ")}): ` +
        `\`pulumi refresh --stack ${stack} --clear-pending-creates --yes\` settles them, then run the fleet again`,
    };
  }
  return undefined;
}

/** The pending operations in a stack's checkpoint (`<stack>.json`, or `.json.gz` where the backend compresses). */
function pendingOperations(checkpoint: string): PendingOperation[] {
  const state =
    readJson<{ checkpoint?: { latest?: { pending_operations?: PendingOperation[] } } }>(`${checkpoint}.json`) ??
    (existsSync(`${checkpoint}.json.gz`) ? (JSON.parse(gunzipSync(readFileSync(`${checkpoint}.json.gz`)).toString("utf8")) as { checkpoint?: { latest?: { pending_operations?: PendingOperation[] } } }) : undefined);
  return state?.checkpoint?.latest?.pending_operations ?? [];
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    return undefined;
  }
}
