// What `pulumi-crm export` reads: every object of the chosen kinds, turned into the
// inputs of its resource by that resource's own normalization (inputsDeclaring), so
// that the exported values are exactly what the resource reads back. What is read of
// each kind, and how its objects are named, filtered and related, its resource module
// declares (`exported`, see ./declaration.ts); the kinds are read in the registry's order.

import { CrmClient } from "../../crm/service/client";
import { objectIn, type ServiceObject, walk } from "../../crm/service/collection";
import { type RegisteredResource, resources } from "../../registry";
import type { ExportDeclaration } from "../../crm/crud/export-declaration";
import { isBuiltIn } from "../../kit/core";

type ExportedResource = Extract<RegisteredResource, { definition: { exported: ExportDeclaration } }>;
/** The resources whose objects `pulumi-crm export` declares, in the order a program declares them. */
export const exportedResources = resources.filter((resource): resource is ExportedResource => resource.definition.exported !== undefined);
/** The kinds, named as their documentation pages (sdk-docs/crm-<kind>.md). */
export type ExportKind = ExportedResource["name"];
export const exportKinds: readonly ExportKind[] = exportedResources.map((resource) => resource.name);
/** The kinds that are the account's setup (see ExportDeclaration.part): what a program for every account carries by default. */
export const setupKinds: readonly ExportKind[] = exportedResources
  .filter((resource) => resource.definition.exported.part === "setup")
  .map((resource) => resource.name);

/** The kinds a --kinds value names: kinds, and the groups setup, data and all. */
export function kindsNamed(value: string): Set<ExportKind> {
  const groups: Record<string, readonly ExportKind[]> = { setup: setupKinds, data: exportKinds.filter((kind) => !setupKinds.includes(kind)), all: exportKinds };
  const given = value.split(",").map((kind) => kind.trim());
  const unknown = given.filter((kind) => !groups[kind] && !(exportKinds as readonly string[]).includes(kind));
  if (unknown.length) throw new Error(`--kinds: ${unknown.join(", ")} is not a kind; give setup, data, all, or kinds: ${exportKinds.join(", ")}`);
  return new Set(given.flatMap((kind) => groups[kind] ?? [kind as ExportKind]));
}

/** An object an input refers to: its kind and id, and its name, unless it is no object of the account. */
export interface Referred {
  kind: ExportKind;
  id: string;
  /** Its name (its id, for a kind without names); undefined when the id names no object of the account (a deleted list an address still names). */
  name?: string;
}

/** One object of the account, as its resource declares it. */
export interface ExportedObject {
  kind: ExportKind;
  /** The service's id: the resource's adoptId. */
  id: string;
  /** What its names are made from, e.g. `Acme Corp` or `Acme Corp note`. */
  title: string;
  /** The inputs that declare it as the service holds it. */
  inputs: Record<string, unknown>;
  /** Inputs that hold the id of an object of another kind: written as a reference when that object is exported too. */
  refersTo: Partial<Record<string, ExportKind>>;
  /** What each set input of refersTo names (a list input: each of its ids): an object of the account, or none. */
  references: Record<string, Referred | Referred[]>;
  /**
   * One of the objects every account comes with (a built-in task type, the admin, the branding, a
   * switch; see BuiltIns): declared in a program for any account without an id, found there by what identifies it.
   */
  builtIn: boolean;
}

export interface ExportOptions {
  kinds: ReadonlySet<ExportKind>;
  /**
   * Keeps the objects whose own name (see ExportDeclaration.name) holds this text,
   * regardless of case: accounts, fields, addresses (company name), calendar feeds
   * (title), messages (subject, else sender) and the branding (site name). Values, notes
   * and contact associations follow their account.
   */
  nameFilter?: string;
  /** Told one line per collection read. */
  progress(line: string): void;
}

/** The kind an input of a declaration refers to, if it is one of its refersTo. */
const kindOf = (declaration: ExportDeclaration, input: string | undefined) => (input === undefined ? undefined : declaration.refersTo?.[input]);

/** Reads the account's objects of the chosen kinds, in declaration order. */
export async function readAccount(options: ExportOptions): Promise<ExportedObject[]> {
  const wanted = (kind: string) => options.kinds.has(kind as ExportKind);
  const named = (name: string) => !options.nameFilter || name.toLowerCase().includes(options.nameFilter.toLowerCase());
  const declarationOf = (kind: string | undefined) => exportedResources.find((resource) => resource.name === kind)?.definition.exported;
  // Read besides the kinds wanted: those a wanted kind refers to (the lists of webhooks, the accounts of notes, the fields of
  // values), so that a reference names its object, through the program's resource or a lookup by its name.
  const needed = new Set(
    exportedResources
      .filter((resource) => wanted(resource.name))
      .flatMap(({ definition: { exported: declaration } }) => Object.values(declaration.refersTo ?? {})),
  );
  // Every object read, by kind and id; and of kinds with a name, the ids of those the name filter keeps.
  const read = new Map<string, Map<string, ServiceObject>>();
  const kept = new Map<string, Set<string>>();
  const referred = (declaration: ExportDeclaration, input: string, id: unknown) => read.get(kindOf(declaration, input) ?? "")?.get(String(id));

  /** The object as its resource declares it, or undefined when the export leaves it out. */
  const declare = async (resource: ExportedResource, client: CrmClient, object: ServiceObject): Promise<ExportedObject | undefined> => {
    const declaration: ExportDeclaration = resource.definition.exported;
    let completed = object;
    if (declaration.completedFrom) {
      const { input, id, members } = declaration.completedFrom;
      const other = referred(declaration, input, id(object) ?? "");
      if (!other) return undefined;
      completed = { ...completed, ...members(other) };
    }
    if (declaration.name && !named(declaration.name(object))) return undefined;
    if (declaration.related) completed = { ...completed, ...(await declaration.related(client, object)) };
    const inputs = resource.definition.inputsDeclaring(completed);
    if (!inputs) return undefined;
    // One that follows another object is declared only with it.
    const { follows } = declaration;
    if (follows !== undefined && !kept.get(kindOf(declaration, follows) ?? "")?.has(String(inputs[follows]))) return undefined;
    // The names of the objects it refers to, for its title.
    const names: Record<string, string> = {};
    for (const input of Object.keys(declaration.refersTo ?? {})) {
      const other = referred(declaration, input, inputs[input]);
      const name = declarationOf(kindOf(declaration, input))?.name;
      if (other && name) names[input] = name(other);
    }
    const refersTo = { ...declaration.refersTo } as ExportedObject["refersTo"];
    const references: ExportedObject["references"] = {};
    for (const [input, kind] of Object.entries(refersTo) as [string, ExportKind][]) {
      const referredTo = (id: unknown): Referred => {
        const other = referred(declaration, input, id);
        const name = declarationOf(kind)?.name;
        return { kind, id: String(id), name: other ? (name ? name(other) : String(id)) : undefined };
      };
      const value = inputs[input];
      if (Array.isArray(value)) references[input] = value.map(referredTo);
      else if (value !== undefined && value !== null) references[input] = referredTo(value);
    }
    const builtIn = declaration.accountWide === true || isBuiltIn(resource.definition.core.builtIns, inputs);
    return { kind: resource.name, id: String(object.id), title: declaration.title(object, inputs, names), inputs, refersTo, references, builtIn };
  };

  const exported: ExportedObject[] = [];
  for (const resource of exportedResources) {
    const { name: kind, definition } = resource;
    if (!wanted(kind) && !needed.has(kind)) continue;
    const { path, collection, name, alongside, single, id } = definition.exported;
    // Every object of the collection, and those the export declares, with a progress line saying how many.
    const client = new CrmClient(`pulumi-crm export (${path})`);
    const listed = single
      ? [{ ...objectIn(await client.call({ method: "GET", path }), collection), id: collection }]
      : await walk<ServiceObject>(client, path, collection, {}, undefined, undefined, alongside);
    const objects = id ? listed.map((object) => ({ ...object, id: id(object) })) : listed;
    read.set(kind, new Map(objects.map((object) => [String(object.id), object])));
    if (name) kept.set(kind, new Set(objects.filter((object) => named(name(object))).map((object) => String(object.id))));
    const before = exported.length;
    for (const object of wanted(kind) ? objects : []) {
      const declared = await declare(resource, client, object);
      if (declared) exported.push(declared);
    }
    options.progress(`${collection}: ${objects.length} read, ${exported.length - before} exported`);
  }
  return exported;
}
