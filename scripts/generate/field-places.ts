// How many places of its resource file write each declared field: the lines whose code names it
// (a property, a member read, a destructured name, a string naming it), its declaration entry
// among them; comments and descriptions are not code and not counted. Each line is either a
// restatement of the field or a use of it in the resource's own logic:
// - a restatement writes the field again: its declaration entry, an object's member named
//   after it or built from a read of it (a state, a request body), a type's member, a list of
//   field names;
// - a use in logic reads it to decide or make something else: a label, a path built from an id,
//   a lookup by name, a natural key, the export's titles, a rule across fields.
// A line that does both is a restatement. The goal (CONTRIBUTING.md): a plain field written
// once, a field with a wire quirk at most twice; beyond that, only uses in logic.
// `npx ts-node scripts/generate/field-places.ts` prints the table; `npm run generate` writes it into
// CONTRIBUTING.md between its markers.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";
import { type RegisteredResource, resources, typeOf } from "../../provider/registry";

const repoRoot = resolve(__dirname, "..", "..");

export interface FieldPlaces {
  resource: string;
  field: string;
  /** The lines naming the field. */
  places: number;
  /** Of those, the lines that only read it in the resource's logic. */
  inLogic: number;
}

/** The most places a field may be restated in (its declaration and one wire quirk). */
export const mostRestatements = 2;

/** The declareResource call's argument, whose own members (namespace, name, inputs, outputs) are not fields. */
function isDeclarationSpec(node: ts.Node): boolean {
  return ts.isObjectLiteralExpression(node) && ts.isCallExpression(node.parent) && node.parent.expression.getText() === "declareResource";
}

/** Whether `node` is an entry of the declaration's `inputs` or `outputs`. */
function isDeclarationEntry(node: ts.Node): node is ts.PropertyAssignment {
  if (!ts.isPropertyAssignment(node)) return false;
  const section = node.parent.parent;
  return ts.isPropertyAssignment(section) && ["inputs", "outputs"].includes(section.name.getText()) && isDeclarationSpec(section.parent);
}

/** The declaration entry of the field `name` that `node` is part of (its key, its check, its wire form), if any. */
function ownEntryOf(node: ts.Node, name: string): ts.PropertyAssignment | undefined {
  for (let at: ts.Node | undefined = node; at; at = at.parent) if (isDeclarationEntry(at)) return at.name.getText() === name ? at : undefined;
  return undefined;
}

/** The object, type or list whose member or entry `node` names, or whose member's value reads it (not through a function). */
function layoutOf(node: ts.Node): ts.ObjectLiteralExpression | ts.TypeLiteralNode | ts.InterfaceDeclaration | ts.ArrayLiteralExpression | undefined {
  const parent = node.parent;
  if ((ts.isPropertyAssignment(parent) || ts.isShorthandPropertyAssignment(parent) || ts.isPropertySignature(parent)) && parent.name === node) {
    if (ts.isPropertyAssignment(parent) && ts.isFunctionLike(parent.initializer)) return undefined;
    return parent.parent as ts.ObjectLiteralExpression | ts.TypeLiteralNode | ts.InterfaceDeclaration;
  }
  if (ts.isStringLiteral(node)) return ts.isArrayLiteralExpression(parent) && !ts.isCallExpression(parent.parent) ? parent : undefined;
  if (!(ts.isPropertyAccessExpression(parent) && parent.name === node)) return undefined;
  for (let at: ts.Node = node; at.parent; at = at.parent) {
    if (ts.isFunctionLike(at) || ts.isStatement(at)) return undefined;
    if (ts.isPropertyAssignment(at.parent) && at.parent.initializer === at) return at.parent.parent as ts.ObjectLiteralExpression;
  }
  return undefined;
}

/** The fields an object, type or list names: its members' names and entries, and the member reads its members' values are made of. */
function fieldsNamedBy(layout: ts.Node, names: ReadonlySet<string>): Set<string> {
  const named = new Set<string>();
  (function visit(node: ts.Node): void {
    if ((ts.isIdentifier(node) || ts.isStringLiteral(node)) && names.has(node.text) && layoutOf(node) === layout) named.add(node.text);
    if (node === layout || !ts.isFunctionLike(node)) node.forEachChild(visit);
  })(layout);
  return named;
}

/**
 * Whether a mention of a field restates it: it lays the resource's fields out (a state, a
 * request body, a type, a list of names) in an object, type or list naming two or more of them.
 * One naming a single field uses it (a query, a label's input, one field's value normalized).
 */
function restates(node: ts.Node, names: ReadonlySet<string>): boolean {
  const layout = layoutOf(node);
  return layout !== undefined && fieldsNamedBy(layout, names).size >= 2;
}

/** Where a file names a field: the lines of its code naming it, and those of them that restate it. */
export interface Mentions {
  lines: Set<number>;
  restating: Set<number>;
}

/**
 * For each name of `names`, where the TypeScript `text` names it. Its declaration entry is one
 * place, on the entry's first line, whatever the entry holds (its wire form's answer names).
 */
export function mentionsIn(text: string, names: ReadonlySet<string>): Map<string, Mentions> {
  const source = ts.createSourceFile("resource.ts", text, ts.ScriptTarget.ES2022, true);
  const found = new Map<string, Mentions>();
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line;
  const count = (name: string, node: ts.Node) => {
    if (!names.has(name) || (node.parent && ts.isPropertyAssignment(node.parent) && isDeclarationSpec(node.parent.parent))) return;
    if (!found.has(name)) found.set(name, { lines: new Set(), restating: new Set() });
    const entry = ownEntryOf(node, name);
    const line = lineOf(entry ?? node);
    const mentions = found.get(name)!;
    mentions.lines.add(line);
    if (entry || restates(node, names)) mentions.restating.add(line);
  };
  (function visit(node: ts.Node): void {
    if (ts.isIdentifier(node) || ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) count(node.text, node);
    node.forEachChild(visit);
  })(source);
  return found;
}

/** Where a resource's definition is: provider/<namespace>/<area>/<name>.ts, the one file of that name in an area's folder. */
export function definitionFileOf(resource: RegisteredResource): string {
  const namespaceDir = join(repoRoot, "provider", resource.namespace);
  const found = readdirSync(namespaceDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(namespaceDir, entry.name, `${resource.name}.ts`)))
    .map((entry) => `provider/${resource.namespace}/${entry.name}/${resource.name}.ts`);
  if (found.length !== 1)
    throw new Error(`${typeOf(resource)}: ${found.length} definition files named ${resource.name}.ts (${found.join(", ")}); one area's folder holds it`);
  return found[0];
}

/**
 * The code that writes a resource's fields: its definition's file, or, where the file only names
 * the shared machinery that makes it (crm.AccountCustomField and crm.DealCustomField, of
 * ../crud/custom-field-definition.ts), the module of that machinery holding the declaration.
 */
function declaringCode(resource: (typeof resources)[number]): string {
  const own = join(repoRoot, definitionFileOf(resource));
  const code = readFileSync(own, "utf8");
  const declares = (text: string) => /\b(declareResource|plainKind)\(/.test(text);
  if (declares(code)) return code;
  const imported = [...code.matchAll(/from "(\.\.?\/[\w/-]+)"/g)].map((match) => readFileSync(join(dirname(own), `${match[1]}.ts`), "utf8"));
  return imported.find(declares) ?? code;
}

/** The places of every declared field of every registered resource, in the registry's order. */
export function fieldPlaces(): FieldPlaces[] {
  return resources.flatMap((resource) => {
    const { fields } = resource.definition.declaration;
    const counted = mentionsIn(declaringCode(resource), new Set(fields.map((field) => field.name)));
    return fields.map((field) => {
      const { lines, restating } = counted.get(field.name) ?? { lines: new Set(), restating: new Set() };
      return { resource: typeOf(resource), field: field.name, places: lines.size, inLogic: lines.size - restating.size };
    });
  });
}

/** The lines restating a field. */
export const restatements = (entry: FieldPlaces) => entry.places - entry.inLogic;

/** The table CONTRIBUTING.md shows: per resource, its fields by places, and the most with how many are uses in logic. */
export function fieldPlacesTable(places = fieldPlaces()): string {
  const byResource = new Map<string, FieldPlaces[]>();
  for (const entry of places) byResource.set(entry.resource, [...(byResource.get(entry.resource) ?? []), entry]);
  const rows = [...byResource].map(([resource, entries]) => {
    const written = (test: (places: number) => boolean) => entries.filter((entry) => test(entry.places));
    const named = (entry: FieldPlaces) => `${entry.field} ${entry.places}`;
    const more = written((n) => n > 2).map(
      (entry) => `${named(entry)} (${entry.inLogic} in logic${restatements(entry) > mostRestatements ? `, **restated ${restatements(entry)}**` : ""})`,
    );
    return `| ${resource} | ${entries.length} | ${written((n) => n === 1).length} | ${
      written((n) => n === 2)
        .map(named)
        .join(", ") || "-"
    } | ${more.join(", ") || "-"} |`;
  });
  const once = places.filter((entry) => entry.places === 1).length;
  const twice = places.filter((entry) => entry.places === 2).length;
  const restated = places.filter((entry) => restatements(entry) > mostRestatements).length;
  return [
    "| Resource | Fields | Written once | Twice | More: places (of them uses in logic) |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    `${places.length} fields: ${once} written once, ${twice} twice, ${places.length - once - twice} in more places; ${restated} restated in more than ${mostRestatements}.`,
  ].join("\n");
}

if (require.main === module) console.log(fieldPlacesTable());
