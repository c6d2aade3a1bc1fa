// Adoption by id (`adoptId`), the same four cases for every resource: an object that
// matches the inputs is taken over without a write, one that differs gets the declared
// values, an unknown id fails clearly, and read after adoption equals create's outputs.

import assert from "node:assert/strict";
import { releaseNaturalKey } from "../../provider/kit/adoption";
import { CrmClient } from "../../provider/crm/service/client";
import { adoptIdClaims } from "../../provider/crm/crud";
import { emulatorStats, type RunningEmulator } from "../../scripts/harness/emulator";
import { asHostSends } from "./host-struct";
import { checked, configuration, providerCode, type ResourceModule } from "./provider-steps";

/** Writes the emulator answered, by route (`PUT /api/3/notes/:id`), over both services. */
export async function writesByRoute(emulator: { crmUrl: string }): Promise<Record<string, number>> {
  const { byRoute } = await emulatorStats(emulator);
  return Object.fromEntries(Object.entries(byRoute).filter(([route]) => !route.startsWith("GET ")));
}

/** The writes sent since `before` (a writesByRoute), by route; routes without one left out. */
export async function writesSince(emulator: { crmUrl: string }, before: Record<string, number>): Promise<Record<string, number>> {
  const after = await writesByRoute(emulator);
  return Object.fromEntries(
    Object.entries(after)
      .map(([route, count]) => [route, count - (before[route] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
}

export interface AdoptionCase {
  /** e.g. `crm.AccountNote`. */
  type: string;
  emulator(): RunningEmulator;
  /** Makes an object out of band; returns its id and the inputs that declare it as it is (without adoptId). */
  existing(): Promise<{ id: string; inputs: Record<string, unknown> }>;
  /** Updatable inputs set to other values than the existing object's; none for a kind every change replaces. */
  changes?: Record<string, unknown>;
  /** The route of the update those changes send, as the emulator counts it. */
  updateRoute?: string;
  /** An id no object of the kind has. */
  unknownId?: string;
  /** The input that holds the id itself (a name-keyed kind's name): it is given the unknown id too. */
  idInput?: string;
}

/** The four adoption-by-id cases, as `it`s of the calling describe. */
export function itAdoptsById(provider: ResourceModule, adoption: AdoptionCase): void {
  /** Adopts, checks the round trip, and frees the object again, as a new deployment would. */
  const adopt = async (id: string, news: Record<string, unknown>) => {
    const inputs = await checked(provider, { ...news, adoptId: id });
    const before = await writesByRoute(adoption.emulator());
    try {
      const created = asHostSends(await provider.create(inputs));
      const writes = await writesSince(adoption.emulator(), before);
      assert.equal(created.id, id);
      assert.equal("adoptId" in created.outs, false, "adoptId is not an output");
      const read = asHostSends(await provider.read(id, { ...created.outs, __provider: providerCode }));
      assert.deepEqual(read.props, created.outs, "read's props differ from create's outputs");
      assert.deepEqual(read.inputs, configuration(inputs), "read's inputs differ from the checked inputs");
      assert.equal((await provider.diff(id, { ...created.outs, __provider: providerCode }, inputs)).changes, false, "diff after adoption");
      return { outs: created.outs as Record<string, unknown>, writes };
    } finally {
      releaseNaturalKey(new CrmClient("test"), adoptIdClaims(adoption.type), id);
    }
  };

  it("adoptId: takes over an object whose values match without a write, and reads back what create returned", async () => {
    const { id, inputs } = await adoption.existing();
    const { writes } = await adopt(id, inputs);
    assert.deepEqual(writes, {});
  });

  const { changes, updateRoute } = adoption;
  if (changes && updateRoute) {
    it("adoptId: takes over an object whose values differ, sending the update", async () => {
      const { id, inputs } = await adoption.existing();
      const { outs, writes } = await adopt(id, { ...inputs, ...changes });
      assert.deepEqual(writes, { [updateRoute]: 1 });
      for (const [field, value] of Object.entries(changes)) assert.deepEqual(outs[field], value, field);
    });
  }

  it("adoptId: an id of no such object fails clearly, and writes nothing", async () => {
    const { inputs } = await adoption.existing();
    const unknownId = adoption.unknownId ?? "999999";
    const before = await writesByRoute(adoption.emulator());
    const named = adoption.idInput ? { [adoption.idInput]: unknownId } : {};
    await assert.rejects(provider.create(await checked(provider, { ...inputs, ...named, adoptId: unknownId })), (error: Error) => {
      const type = adoption.type.replace(".", "\\.");
      assert.match(error.message, new RegExp(`^${type}\\b.*: adoptId ${unknownId} names no ${type} of this CRM account; give the id of an existing one`));
      return true;
    });
    assert.deepEqual(await writesSince(adoption.emulator(), before), {});
  });
}
