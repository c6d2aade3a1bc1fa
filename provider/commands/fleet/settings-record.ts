// What the fleet last found a client's stack to hold, so that an `up` or `preview` whose settings
// have not changed runs no CLI call to read them: reading a stack's settings with their secrets
// is a CLI process that derives the secrets' key (some 0.25 s of CPU a client, a third of a
// no-op `up`'s). A record holds, per stack, a hash of its settings file (Pulumi.<stack>.yaml,
// which any change of the stack's settings rewrites) and an HMAC of the settings the clients file
// gave; both equal now means the stack holds them still. The HMAC's key is this machine's own,
// so that a record says nothing of a secret to whoever reads it without the key. Records live in
// the CLI's home (PULUMI_HOME), beside its plugins: a CI runner starts without them, and reads.

import { createHash, createHmac, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";

const folder = () => join(process.env.PULUMI_HOME || join(homedir(), ".pulumi"), "pulumi-crm", "fleet-settings");

/** This machine's key for the records' HMACs: made once, readable by its owner only. */
function machineKey(): Buffer {
  const path = join(folder(), "key");
  try {
    return readFileSync(path);
  } catch {
    mkdirSync(folder(), { recursive: true, mode: 0o700 });
    // Two fleets starting at once may both write one: either key is good, a record made under the other is a miss.
    writeFileSync(path, randomBytes(32), { mode: 0o600 });
    return readFileSync(path);
  }
}

const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

/** Where a stack's settings file is: Pulumi.<stack>.yaml beside the program (the stack's last name part: `org/acme` is acme's). */
const settingsFile = (program: string, stack: string) => join(program, `Pulumi.${stack.split("/").pop()}.yaml`);

export interface StackRecordKey {
  /** The backend's URL: the same stack name in another backend is another stack. */
  backend: string;
  program: string;
  stack: string;
}

const recordPath = ({ backend, program, stack }: StackRecordKey) => join(folder(), `${sha256(`${backend}\n${program}\n${stack}`)}.json`);

/** The HMAC of `settings` under this machine's key, in a key order of its own. */
function fingerprint(settings: ConfigMap): string {
  const sorted = Object.keys(settings)
    .sort()
    .map((key) => [key, settings[key].value, Boolean(settings[key].secret)]);
  return createHmac("sha256", machineKey()).update(JSON.stringify(sorted)).digest("hex");
}

function fileHash(path: string): string | undefined {
  try {
    return sha256(readFileSync(path));
  } catch {
    return undefined;
  }
}

/** Whether the stack holds `settings` as the fleet last found it: its settings file unchanged since, and the same settings given. */
export function holdsRecorded(key: StackRecordKey, settings: ConfigMap): boolean {
  try {
    const record = JSON.parse(readFileSync(recordPath(key), "utf8")) as { file?: string; settings?: string };
    const file = fileHash(settingsFile(key.program, key.stack));
    return file !== undefined && record.file === file && record.settings === fingerprint(settings);
  } catch {
    return false;
  }
}

/** Records that the stack holds `settings` now, its settings file as it is. */
export function recordHeld(key: StackRecordKey, settings: ConfigMap): void {
  const file = fileHash(settingsFile(key.program, key.stack));
  if (file === undefined) return;
  try {
    mkdirSync(folder(), { recursive: true, mode: 0o700 });
    writeFileSync(recordPath(key), JSON.stringify({ file, settings: fingerprint(settings) }), { mode: 0o600 });
  } catch {
    // A record is an optimization: without one, the next run reads the settings.
  }
}
