// A plain CRM kind's definition in one call: its definition file names its class, the service's
// noun and the field that names an object, declares its fields (each once, with its wire form)
// and what is odd about it; plainKind makes the declaration (with `adoptId`), the core
// (recovering a lost create by content), the export's reading and the unique name. The doors
// are made of the definition (see ../../definition.ts).

import type { z } from "zod";
import { defineKind } from "../../definition";
import { labelBy } from "../../kit/check-diff";
import { log } from "../../kit/log";
import type { BuiltIns, UniqueName } from "../../kit/core";
import { declareResource, type InputField, type OutputField, takeOverById } from "../../kit/declaration";
import { configurationFields, strictObject } from "../../kit/inputs";
import { wireForms, type WireForms } from "../../kit/wire";
import type { ExportDeclaration } from "./export-declaration";
import type { ServiceObject } from "../service/collection";
import { isoCreated } from "../service/recovery";
import { crmCore, type CrmKindSpec } from "./index";

export interface PlainKindSpec<Inputs extends Record<string, InputField>> {
  /** The class's name in `crm`, e.g. `SavedResponse`. */
  name: string;
  /** What the resource is: its class's doc comment, its schema's and its page's description. */
  description: string;
  /** The service's root key of one object, e.g. `savedResponse`: its collection is the plural, at `/savedResponses`. */
  noun: string;
  /** Where its collection is when not at `/<noun>s` (a custom object schema's, `/customObjects/schemas`); the list's root key stays `<noun>s`. */
  path?: string;
  /** The check of an id given as adoptId when the service's ids are not digits (a schema's UUID). */
  adoptIdCheck?: z.ZodTypeAny;
  /** The input naming an object: in messages, the export's names and titles. */
  namedBy: keyof Inputs & string;
  inputs: Inputs;
  outputs?: Record<string, OutputField>;
  /**
   * The answer's member holding when the object was made (by default `cdate`, an ISO timestamp), and how far off it
   * may be (a timestamp in the account's unknown time zone): what recovers a lost create.
   */
  created?: { member: string; uncertaintyMs?: number };
  /** What is particular to the kind (see CrmObjectKind), given its fields' wire forms. */
  kind?(forms: WireForms): Partial<CrmKindSpec<z.AnyZodObject>>;
  /** The export's reading where it is not the kind's collection and `namedBy` (see ExportDeclaration). */
  exported?: Partial<ExportDeclaration>;
  uniqueName?: UniqueName;
  /** The objects every account comes with, if any (see BuiltIns). */
  builtIns?: BuiltIns;
  /** A replacement deletes the old object first: the service refuses a second object of its unique name. */
  deleteBeforeReplace?: boolean;
  /**
   * The service has no delete of the kind (the reference's /listGroups): a destroy, and a replacement's delete of the
   * old object, leave the object in the service, with a warning saying so and how to remove it (the service's UI).
   */
  undeletable?: boolean;
}

/** `SavedResponse` as messages and docs say it: `saved response`. */
const wordsOf = (name: string) => name.replace(/(?<=[a-z])(?=[A-Z])/g, " ").toLowerCase();

const andList = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names.join(""));

/** A plain kind's definition: its declaration, its core, and what the export reads of its objects. */
export function plainKind<Inputs extends Record<string, InputField>>(spec: PlainKindSpec<Inputs>) {
  const { what, declaration, core, path, collection } = plainKindCore(spec);
  const name = (object: ServiceObject) => String(object[spec.namedBy]);
  const exported: ExportDeclaration = {
    section: `${what[0].toUpperCase()}${what.slice(1)}s`,
    path,
    collection,
    name,
    title: (object) => `${name(object)} ${what}`,
    // Every plain kind is the account's setup.
    part: "setup",
    refersTo: declaration.refersTo,
    ...spec.exported,
  };
  return defineKind(spec.description, declaration, core, { inputsDeclaring: core.inputsDeclaring, exported });
}

/** A plain kind the service lists no objects of (a field's place in a group): nothing an export can read. */
export function unlistedKind<Inputs extends Record<string, InputField>>(spec: Omit<PlainKindSpec<Inputs>, "exported">) {
  const { declaration, core } = plainKindCore(spec);
  return defineKind(spec.description, declaration, core);
}

function plainKindCore<Inputs extends Record<string, InputField>>(spec: PlainKindSpec<Inputs>) {
  const what = wordsOf(spec.name);
  // What a take-over sets: the inputs compared, not those only read by check.
  const fields = configurationFields(strictObject(Object.fromEntries(Object.entries(spec.inputs).map(([name, field]) => [name, field.check])))).map(
    (field) => `\`${field}\``,
  );
  const declaration = declareResource({
    namespace: "crm",
    name: spec.name,
    inputs: { ...spec.inputs, adoptId: takeOverById(what, `its ${andList(fields)} are set to the declared ones where they differ`, spec.adoptIdCheck) },
    outputs: spec.outputs,
  });
  const forms = wireForms(declaration.fields);
  const path = spec.path ?? `/${spec.noun}s`;
  const collection = `${spec.noun}s`;
  const particular = spec.kind?.(forms);
  // A field the service assigns when unset (a stage's order) is not what tells a lost create's object.
  const unassigned = (inputs: Record<string, unknown>) => (particular?.serviceAssigned ?? []).filter((field) => inputs[field] === undefined);
  const sent = (inputs: Record<string, unknown>) => {
    const desired = forms.desiredState(inputs);
    for (const field of unassigned(inputs)) delete desired[field];
    return desired;
  };
  const kind: CrmKindSpec<z.AnyZodObject> = {
    label: labelBy(declaration.type, spec.namedBy),
    path,
    member: spec.noun,
    collection,
    sameContent: (inputs) => ({
      path,
      collection,
      sent: sent(inputs),
      stateOf: forms.stateOf,
      createdMs: isoCreated(spec.created?.member ?? "cdate"),
      uncertaintyMs: spec.created?.uncertaintyMs,
    }),
    builtIns: spec.builtIns,
    ...particular,
  };
  const made = crmCore(declaration, kind, spec.uniqueName);
  const replacedFirst = async (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => {
    const changes = await made.diff(id, olds, news);
    return changes.fields.some((change) => change.replace) ? { ...changes, deleteBeforeReplace: true } : changes;
  };
  // Nothing pretends to delete what the service cannot: the object stays, and the user is told so.
  const leftInPlace = async (id: string, props: Record<string, unknown>) =>
    log.warn(
      `${kind.label(props)} (id ${id}): left in place in the service, which has no delete of a ${what}; it no longer belongs to the stack, and you can delete it in the service's UI`,
    );
  const core: typeof made = {
    ...made,
    ...(spec.deleteBeforeReplace ? { diff: replacedFirst } : {}),
    ...(spec.undeletable ? { delete: leftInPlace } : {}),
  };
  return { what, declaration, core, path, collection };
}
