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

// Unique names (account names, field labels) declared by this program run, by kind. A
// program runs once per preview and once per update, against one CRM account.
const declaredNames = new Map<string, Set<string>>();

/**
 * A unique name as a resource class hands it on, refused when another resource of the
 * program declared it already (regardless of case). This runs where the program runs,
 * so a preview fails on it before any request; a name known only later (an Output) is
 * checked once it resolves.
 */
export function declaredOnce(type: string, field: string, what: string, name: pulumi.Input<string>): pulumi.Input<string> {
  const declare = (resolved: string) => {
    if (typeof resolved !== "string") return resolved;
    let names = declaredNames.get(type);
    if (!names) declaredNames.set(type, (names = new Set()));
    const key = resolved.toLowerCase();
    if (names.has(key)) {
      throw new ServiceError(
        `${type} "${resolved}": two resources of this program declare the ${what} "${resolved}" (${what}s are unique regardless of case); give each its own ${what}.`,
        { code: "duplicate", field },
      );
    }
    names.add(key);
    return resolved;
  };
  return typeof name === "string" ? declare(name) : pulumi.output(name).apply(declare);
}

/** The resource options with these outputs marked secret, besides any the user named. */
export function withSecretOutputs(opts: pulumi.CustomResourceOptions | undefined, outputs: string[]): pulumi.CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...outputs] };
}
