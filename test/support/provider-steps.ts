// The steps a provider test takes through a resource module's lifecycle functions, as
// the engine calls them, and the round-trip every resource must pass: what create
// returns, read returns, and the checked inputs show no change against it.

import assert from "node:assert/strict";
import { dynamicLifecycle } from "../../provider/dynamic/door";
import type { RegisteredResource } from "../../provider/registry";
import { asHostSends } from "./host-struct";

/** Stands in for the serialized provider the engine passes with every input. */
export const providerCode = "exports.handler = ...";

/** What a provider test calls: the six lifecycle functions every resource module exports for the dynamic door. */
export type ResourceModule = ReturnType<typeof dynamicLifecycle>;

/** A registered resource's lifecycle functions as its dynamic door module exports them (provider/<namespace>/<name>.ts). */
export const dynamicProviderOf = (resource: RegisteredResource): ResourceModule => dynamicLifecycle(resource.definition.core);

/** A program's inputs as the SDK sends them: undefined members dropped. */
const asSent = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/** The checked inputs, as the host passes them on, failing the test on any check failure. */
export async function checked(provider: ResourceModule, news: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await provider.check({}, asSent({ ...news, __provider: providerCode }));
  assert.equal(result.failures, undefined, JSON.stringify(result.failures));
  return asHostSends(result.inputs!);
}

/** Check's failure reasons by field. */
export async function failuresOf(provider: ResourceModule, news: Record<string, unknown>): Promise<Record<string, string>> {
  const result = await provider.check({}, asSent({ ...news, __provider: providerCode }));
  return Object.fromEntries((result.failures ?? []).map((failure) => [failure.property, failure.reason]));
}

/**
 * The inputs read should give back: the checked (or declared) ones without the provider and the
 * creation-only options, which checked inputs store under a key of their own (`__neverCompared`).
 */
export function configuration(inputs: Record<string, unknown>, creationOnly: readonly string[] = ["adoptExisting", "adoptId"]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(inputs).filter(([field]) => !field.startsWith("__") && !creationOnly.includes(field)));
}

/**
 * Creates from `news` and checks the round trip: read returns create's outputs and the
 * checked inputs (or `readInputs`, where the inputs' form depends on the service), and
 * diff of the checked inputs against the outputs shows no change.
 */
export async function createAndVerify(provider: ResourceModule, news: Record<string, unknown>, readInputs?: Record<string, unknown>) {
  const inputs = await checked(provider, news);
  const created = asHostSends(await provider.create(inputs));
  const read = asHostSends(await provider.read(created.id, { ...created.outs, __provider: providerCode }));
  assert.deepEqual(read.props, created.outs, "read's props differ from create's outputs");
  assert.deepEqual(read.inputs, readInputs ?? configuration(inputs), "read's inputs differ from the checked inputs");
  const diff = await provider.diff(created.id, { ...created.outs, __provider: providerCode }, inputs);
  assert.equal(diff.changes, false, `diff of the checked inputs against the outputs: ${JSON.stringify(diff)}`);
  return { id: created.id, outs: created.outs as Record<string, unknown>, inputs };
}

/** Updates an object from `olds` (its outputs) to `news`, checks the round trip again, and returns the new outputs. */
export async function updateAndVerify(provider: ResourceModule, id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
  const inputs = await checked(provider, news);
  const diff = await provider.diff(id, olds, inputs);
  assert.equal(diff.changes, true, `no change seen from ${JSON.stringify(olds)} to ${JSON.stringify(news)}`);
  assert.deepEqual(diff.replaces, [], `${JSON.stringify(news)} replaces instead of updating`);
  const updated = asHostSends(await provider.update(id, olds, inputs));
  const read = asHostSends(await provider.read(id, updated.outs));
  assert.deepEqual(read.props, updated.outs, "read's props differ from update's outputs");
  assert.deepEqual(read.inputs, configuration(inputs), "read's inputs differ from the checked inputs");
  assert.equal((await provider.diff(id, updated.outs, inputs)).changes, false);
  return updated.outs as Record<string, unknown>;
}

/**
 * The update's outcome, `expected`, both in what it returned (`outs`) and in the object as the
 * service holds it, read back by the provider's read: an update that returned the old state, or
 * the new inputs without sending them, fails it. A field expected undefined is one the update cleared.
 */
export async function assertUpdateHeld(provider: ResourceModule, id: string, outs: Record<string, unknown>, expected: Record<string, unknown>) {
  const [returned, held] = [asHostSends(outs), asHostSends((await provider.read(id, outs)).props ?? {})];
  for (const [field, value] of Object.entries(expected)) {
    assert.deepEqual(returned[field], value, `${field} as the update returned it`);
    assert.deepEqual(held[field], value, `${field} as the service holds it`);
  }
}
