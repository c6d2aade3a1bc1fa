// What the CRM service holds against what a stack's state declares, for the reliability
// tests of test/reliability/programs/every-resource: duplicates (two objects of one
// natural key), orphans (objects no resource records) and missing objects.

import assert from "node:assert/strict";
import { startEmulator } from "../../emulator";
import { resources, typeOf } from "../../provider/registry";
import { emulatorCall, type RunningEmulator } from "../../scripts/harness/emulator";
import type { StateResource } from "../../scripts/harness/pulumi-cli";
import { listedId, type ResourceExample, resourceExamples } from "./resource-examples";

/** The collections the program fills: those of every registered CRM object that a create makes, with the resource class that declares it. */
const everyResourceCollections = resources.flatMap((resource) => {
  const { collection } = resourceExamples[typeOf(resource)] as ResourceExample;
  return collection ? [{ type: resource.className, ...collection }] : [];
});

export interface Tally {
  objects: number;
  duplicates: string[];
  orphans: string[];
  missing: string[];
}

const dynamicType = (type: string) => `pulumi-nodejs:dynamic/crm:${type}`;

/** The ids the state records for a resource type. */
function stateIds(recorded: readonly StateResource[], type: string): Set<string> {
  return new Set(recorded.filter((r) => r.type === dynamicType(type)).map((r) => r.id!));
}

/** The objects of a collection, by one request (faults should be off). */
async function listOf(emulator: RunningEmulator, collection: (typeof everyResourceCollections)[number]): Promise<any[]> {
  const objects = (await emulatorCall(emulator, "GET", `/api/3${collection.path}?limit=100`)).body[collection.member] as any[];
  assert.ok(objects.length < 100, `${collection.path} holds more than one page`);
  return objects;
}

let comeWithTheAccount: Promise<Set<string>> | undefined;

/** What every account comes with (its built-in task types, its admin and the admins' group), `path id`: the account's, not a program's. */
function withTheAccount(): Promise<Set<string>> {
  comeWithTheAccount ??= (async () => {
    const fresh = await startEmulator({ rateLimit: 0 });
    try {
      const held = await Promise.all(
        everyResourceCollections.map(async (collection) => (await listOf(fresh, collection)).map((object) => `${collection.path} ${object.id}`)),
      );
      return new Set(held.flat());
    } finally {
      await fresh.close();
    }
  })();
  return comeWithTheAccount;
}

/** Reads every collection (faults should be off) and compares what the program made of it with the resources of the state. */
export async function tallyService(emulator: RunningEmulator, recorded: readonly StateResource[]): Promise<Tally> {
  const result: Tally = { objects: 0, duplicates: [], orphans: [], missing: [] };
  const accountsOwn = await withTheAccount();
  for (const collection of everyResourceCollections) {
    const listed = (await listOf(emulator, collection)).filter((object) => !accountsOwn.has(`${collection.path} ${object.id}`));
    const declared = stateIds(recorded, collection.type);
    const keys = new Map<string, number>();
    for (const object of listed) keys.set(collection.key(object), (keys.get(collection.key(object)) ?? 0) + 1);
    result.objects += listed.length;
    for (const [key, count] of keys) if (count > 1) result.duplicates.push(`${count - 1} x ${collection.type} ${key}`);
    const held = new Set(listed.map((object) => listedId(collection, object)));
    result.orphans.push(...[...held].filter((id) => !declared.has(id)).map((id) => `${collection.type} ${id}`));
    result.missing.push(...[...declared].filter((id) => !held.has(id)).map((id) => `${collection.type} ${id}`));
  }
  return result;
}
