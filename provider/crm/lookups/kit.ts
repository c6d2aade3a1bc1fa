// What every lookup (Pulumi "data source") shares. Dynamic providers have no
// invokes, so lookups run in the Pulumi program's own process, in preview as in up,
// with the settings and the transport the resources use: the limiter per account,
// retries, typed errors, the API token never in a message.

import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { fieldOf, serviceId, strictObject } from "../../kit/inputs";
import { ServiceError } from "../../transport/errors";
import { CrmClient } from "../service/client";
import type { WalkBound } from "../service/collection";

/** How a lookup runs. */
export interface LookupOptions {
  /**
   * The most records a lookup reads from one collection; a larger one is refused
   * with a message saying how to narrow the query. Default 10,000.
   */
  maxRecords?: number;
}

const defaultMaxRecords = 10_000;

/** How the Output form of a lookup runs: the lookup's options, and what it waits for, as in `pulumi.InvokeOutputOptions`. */
export interface LookupOutputOptions extends LookupOptions {
  /**
   * Resources the lookup waits for besides those its arguments come from: in a preview
   * its result stays unknown while one of them is to be created or replaced; in an
   * update it runs once they all exist.
   */
  dependsOn?: pulumi.Input<pulumi.Resource> | pulumi.Input<pulumi.Input<pulumi.Resource>[]>;
}

/** A lookup's arguments as its Output form takes them: each one may be an Output or a promise. */
export type LookupInputs<Args> = Args extends unknown ? { [Key in keyof Args]: pulumi.Input<Args[Key]> } : never;

/**
 * The Output form of a lookup, as Pulumi packages pair `getX` with `getXOutput`, with
 * the semantics of Pulumi's own output-form invokes (`invokeOutput`): it waits for its
 * arguments and for the resources they come from and `dependsOn` names, and stays
 * unknown in a preview while any of these is. `name` names it in messages.
 */
export function outputForm<Args, Result>(lookup: (args: Args, opts?: LookupOptions) => Promise<Result>, name = lookup.name) {
  return (args: LookupInputs<Args>, opts?: LookupOutputOptions): pulumi.Output<Result> => {
    const { dependsOn, ...lookupOptions } = opts ?? {};
    const given = pulumi.output(args);
    const ready = pulumi.all([given, dependenciesExist(`crm.${name}Output`, given, dependsOn)]);
    return ready.apply(([resolved]) => lookup(resolved as unknown as Args, lookupOptions));
  };
}

/**
 * What invokeOutput waits for before it calls a provider: the resources the arguments'
 * Outputs come from and those `dependsOn` names, a component standing for the custom
 * resources under it. The Output resolves once they all exist, and in a preview is
 * unknown while one of them is yet to be created or replaced (its id unknown). Its
 * resources are these dependencies, so that what uses the lookup depends on them too.
 */
function dependenciesExist(label: string, given: pulumi.Output<unknown>, dependsOn: LookupOutputOptions["dependsOn"]): pulumi.Output<unknown> {
  return (pulumi.output(dependsOn) as pulumi.Output<unknown>).apply(async (named) => {
    // getAllResources is marked internal in the SDK, yet declared and exported (3.216 to 3.270): no public API lists an Output's resources.
    const dependencies = new Set([...(await pulumi.getAllResources(given)), ...resourcesNamed(label, named)]);
    // A DependencyResource is a CustomResource without an id: nothing to wait for.
    const created = (await customResourcesUnder(dependencies)).filter(
      (resource): resource is pulumi.CustomResource => pulumi.CustomResource.isInstance(resource) && resource.id !== undefined,
    );
    return pulumi.all([...[...dependencies].map((resource) => resource.urn), ...created.map((resource) => resource.id)]);
  });
}

/** The resources of a resolved `dependsOn`, its lists flattened; anything else is refused, as Pulumi's invokes refuse it. */
function resourcesNamed(label: string, dependsOn: unknown): pulumi.Resource[] {
  const named = [dependsOn].flat(Infinity).filter((item) => item !== undefined && item !== null);
  if (!named.every((item): item is pulumi.Resource => pulumi.Resource.isInstance(item))) {
    throw new ServiceError(`${label} options: dependsOn must hold resources only.`, { code: "invalid_argument", field: "dependsOn" });
  }
  return named;
}

/**
 * invokeOutput's own expansion: each component replaced by the custom (and remote
 * component) resources under it, once it is constructed. The SDK keeps it internal and
 * untyped (runtime/dependsOn.js, the same from 3.216 to 3.270); required when used, so
 * that a later SDK without it breaks only the Output forms of lookups.
 */
function customResourcesUnder(resources: Set<pulumi.Resource>): Promise<pulumi.Resource[]> {
  const sdk = require("@pulumi/pulumi/runtime/dependsOn") as {
    getAllTransitivelyReferencedResources(resources: Set<pulumi.Resource>, exclude: Set<pulumi.Resource>): Promise<pulumi.Resource[]>;
  };
  return sdk.getAllTransitivelyReferencedResources(resources, new Set());
}

/** One lookup call: its checked arguments, its client and the bound of its walks. */
export interface Lookup<Args> {
  args: Args;
  client: CrmClient;
  /** The walk bound of this call, with how to narrow its query. */
  bound(narrow: string): WalkBound;
  maxRecords: number;
}

const optionsSchema = strictObject(
  { maxRecords: z.number({ invalid_type_error: "must be a number" }).int("must be a whole number").positive("must be at least 1").optional() },
  "the lookup options",
);

/**
 * Checks a lookup's arguments and options, naming each problem, before any request;
 * then binds a client to the configured account.
 */
export function startLookup<Schema extends z.ZodTypeAny>(name: string, schema: Schema, args: unknown, opts: unknown): Lookup<z.output<Schema>> {
  const label = `crm.${name}`;
  const parsedArgs = schema.safeParse(args ?? {});
  if (!parsedArgs.success) throw invalidArgument(label, parsedArgs.error);
  const parsedOptions = optionsSchema.safeParse(opts ?? {});
  if (!parsedOptions.success) throw invalidArgument(`${label} options`, parsedOptions.error);
  const maxRecords = parsedOptions.data.maxRecords ?? defaultMaxRecords;
  return {
    args: parsedArgs.data,
    client: new CrmClient(label),
    bound: (narrow) => ({ maxRecords, narrow: `${narrow}, or raise maxRecords in the lookup's options` }),
    maxRecords,
  };
}

function invalidArgument(label: string, error: z.ZodError): ServiceError {
  // A rule across arguments has no path: its message is a whole sentence.
  const wholeSentence = (issue: z.ZodIssue) => issue.path.length === 0 && issue.code !== z.ZodIssueCode.unrecognized_keys;
  const problems = error.issues.map((issue) => (wholeSentence(issue) ? issue.message : `${fieldOf(issue)} ${issue.message}`));
  return new ServiceError(`${label}: ${problems.join("; ")}.`, { code: "invalid_argument", field: fieldOf(error.issues[0]) });
}

/** `{ id }` or `{ name }`: the two ways a single lookup names what it wants. */
export function idOrName(what: string, alsoBy?: string) {
  const text = z.string({ invalid_type_error: "must be a string" }).min(1, "must not be empty").optional();
  return strictObject(
    { id: serviceId(`the ${what}`).optional(), name: text, ...(alsoBy ? { [alsoBy]: text } : {}) },
    `the arguments of a ${what} lookup`,
  ).refine(
    (args: Record<string, unknown>) => ["id", "name", ...(alsoBy ? [alsoBy] : [])].filter((key) => args[key] !== undefined).length === 1,
    alsoBy ? `give one of the id, the name or the ${alsoBy} of the ${what}` : `give either the id or the name of the ${what}, not both`,
  );
}

/** How a single lookup names what it wants, in messages: `the id 12`, `the name "Spring sale"`. */
function describeKey(key: Record<string, string | undefined>): string {
  const [field, value] = Object.entries(key).find(([, given]) => given !== undefined) ?? ["key", ""];
  return field === "id" ? `the id ${value}` : `the ${field} ${JSON.stringify(value)}`;
}

/** The error of a lookup that found nothing: `crm.getCampaign: no campaign has the id 12.` */
export function notFound(label: string, what: string, key: Record<string, string | undefined>): ServiceError {
  return new ServiceError(`${label}: no ${what} has ${describeKey(key)}.`, { code: "not_found" });
}

/** The one object found, or an error saying that none, or several, have that key. */
export function exactlyOne<Found extends { id: string }>(label: string, what: string, key: Record<string, string | undefined>, found: Found[]): Found {
  if (found.length === 1) return found[0];
  if (found.length === 0) throw notFound(label, what, key);
  const ids = found.map((item) => item.id).join(", ");
  throw new ServiceError(`${label}: ${found.length} ${what}s have ${describeKey(key)} (ids ${ids}); look the ${what} up by its id instead.`, {
    code: "ambiguous",
  });
}
