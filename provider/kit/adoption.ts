// The bookkeeping of adoption: natural keys claimed in a deployment, and what is said
// when an object is taken over or may be a leftover of an interrupted deployment.

import { ServiceError } from "../transport/errors";
import { perDeployment } from "./deployment";
import type { UniqueName } from "./core";
import { log } from "./log";

// Natural keys (account names, field labels) claimed by a create in this deployment,
// by account and kind: one deployment may manage two accounts, each with its own names.
const claimedKeys = perDeployment(() => new Map<string, Set<string>>());

/**
 * Claims a natural key for one create in this deployment; false when another
 * resource of the program claimed it already. Two resources declaring one unique
 * name can only end in a duplicate, or in two resources fighting over one object, so
 * the second is refused before any request and is never advised to adopt its sibling.
 */
export function claimNaturalKey(account: ServiceAccount, type: string, naturalKey: string): boolean {
  const scope = `${account.accountKey}|${type}`;
  const claimed = claimedKeys();
  let keys = claimed.get(scope);
  if (!keys) claimed.set(scope, (keys = new Set()));
  const key = naturalKey.toLowerCase();
  if (keys.has(key)) return false;
  keys.add(key);
  return true;
}

/** A create that failed made nothing its own: the key is free again. */
export function releaseNaturalKey(account: ServiceAccount, type: string, naturalKey: string): void {
  claimedKeys().get(`${account.accountKey}|${type}`)?.delete(naturalKey.toLowerCase());
}

/** The account a client talks to, identified without its credential. */
interface ServiceAccount {
  accountKey: string;
}

/**
 * An adoptId that names no object of the kind, or (`found`, e.g. `a note on a contact`)
 * an object of another kind.
 */
export function notAdoptable(resource: string, type: string, id: string, found?: string): ServiceError {
  const named = found ? `${found}, not a ${type}` : `no ${type} of this CRM account`;
  return new ServiceError(
    `${resource}: adoptId ${id} names ${named}; give the id of an existing one (\`pulumi-crm export\` lists them), or remove adoptId to create a new one.`,
    { status: 404, field: "adoptId" },
  );
}

/**
 * The way out when a create runs into an existing object that may be what an interrupted
 * deployment made and never recorded (a kill between the service's answer and the state
 * write leaves a pending create, which the next `pulumi up` warns of): take it over, or
 * delete it. Nothing tells the provider whose it is, so it never takes it on its own.
 */
export function unrecordedObjectAdvice(id: string, objectUrl: string): string {
  return (
    `if an interrupted \`pulumi up\` made it (the next run warned of a pending create of this resource) and no other stack manages it, ` +
    `take it over with adoptId: "${id}"; if it is not wanted, delete it (DELETE ${objectUrl}, or in the CRM's UI); then run \`pulumi up\` again`
  );
}

/**
 * A create refused because the unique name it declares (a task type's title) is held by the
 * existing object `id`: one the account came with (the built-in task type "Call"), another
 * stack's, or a leftover of an interrupted deployment. The ways out, none of them taken on its own.
 */
export function nameTaken(resource: string, type: string, unique: UniqueName, name: unknown, id: string, objectUrl: string, status?: number): ServiceError {
  return new ServiceError(
    `${resource}: the ${unique.what} "${name}" is taken by the existing ${type} ${id} (${unique.what}s are unique regardless of case). ` +
      `To manage that object with this stack, take it over with adoptId: "${id}" (only if no other stack manages it); else give this resource another ${unique.field}. ` +
      `If an interrupted \`pulumi up\` made it and it is not wanted, delete it (DELETE ${objectUrl}, or in the CRM's UI); then run \`pulumi up\` again.`,
    { status, code: "duplicate", field: unique.field },
  );
}

/** Objects taken over in this deployment. */
const adoptions = perDeployment(() => ({ count: 0 }));

/**
 * Every adoption is said once, in a short line, when it has succeeded: what the stack now
 * manages. What a destroy then does depends on resource options (protect, retainOnDelete)
 * that a provider never sees, so the line leaves it to the summary.
 */
export function announceAdoption(resource: string, id: string): void {
  if (adoptions().count++ === 0) process.once("SIGINT", summarizeAtSignal);
  log.info(`${resource}: took over existing object ${id}`);
}

/**
 * The line counting this deployment's adoptions, once: undefined when there were none, or
 * when it was taken already. Said when the deployment ends: by a plugin when the engine
 * cancels it, by a dynamic provider host when the engine ends it with SIGINT.
 */
export function takeAdoptionSummary(): string | undefined {
  const adopted = adoptions();
  if (adopted.count === 0) return undefined;
  const objects = adopted.count === 1 ? "1 existing object" : `${adopted.count} existing objects`;
  adopted.count = 0;
  return (
    `pulumi-crm: this deployment took over ${objects}, now managed by this stack: a destroy, or removing one from the program, ` +
    "deletes it unless it is protected or has retainOnDelete (a branding gets its old values back)"
  );
}

/**
 * The engine ends a deployment's dynamic provider host with SIGINT, then reads what it has
 * left on its output: the host's last line counts the adoptions, then it goes as the signal
 * would have taken it.
 */
function summarizeAtSignal(): void {
  const summary = takeAdoptionSummary();
  if (summary) log.info(summary);
  // Written after the line above: the signal once it is out.
  process.stdout.write("", () => process.kill(process.pid, "SIGINT"));
}
