// `npm run generate`: writes what is generated from the resources' declarations
// (provider/kit/declaration.ts) and the registry: the Args and output types of each
// namespace (provider/<namespace>/generated-types.ts), the input and output tables of each
// sdk-docs page (between markers), the Pulumi package schemas (schema/<package>.json), and
// from those the SDKs (sdk/, scripts/generate/sdks.ts).
// test/declarations.test.ts fails when a generated file differs from what this writes.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { definitionFileOf, fieldPlacesTable } from "./field-places";
import { join } from "node:path";
import type { Field } from "../../provider/kit/declaration";
import type { ValueType } from "../../provider/kit/value-types";
import { type RegisteredResource, resources, typeOf } from "../../provider/registry";
import { alwaysOutput, changeOf, defaultText, inputDescription, limitsOf, outputDescription } from "./declaration-text";
import { packageSchemas } from "./package-schema";
import { writeSdks } from "./sdks";

export const repoRoot = join(__dirname, "..", "..");

// ---- TypeScript types ----------------------------------------------------------------

function tsType(type: ValueType, side: "input" | "output"): string {
  switch (type.kind) {
    case "string":
    case "id":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "any":
      return "unknown";
    case "enum":
      return type.values.map((value) => JSON.stringify(value)).join(" | ");
    case "list": {
      const items = tsType(type.items, side);
      return side === "input" ? `pulumi.Input<${items}>[]` : /[ |]/.test(items) ? `(${items})[]` : `${items}[]`;
    }
    case "map":
      return `Record<string, ${side === "input" ? `pulumi.Input<${tsType(type.values, side)}>` : tsType(type.values, side)}>`;
    case "union":
      return type.members.map((member) => tsType(member, side)).join(" | ");
    case "object":
      return type.name;
  }
}

const jsDoc = (text: string, indent = "  ") => {
  const words = text.split(" ");
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.length - 1;
    if (last >= 0 && `${lines[last]} ${word}`.length <= 100) lines[last] = `${lines[last]} ${word}`;
    else lines.push(word);
  }
  return lines.length === 1 ? `${indent}/** ${lines[0]} */` : [`${indent}/**`, ...lines.map((line) => `${indent} * ${line}`), `${indent} */`].join("\n");
};

/** The object types a type names, each once, members' objects first. */
function objectsIn(type: ValueType, found: Map<string, Extract<ValueType, { kind: "object" }>>): void {
  if (type.kind === "object") {
    for (const member of Object.values(type.fields)) objectsIn(member.type, found);
    found.set(type.name, type);
  } else if (type.kind === "list") objectsIn(type.items, found);
  else if (type.kind === "map") objectsIn(type.values, found);
  else if (type.kind === "union") for (const member of type.members) objectsIn(member, found);
}

function objectInterface(type: Extract<ValueType, { kind: "object" }>, side: "input" | "output"): string {
  const members = Object.entries(type.fields).map(([name, member]) => {
    const valueType = tsType(member.type, side);
    return `${jsDoc(outputDescription(member))}\n  ${name}${member.required ? "" : "?"}: ${side === "input" ? `pulumi.Input<${valueType}>` : valueType};`;
  });
  return `${jsDoc(type.description, "")}\nexport interface ${type.name} {\n${members.join("\n")}\n}`;
}

function resourceTypes(resource: RegisteredResource): string[] {
  const { declaration } = resource.definition;
  const inputs = declaration.fields.filter((field) => field.role !== "output");
  const outputs = declaration.fields.filter((field) => field.role !== "input");
  // An optional input also takes an Output that may hold nothing (another resource's optional output).
  const args = inputs.map(
    (field) =>
      `${jsDoc(inputDescription(field))}\n  ${field.name}${field.required ? "" : "?"}: pulumi.Input<${tsType(field.type, "input")}${field.required ? "" : " | undefined"}>;`,
  );
  const outs = outputs.map((field) => {
    const unset = field.nullable ? " | null" : alwaysOutput(field) ? "" : " | undefined";
    return `${jsDoc(outputDescription(field))}\n  readonly ${field.name}: pulumi.Output<${tsType(field.type, "output")}${unset}>;`;
  });
  return [
    `/** The inputs of a ${declaration.type}. */\nexport interface ${resource.className}Args {\n${args.join("\n")}\n}`,
    `/** The outputs of a ${declaration.type}, besides its \`id\` and \`urn\`. */\nexport interface ${resource.className}Outputs {\n${outs.join("\n")}\n}`,
  ];
}

export function typesFile(namespace: string): string {
  const declared = resources.filter((resource) => resource.namespace === namespace);
  const inputObjects = new Map<string, Extract<ValueType, { kind: "object" }>>();
  const outputObjects = new Map<string, Extract<ValueType, { kind: "object" }>>();
  for (const { definition } of declared) {
    for (const field of definition.declaration.fields) objectsIn(field.type, field.role === "output" ? outputObjects : inputObjects);
  }
  for (const name of inputObjects.keys()) outputObjects.delete(name);
  return [
    "// Generated by `npm run generate` from the resources' declarations (see provider/kit/declaration.ts): do not edit.",
    "",
    'import type * as pulumi from "@pulumi/pulumi";',
    "",
    [
      ...[...inputObjects.values()].map((type) => objectInterface(type, "input")),
      ...[...outputObjects.values()].map((type) => objectInterface(type, "output")),
      ...declared.flatMap(resourceTypes),
    ].join("\n\n"),
    "",
  ].join("\n");
}

// ---- docs tables ----------------------------------------------------------------------

function docType(type: ValueType): string {
  switch (type.kind) {
    case "id":
      return "id (digits)";
    case "integer":
      return "whole number";
    case "enum":
      return type.values
        .map((value) => `\`${value}\``)
        .join(", ")
        .replace(/, ([^,]*)$/, " or $1");
    case "list":
      return `list of ${plural(type.items)}`;
    case "map":
      return `map of ${plural(type.values)}`;
    case "union":
      return type.members.map(docType).join(" or ");
    case "object":
      return `\`${type.name}\``;
    default:
      return type.kind;
  }
}

/** What a list holds: `strings`, `ids (digits)`, a union's members each, an object type by its name. */
function plural(type: ValueType): string {
  if (type.kind === "union") return type.members.map(plural).join(" or ");
  if (type.kind === "id") return "ids (digits)";
  if (type.kind === "any") return "any values";
  return ["string", "integer", "number", "boolean"].includes(type.kind) ? `${docType(type)}s` : docType(type);
}

/** `a, b and c`. */
const andList = (items: readonly string[]) => items.join(", ").replace(/, ([^,]*)$/, " and $1");

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

function inputRow(field: Field): string {
  const presence = field.required ? "required" : field.default !== undefined ? `default ${defaultText(field.default)}` : "optional";
  const description = [field.description, ...limitsOf(field.type)].join(" ");
  return `| \`${field.name}\` | ${cell(`${docType(field.type)}, ${presence}`)} | ${changeOf(field)} | ${cell(description)} |`;
}

function outputRow(field: Field): string {
  const notes = [field.secret ? "secret" : "", field.nullable ? "null when unset" : alwaysOutput(field) ? "" : "absent when unset"].filter(Boolean);
  return `| \`${field.name}\` | ${cell([docType(field.type), ...notes].join(", "))} | ${cell(outputDescription(field))} |`;
}

function objectTable(type: Extract<ValueType, { kind: "object" }>): string {
  const rows = Object.entries(type.fields).map(
    ([name, member]) =>
      `| \`${name}\` | ${cell(`${docType(member.type)}, ${member.required ? "required" : "optional"}`)} | ${cell(outputDescription(member))} |`,
  );
  return [`\`${type.name}\`: ${type.description}`, "", `| Member | Type | Description |`, "|---|---|---|", ...rows].join("\n");
}

export const tablesStart = (resource: RegisteredResource) =>
  `<!-- ${resource.definition.declaration.type}: inputs and outputs, generated by \`npm run generate\` from its declaration -->`;
export const tablesEnd = "<!-- end of generated tables -->";

export function docsTables(resource: RegisteredResource): string {
  const { fields } = resource.definition.declaration;
  const objects = new Map<string, Extract<ValueType, { kind: "object" }>>();
  for (const field of fields) objectsIn(field.type, objects);
  const outputsOnly = fields.filter((field) => field.role === "output");
  const onlyRead = fields.filter((field) => field.readAt).map((field) => `\`${field.name}\``);
  const inputsAsOutputs = `Outputs: the inputs${onlyRead.length ? ` but ${andList(onlyRead)}` : ""}`;
  return [
    tablesStart(resource),
    "",
    `Type in the package schema (the [native plugin](native-plugins.md), the generated SDKs, Pulumi YAML): \`${resource.definition.declaration.token}\`.`,
    "",
    "| Input | Type | Changes | Description |",
    "|---|---|---|---|",
    ...fields.filter((field) => field.role !== "output").map(inputRow),
    "",
    outputsOnly.length ? `${inputsAsOutputs}, and:` : `${inputsAsOutputs}.`,
    ...(outputsOnly.length ? ["", "| Output | Type | Description |", "|---|---|---|", ...outputsOnly.map(outputRow)] : []),
    ...[...objects.values()].flatMap((type) => ["", objectTable(type)]),
    ...(fields.some((field) => field.readAt === "creation")
      ? ["", "Taking over an object that exists (`adoptId`, `adoptExisting`): see [taking over an account](taking-over-an-account.md)."]
      : []),
    ...accountFacts(resource),
    "",
    tablesEnd,
  ].join("\n");
}

/** What the kind is to an account: its setup or its data, and the objects every account comes with. */
function accountFacts(resource: RegisteredResource): string[] {
  const { exported } = resource.definition;
  if (!exported) return [];
  const part =
    exported.part === "setup"
      ? "Part of the account's setup: `pulumi-crm export` carries it into any account by default ([one setup, every account](one-setup-every-account.md))."
      : "Part of the account's data: `pulumi-crm export` writes it only with `--kinds data` (or `all`, or its kind) ([one setup, every account](one-setup-every-account.md)).";
  const { builtIns } = resource.definition.core;
  const names = andList(builtIns?.names.map((name) => `\`${name}\``) ?? []);
  const builtIn = builtIns
    ? [
        `Built-ins: ${builtIns.what}, known by \`${builtIns.field}\` (${names}, regardless of case). A resource declaring one takes the account's own over (said in the output) instead of making a second, ` +
          "and a destroy leaves it in place; only in an account that lacks it is it made.",
      ]
    : exported.accountWide
      ? ["Every account has one: a create takes it over, and a destroy puts back what it found."]
      : [];
  return ["", part, ...builtIn.flatMap((line) => ["", line])];
}

export const pageOf = (resource: RegisteredResource) => join("sdk-docs", `${resource.namespace}-${resource.name}.md`);

/** The page with its tables generated again; a page without markers gets them where its input table was. */
export function pageWithTables(resource: RegisteredResource, page: string): string {
  const tables = docsTables(resource);
  const start = page.indexOf(tablesStart(resource));
  if (start >= 0) return page.slice(0, start) + tables + page.slice(page.indexOf(tablesEnd, start) + tablesEnd.length);
  const lines = page.split("\n");
  const header = lines.findIndex((line) => line.startsWith("| Input |"));
  if (header < 0) throw new Error(`${pageOf(resource)}: no input table, and no markers for the generated tables`);
  let end = header;
  while (end < lines.length && lines[end].startsWith("|")) end++;
  return [...lines.slice(0, header), tables, ...lines.slice(end)].join("\n");
}

/**
 * `page` with the lines `lines(indent)` gives between its markers `start` and `end`, the start
 * marker's indent kept for them and for the end marker; `what` names the page in the error.
 */
function betweenMarkers(page: string, what: string, start: string, end: string, lines: (indent: string) => string[]): string {
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from === -1 || to < from) throw new Error(`${what} lacks the markers ${start} ... ${end}`);
  const indent = page.slice(page.lastIndexOf("\n", from) + 1, from);
  return `${page.slice(0, from + start.length)}\n${lines(indent).join("\n")}\n${indent}${page.slice(to)}`;
}

const importableStart = "<!-- importable resources: written by `npm run generate` from the registry -->";
const importableEnd = "<!-- end of importable resources -->";

/**
 * A page with the registry's importable resources between its markers (the indent the start
 * marker has): `crm:index:Account`, then each one's class, and the actions `pulumi import` refuses.
 */
export function withImportableResources(page: string): string {
  const token = (resource: RegisteredResource) => `\`${resource.definition.declaration.token}\``;
  const importable = resources.filter((resource) => resource.definition.core.importable === true);
  const refused = resources.filter((resource) => resource.definition.core.importable !== true);
  const names = importable.map((resource, index) =>
    index === 0 || resource.namespace !== importable[0].namespace ? token(resource) : `\`${resource.className}\``,
  );
  const words = `${andList(names)}; not the actions ${andList(refused.map(token))}.`.split(" ");
  const lines = [""];
  for (const word of words)
    lines[lines.length - 1].length + word.length < 96 ? (lines[lines.length - 1] += `${lines[lines.length - 1] ? " " : ""}${word}`) : lines.push(word);
  return betweenMarkers(page, "the page", importableStart, importableEnd, (indent) => lines.map((line) => `${indent}${line}`));
}

const kindsStart = "<!-- export kinds: written by `npm run generate` from the registry -->";
const kindsEnd = "<!-- end of export kinds -->";

/** taking-over-an-account.md with the kinds `--kinds` takes, by part, between its markers. */
export function withExportKinds(page: string): string {
  const exported = resources.flatMap(({ name, definition: { exported } }) => (exported ? [{ name, part: exported.part }] : []));
  const listOf = (part: string) => andList(exported.filter((kind) => kind.part === part).map((kind) => `\`${kind.name}\``));
  return betweenMarkers(page, "taking-over-an-account.md", kindsStart, kindsEnd, () => [`- setup: ${listOf("setup")}`, `- data: ${listOf("data")}`]);
}

/** README.md with a row per resource (its page, and its definition's description) between its markers. */
export function withResourceTable(readme: string): string {
  const start = "<!-- resources: written by `npm run generate` from the registry -->";
  return betweenMarkers(readme, "README.md", start, "<!-- end of resources -->", () => [
    "| Resource | What it manages |",
    "|---|---|",
    ...resources.map((resource) => `| [\`${typeOf(resource)}\`](sdk-docs/${resource.namespace}-${resource.name}.md) | ${resource.definition.description} |`),
  ]);
}

/** sdk-docs/README.md with a link to each resource's page between its markers. */
export function withResourcePages(index: string): string {
  const start = "<!-- resource pages: written by `npm run generate` from the registry -->";
  return betweenMarkers(index, "sdk-docs/README.md", start, "<!-- end of resource pages -->", () =>
    resources.map((resource) => `- [${typeOf(resource)}](${resource.namespace}-${resource.name}.md)`),
  );
}

/** CONTRIBUTING.md with the places-per-field table (scripts/generate/field-places.ts) between its markers. */
export function withFieldPlaces(contributing: string): string {
  const start = "<!-- field places: written by `npm run generate` (scripts/generate/field-places.ts) -->";
  return betweenMarkers(contributing, "CONTRIBUTING.md", start, "<!-- end of field places -->", () => [fieldPlacesTable()]);
}

// ---- the files ----------------------------------------------------------------------------

/** A namespace's index (`crm`, `chat` of the package's exports): its classes from the registry, its lookups, its types. */
function indexFile(namespace: string): string {
  const classes = resources
    .filter((resource) => resource.namespace === namespace)
    .map((resource) => `export { ${resource.className} } from "./${resource.name}";`);
  const lookups = namespace === "crm" ? ['export * from "./lookups";'] : [];
  return [
    `// Written by \`npm run generate\` from provider/registry.ts: do not edit.`,
    ...classes,
    ...lookups,
    'export type * from "./generated-types";',
    "",
  ].join("\n");
}

/** A doc comment of `text`, on one line if it fits, else wrapped at 100 characters. */
function docComment(text: string): string[] {
  if (text.length <= 92) return [`/** ${text} */`];
  const lines = [""];
  for (const word of text.split(" "))
    lines[lines.length - 1].length + word.length < 96 ? (lines[lines.length - 1] += `${lines[lines.length - 1] ? " " : ""}${word}`) : lines.push(word);
  return ["/**", ...lines.map((line) => ` * ${line}`), " */"];
}

/** The registry's name of a definition's export: `account-custom-field` -> `accountCustomField`. */
const definitionName = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * A resource's dynamic door module, at the path its deployed dynamic resources require: its
 * definition's parts, the lifecycle functions and configure that the provider host calls, and
 * its class, whose provider is this module's exports (see provider/dynamic/door.ts).
 */
function doorModule(resource: RegisteredResource): string {
  const definitionPath = `./${definitionFileOf(resource).split("/").slice(2).join("/").replace(/\.ts$/, "")}`;
  const { className } = resource;
  const exportsOf = [
    "declaration",
    "inputSchema",
    "core",
    "exported",
    "inputsDeclaring",
    "check",
    "diff",
    "create",
    "read",
    "update",
    "delete: remove",
    "configure",
    "resourceClass",
  ];
  return [
    `// Written by \`npm run generate\` from provider/registry.ts: do not edit. The module deployed dynamic`,
    `// ${typeOf(resource)} resources require (a path never renamed); its definition is ${definitionPath}.ts.`,
    `import { dynamicDoor } from "../dynamic/door";`,
    `import { ${definitionName(resource.name)} } from "${definitionPath}";`,
    `import type { ${className}Args, ${className}Outputs } from "./generated-types";`,
    "",
    `export type { ${className}Args, ${className}Outputs } from "./generated-types";`,
    "export const {",
    ...exportsOf.map((name) => `  ${name},`),
    `} = dynamicDoor(module, ${definitionName(resource.name)});`,
    "export { remove as delete };",
    "",
    `export interface ${className} extends ${className}Outputs {}`,
    "",
    ...docComment(resource.definition.description),
    `export class ${className} extends resourceClass<${className}Args>() {}`,
    "",
  ].join("\n");
}

/** Every generated file, by path from the repository's root, with what it holds now. */
export function generatedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const namespace of new Set(resources.map((resource) => resource.namespace))) {
    files.set(`provider/${namespace}/generated-types.ts`, typesFile(namespace));
    files.set(`provider/${namespace}/index.ts`, indexFile(namespace));
  }
  for (const resource of resources) files.set(`provider/${resource.namespace}/${resource.name}.ts`, doorModule(resource));
  for (const resource of resources) {
    const path = pageOf(resource);
    files.set(path, pageWithTables(resource, readFileSync(join(repoRoot, path), "utf8")));
  }
  for (const [name, schema] of packageSchemas()) files.set(`schema/${name}.json`, `${JSON.stringify(schema, null, 2)}\n`);
  files.set("README.md", withResourceTable(readFileSync(join(repoRoot, "README.md"), "utf8")));
  files.set("sdk-docs/README.md", withResourcePages(readFileSync(join(repoRoot, "sdk-docs/README.md"), "utf8")));
  files.set("CONTRIBUTING.md", withFieldPlaces(readFileSync(join(repoRoot, "CONTRIBUTING.md"), "utf8")));
  files.set("sdk-docs/taking-over-an-account.md", withExportKinds(readFileSync(join(repoRoot, "sdk-docs/taking-over-an-account.md"), "utf8")));
  for (const page of ["sdk-docs/native-plugins.md", "sdk-docs/yaml.md"]) files.set(page, withImportableResources(readFileSync(join(repoRoot, page), "utf8")));
  return files;
}

if (require.main === module) {
  for (const [path, content] of generatedFiles()) {
    const target = join(repoRoot, path);
    if (existsSync(target) && readFileSync(target, "utf8") === content) continue;
    writeFileSync(target, content);
    console.log(`wrote ${path}`);
  }
  // From the schemas just written: the SDKs (scripts/generate/sdks.ts), through a Go tool.
  writeSdks();
  console.log("wrote sdk/ (tools/schema-check -sdks)");
}
