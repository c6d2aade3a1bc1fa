// How many places of its resource file write each declared field: the lines whose code names it
// (a property, a member read, a destructured name, a string naming it), its declaration entry
// among them; comments and descriptions are not code and not counted. A use in the resource's
// own logic (a path built from an id, a lookup by name) counts too, so the figure is what a
// reader finds, not only what restates the field. The goal (CONTRIBUTING.md): a plain field
// written once, a field with a wire quirk at most twice.
// `npx ts-node scripts/generate/field-places.ts` prints the table; `npm run generate` writes it into
// CONTRIBUTING.md between its markers.

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { resources, typeOf } from "../../provider/registry";

const repoRoot = resolve(__dirname, "..", "..");

export interface FieldPlaces {
  resource: string;
  field: string;
  places: number;
}

/** For each name of `names`, the lines of one TypeScript file whose code names it. */
function mentions(path: string, names: ReadonlySet<string>): Map<string, number> {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.ES2022, true);
  const lines = new Map<string, Set<number>>();
  const count = (name: string, node: ts.Node) => {
    if (!names.has(name)) return;
    if (!lines.has(name)) lines.set(name, new Set());
    lines.get(name)!.add(source.getLineAndCharacterOfPosition(node.getStart(source)).line);
  };
  (function visit(node: ts.Node): void {
    if (ts.isIdentifier(node) || ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) count(node.text, node);
    node.forEachChild(visit);
  })(source);
  return new Map([...lines].map(([name, found]) => [name, found.size]));
}

/** The places of every declared field of every registered resource, in the registry's order. */
export function fieldPlaces(): FieldPlaces[] {
  return resources.flatMap((resource) => {
    const { fields } = resource.module.declaration;
    const counted = mentions(join(repoRoot, "provider", resource.namespace, `${resource.name}.ts`), new Set(fields.map((field) => field.name)));
    return fields.map((field) => ({ resource: typeOf(resource), field: field.name, places: counted.get(field.name) ?? 0 }));
  });
}

/** The table CONTRIBUTING.md shows: per resource, its fields by places, and the most. */
export function fieldPlacesTable(places = fieldPlaces()): string {
  const byResource = new Map<string, FieldPlaces[]>();
  for (const entry of places) byResource.set(entry.resource, [...(byResource.get(entry.resource) ?? []), entry]);
  const rows = [...byResource].map(([resource, entries]) => {
    const written = (test: (places: number) => boolean) => entries.filter((entry) => test(entry.places)).map((entry) => `${entry.field} ${entry.places}`);
    const more = written((n) => n > 2);
    return `| ${resource} | ${entries.length} | ${written((n) => n === 1).length} | ${written((n) => n === 2).join(", ") || "-"} | ${more.join(", ") || "-"} |`;
  });
  const once = places.filter((entry) => entry.places === 1).length;
  const twice = places.filter((entry) => entry.places === 2).length;
  return [
    "| Resource | Fields | Written once | Twice | More (places) |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    `${places.length} fields: ${once} written once, ${twice} twice, ${places.length - once - twice} in more places.`,
  ].join("\n");
}

if (require.main === module) console.log(fieldPlacesTable());
