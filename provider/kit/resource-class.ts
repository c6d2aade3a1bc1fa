// What the resource classes share, where the program runs: the props they hand to
// pulumi.dynamic.Resource, and the unique names a program may declare once only.

import * as pulumi from "@pulumi/pulumi";
import { ServiceError } from "../transport/errors";

/**
 * The props a resource class hands to pulumi.dynamic.Resource: every argument the
 * user passed (so that check names a misspelt one instead of it being dropped), and
 * every output name, so that each becomes an output property whether set or not.
 */
export function resourceProps(args: object, outputs: readonly string[]): Record<string, unknown> {
  const props: Record<string, unknown> = { ...args };
  for (const name of outputs) if (!(name in props)) props[name] = undefined;
  return props;
}

/** A field whose value a CRM account holds once only, regardless of case: an account's name, a field's label. */
export interface UniqueName {
  field: string;
  /** How messages call it: `account name`. */
  what: string;
}

/** The error of a unique name that two resources of one deployment declare. */
export function declaredTwice(type: string, unique: UniqueName, name: string): ServiceError {
  return new ServiceError(
    `${type} "${name}": two resources of this program declare the ${unique.what} "${name}" (${unique.what}s are unique regardless of case); give each its own ${unique.what}.`,
    { code: "duplicate", field: unique.field },
  );
}

// Unique names declared by this program run, by kind. A program runs once per preview and
// once per update, against one CRM account.
const declaredNames = new Map<string, Set<string>>();

/**
 * A unique name as a resource class hands it on, refused when another resource of the
 * program declared it already (regardless of case). This runs where the program runs,
 * so a preview fails on it before any request; a name known only later (an Output) is
 * checked once it resolves. The native plugin checks the same in Check (see plugin/server.ts).
 */
export function declaredOnce(type: string, unique: UniqueName, name: pulumi.Input<string>): pulumi.Input<string> {
  const declare = (resolved: string) => {
    if (typeof resolved !== "string") return resolved;
    let names = declaredNames.get(type);
    if (!names) declaredNames.set(type, (names = new Set()));
    const key = resolved.toLowerCase();
    if (names.has(key)) throw declaredTwice(type, unique, resolved);
    names.add(key);
    return resolved;
  };
  return typeof name === "string" ? declare(name) : pulumi.output(name).apply(declare);
}

/** The resource options with these outputs marked secret, besides any the user named. */
export function withSecretOutputs(opts: pulumi.CustomResourceOptions | undefined, outputs: string[]): pulumi.CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...outputs] };
}
