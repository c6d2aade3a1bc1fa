// A name-keyed collection of the CRM service: objects that are nothing but a name (site
// tracking's allowed domains, event tracking's event names), listed at /<member>s as
// `{<member>s: [{name}], meta: {total}}`, made by a POST of `{<member>: {name}}` and deleted
// at /<member>s/{name}. The service reads and changes none of them alone and gives them no
// id, so the name is the resource's id: a read finds it in the list, page by page (the reads
// of a refresh share the pages); another name is another object (a replacement); and a name
// the account holds already is taken over only by `adoptId`, never by a create. A kind's
// module is its words and its name's rules; the rest is here.

import { z } from "zod";
import { defineKind } from "../../definition";
import { checkInputs, declaredKind, diffInputs, labelBy, type ResourceKind } from "../../kit/check-diff";
import type { Created, Found, ResourceCore } from "../../kit/core";
import { declareResource, input, type InputField } from "../../kit/declaration";
import { withoutProvider } from "../../kit/inputs";
import { announceAdoption, notAdoptable, unrecordedObjectAdvice } from "../../kit/adoption";
import { confirmWrite } from "../../kit/write-errors";
import { PulumiCrmError, ServiceError } from "../../transport/errors";
import type { ExportDeclaration } from "./export-declaration";
import { CrmClient } from "../service/client";
import { coalescing } from "../service/coalesce";
import { deleteObject, objectIn, type ServiceObject, walk } from "../service/collection";

export interface NameKeyedSpec {
  /** The class's name: `SiteTrackingDomain`. */
  name: string;
  /** The root key of one object: `siteTrackingDomain`; its collection is the plural, at `/siteTrackingDomains`. */
  member: string;
  /** One object in words: `allowed domain`. */
  what: string;
  /** The name's input: its check (the service's rules, said before any request) and description. */
  named: InputField;
  /** What the resource is: its class's doc comment, its schema's and its page's description. */
  description: string;
  /** Names the service holds of its own (built-in events): the export leaves them out. */
  builtIn?(name: string): boolean;
}

export function nameKeyed(spec: NameKeyedSpec) {
  const { member, what } = spec;
  const collection = `${member}s`;
  const path = `/${collection}`;
  const declaration = declareResource({
    namespace: "crm",
    name: spec.name,
    inputs: {
      name: { ...spec.named, replaceOnChanges: true },
      adoptId: input(
        z.string({ invalid_type_error: "must be a string: the name itself" }).optional(),
        `The name again, as \`pulumi-crm export\` writes it: takes over the ${what} of that name that the account holds already, instead of refusing to create it; nothing is written.`,
      ),
    },
  });
  const type = declaration.type;
  const kind: ResourceKind<typeof declaration.inputSchema> = {
    ...declaredKind(declaration),
    label: labelBy(type, "name"),
    refine(inputs, refuse) {
      if (inputs.adoptId !== undefined && inputs.adoptId !== inputs.name)
        refuse("adoptId", `must be the name itself ("${inputs.name}"): a ${what}'s id is its name`);
      return inputs;
    },
  };
  const parse = (props: Record<string, unknown>) => declaration.inputSchema.parse(withoutProvider(props));
  const clientFor = (name: string) => new CrmClient(kind.label({ name }));
  const stateOf = (name: string) => ({ name });

  // The reads arriving together (a refresh's) share one walk of the list, which stops at the page holding the last name asked.
  const isListed = coalescing<{ client: CrmClient; name: string }, boolean>(async (group) => {
    const wanted = new Set(group.map((waiting) => waiting.request.name));
    const found = new Set<string>();
    await walk<ServiceObject>(group[0].request.client, path, collection, {}, (object) => {
      if (wanted.has(String(object.name))) found.add(String(object.name));
      return found.size === wanted.size;
    });
    for (const waiting of group) waiting.resolve(found.has(waiting.request.name));
  });
  const listed = (client: CrmClient, name: string) => isListed(`${client.accountKey} ${path}`, { client, name });

  async function create(props: Record<string, unknown>): Promise<Created> {
    const { name, adoptId } = parse(props);
    const client = clientFor(name);
    const exists = await listed(client, name);
    if (adoptId !== undefined) {
      if (!exists) throw notAdoptable(client.resource, type, adoptId);
      announceAdoption(client.resource, name);
      return { id: name, outs: stateOf(name) };
    }
    if (exists) {
      throw new ServiceError(
        `${client.resource}: the account holds this ${what} already; declare another name, or, only if no stack manages it, take it over with adoptId: "${name}"; ${unrecordedObjectAdvice(name, `${client.rootUrl}${path}/${encodeURIComponent(name)}`)}.`,
        { code: "duplicate", field: "name" },
      );
    }
    const response = await client.call(
      { method: "POST", path, body: { [member]: { name } } },
      // An answer lost on the way: the list tells whether the name was made (it was not there before).
      { recover: async () => ((await listed(client, name)) ? { status: 200, body: { [member]: { name } } } : undefined) },
    );
    confirmWrite(client.resource, name, { name }, { name: objectIn(response, member).name });
    return { id: name, outs: stateOf(name) };
  }

  /** Gone (undefined) when the list no longer holds the name; an import declares what the export would. */
  async function read(id: string): Promise<Found | undefined> {
    if (!(await listed(clientFor(id), id))) return undefined;
    return { id, outputs: stateOf(id), inputs: stateOf(id) };
  }

  const core: ResourceCore = {
    declaration,
    importable: true,
    uniqueName: { field: "name", what },
    check: async (_olds, news) => checkInputs(kind, news),
    diff: async (_id, olds, news) => diffInputs(kind, olds, news),
    create,
    read,
    // The name is all there is, and a new one replaces the object: the engine never asks for an update.
    update: async (id) => {
      throw new PulumiCrmError(`${clientFor(id).resource}: a ${what} has nothing to update in place; a new name replaces it`);
    },
    // Already deleted is what delete wants.
    delete: (id) => deleteObject(clientFor(id), `${path}/${encodeURIComponent(id)}`),
  };

  /** The inputs declaring a listed object, as read gives them back; none for the service's own. */
  const inputsDeclaring = (object: ServiceObject): Record<string, unknown> | undefined =>
    spec.builtIn?.(String(object.name)) ? undefined : stateOf(String(object.name));

  /** What `pulumi-crm export` reads (see ./export-declaration.ts): the list, each object's id its name. */
  const exported: ExportDeclaration = {
    section: `${what[0].toUpperCase()}${what.slice(1)}s, each taken over by its name`,
    path,
    collection,
    part: "setup",
    id: (object) => String(object.name),
    name: (object) => String(object.name),
    title: (object) => `${String(object.name)} ${what}`,
  };

  return defineKind(spec.description, declaration, core, { inputsDeclaring, exported });
}
