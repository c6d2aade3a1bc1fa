// The Pulumi program `pulumi-crm export` writes, in TypeScript (the dynamic classes) or YAML (the
// native plugin): one resource per object, declared with the values it holds, under names made
// from the objects' own, referring to each other through resources or lookups by name, never by
// an account's id. Which account a stack manages, which of its objects it takes over (`adopt`, the
// source stack's ids) and whether destroy is refused (`protect`) are the stack's settings, in its
// Pulumi.<stack>.yaml: the same program stands the same setup up in any account.

import { exportedResources, type ExportedObject, type ExportKind, type Referred } from "./read-account";

export type Language = "typescript" | "yaml";
export const languages: readonly Language[] = ["typescript", "yaml"];

export interface ProgramSettings {
  /** The Pulumi project's name. */
  project: string;
  /** The CRM account's address, named in comments and in the source stack's settings. */
  apiUrl: string;
  language: Language;
  /** The stack whose settings take the exported objects over: `Pulumi.<stack>.yaml`. */
  stack: string;
  /** The kinds exported, named in the header. */
  kinds: readonly string[];
  /** Version ranges for a TypeScript program's package.json. */
  dependencies: { pulumiCrm: string; pulumi: string; typescript: string; tsNode: string };
  /** The plugin's version and where the CLI downloads it, for a YAML program. */
  plugin: { version: string; downloadUrl: string };
}

/** An input's value as the program writes it. */
type Written =
  | { literal: unknown }
  /** Another resource of the program (its variable, and its resource name): its id. */
  | { resource: { variable: string; name: string } }
  /** An object the program does not declare, found by a lookup by its name (the variable holding the lookup). */
  | { lookup: string }
  | { list: Written[] }
  /** A secret input the service never answers (a user's password): from the stack's secret setting `<input>s`, by resource name. */
  | { secret: { input: string; resource: string } };

/** One resource of the program. */
interface Declared {
  className: string;
  section: string;
  variable: string;
  resource: string;
  /** Taken over by id in the source stack (`adopt`); a built-in is found by what identifies it in any account. */
  adopted: boolean;
  inputs: [string, Written][];
  /** Why an input is left out (it names no object of the account). */
  notes: string[];
}

/** A lookup of an object the program refers to but does not declare. */
interface Lookup {
  variable: string;
  /** The lookup's name, e.g. `getList`. */
  function: string;
  name: string;
}

/** The program, as both languages write it. */
interface Program {
  declared: Declared[];
  lookups: Lookup[];
  /** The secret inputs the program reads from the stack's settings: `password`. */
  secrets: string[];
}

/** What a resource's class and export declaration say, by kind. */
const resourceOf = (kind: ExportKind) => exportedResources.find((resource) => resource.name === kind)!;

/**
 * The program's resources and lookups, from the objects read. An input referring to an object the
 * program declares is that resource's id; to one it leaves out, a lookup by its name (refused where
 * the kind has no lookup: the error names the kind to add); to no object of the account, left out.
 */
function programOf(objects: readonly ExportedObject[]): Program {
  const names = namesOf(objects);
  const lookups = new Map<string, Lookup>();
  const secrets = new Set<string>();
  const takenVariables = new Set([...names.values()].map((name) => name.variable.toLowerCase()));
  const referenceTo = (object: ExportedObject, input: string, referred: Referred): Written | undefined => {
    const declared = names.get(`${referred.kind} ${referred.id}`);
    if (declared) return { resource: { variable: declared.variable, name: declared.resource } };
    if (referred.name === undefined) return undefined;
    const lookup = resourceOf(referred.kind).definition.exported.lookup;
    if (!lookup) {
      throw new Error(
        `the ${object.kind} "${object.title}" refers to the ${referred.kind} "${referred.name}" (${input}), which the exported kinds leave out and no lookup finds by name; add ${referred.kind} to --kinds`,
      );
    }
    const key = `${lookup} ${referred.name}`;
    if (!lookups.has(key))
      lookups.set(key, {
        variable: uniqueVariable([...words(referred.name), ...referred.kind.split("-")], takenVariables),
        function: lookup,
        name: referred.name,
      });
    return { lookup: lookups.get(key)!.variable };
  };

  const declared = objects.map((object): Declared => {
    const { className, definition } = resourceOf(object.kind);
    const { variable, resource } = names.get(`${object.kind} ${object.id}`)!;
    const notes: string[] = [];
    const inputs: [string, Written][] = [];
    for (const [input, value] of Object.entries(object.inputs)) {
      // null is "not set", as an input left out.
      if (value === null || value === undefined) continue;
      const referred = object.references[input];
      if (referred === undefined) {
        inputs.push([input, { literal: value }]);
        continue;
      }
      const written = (Array.isArray(referred) ? referred : [referred]).map((one) => {
        const reference = referenceTo(object, input, one);
        if (!reference) notes.push(`${input}: the ${one.kind} ${one.id} it names is no object of the account; left out`);
        return reference;
      });
      const kept = written.filter((one): one is Written => one !== undefined);
      if (Array.isArray(referred)) inputs.push([input, { list: kept }]);
      else if (kept.length) inputs.push([input, kept[0]]);
    }
    for (const field of definition.declaration.fields) {
      if (field.secret && field.role !== "output") {
        secrets.add(field.name);
        inputs.push([field.name, { secret: { input: field.name, resource } }]);
      }
    }
    return { className, section: definition.exported.section, variable, resource, adopted: !object.builtIn, inputs, notes };
  });
  return { declared, lookups: [...lookups.values()], secrets: [...secrets] };
}

/** The program's files by name, and the source stack's settings. */
export function programFiles(objects: readonly ExportedObject[], settings: ProgramSettings): Record<string, string> {
  const program = programOf(objects);
  const files = settings.language === "typescript" ? typescriptFiles(program, settings) : { "Pulumi.yaml": yamlProgram(program, settings) };
  return { ...files, [`Pulumi.${settings.stack}.yaml`]: sourceStackSettings(objects, program, settings) };
}

/** What a program says first, in either language's comments. */
const header = (settings: ProgramSettings, program: Program) => [
  `Generated by \`pulumi-crm export\` from the CRM account at ${settings.apiUrl}, of the kinds`,
  ...wrapped(`${settings.kinds.join(", ")}.`),
  "The same setup for any account: a stack's settings name its account (crm:apiUrl, and crm:apiToken as a",
  "secret); no id of an account is written here. In the source stack, Pulumi.<stack>.yaml's `adopt` takes",
  "each object over by id, so that its first `pulumi up` writes nothing, and `protect` refuses a destroy. In",
  "any other stack the objects are made; those every account comes with (built-in task types, the admin and",
  "the admins' group, the branding, the switches) are found there by name and taken over, never made twice",
  "nor deleted. See sdk-docs/one-setup-every-account.md.",
  ...program.secrets.flatMap((input) => [
    `${input}: never answered by the service, so not exported; give one per stack as a secret:`,
    `\`pulumi config set --secret --path '${input}s.<resource name>' <value>\`.`,
  ]),
];

/** Words in lines of at most 100 characters. */
function wrapped(text: string): string[] {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    if (lines.length && lines[lines.length - 1].length + word.length < lineWidth) lines[lines.length - 1] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

function typescriptFiles(program: Program, settings: ProgramSettings): Record<string, string> {
  const { dependencies } = settings;
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    "Pulumi.yaml": [
      `name: ${settings.project}`,
      "runtime:",
      "  name: nodejs",
      "  options:",
      "    typescript: true",
      `description: ${JSON.stringify(`The setup of the CRM account at ${settings.apiUrl}, for any account (pulumi-crm export).`)}`,
      "",
    ].join("\n"),
    "package.json": json({
      name: settings.project,
      private: true,
      dependencies: { "@pulumi/pulumi": dependencies.pulumi, "pulumi-crm": dependencies.pulumiCrm },
      devDependencies: { typescript: dependencies.typescript, "ts-node": dependencies.tsNode },
    }),
    // Type-checked when Pulumi runs it: no noCheck.
    "tsconfig.json": json({
      compilerOptions: { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", esModuleInterop: true, skipLibCheck: true },
      files: ["index.ts"],
    }),
    "index.ts": typescriptIndex(program, settings),
  };
}

function typescriptIndex(program: Program, settings: ProgramSettings): string {
  const lines = [
    ...header(settings, program).map((line) => `// ${line}`),
    'import * as pulumi from "@pulumi/pulumi";',
    'import { crm } from "pulumi-crm";',
    "",
    "const config = new pulumi.Config();",
    "// The objects this stack takes over, by resource name: their ids in its account.",
    'const adopt = config.getObject<Record<string, string>>("adopt") ?? {};',
    "// Whether a destroy is refused: true in the source stack's settings.",
    'const protect = config.getBoolean("protect") ?? false;',
    ...program.secrets.flatMap((input) => [
      `// A ${input} by resource name, from the stack's secret setting ${input}s; none where it has none.`,
      `const ${input}s = config.getObject<Record<string, string>>(${JSON.stringify(`${input}s`)}) ?? {};`,
      `const ${input}Of = (resource: string) => (${input}s[resource] === undefined ? undefined : pulumi.secret(${input}s[resource]));`,
    ]),
  ];
  if (program.lookups.length) lines.push("", "// Objects the program refers to but does not declare, found by name.");
  for (const lookup of program.lookups) lines.push(`const ${lookup.variable} = crm.${lookup.function}Output({ name: ${JSON.stringify(lookup.name)} }).id;`);
  let section: string | undefined;
  for (const resource of program.declared) {
    if (resource.section !== section) lines.push("", `// ${(section = resource.section)}`);
    lines.push(...resource.notes.map((note) => `// ${resource.resource}: ${note}`));
    const members = [...(resource.adopted ? [`adoptId: adopt[${JSON.stringify(resource.resource)}],`] : [])];
    for (const [input, value] of resource.inputs) members.push(`${input}: ${typescriptValue(value, "  ", input.length + 2)},`);
    lines.push(
      `const ${resource.variable} = new crm.${resource.className}(${JSON.stringify(resource.resource)}, {`,
      ...members.map((member) => `  ${member}`),
      "}, { protect });",
    );
  }
  return `${lines.join("\n")}\n`;
}

function yamlProgram(program: Program, settings: ProgramSettings): string {
  const setting = (type: string) => ({ type, default: type === "object" ? {} : false });
  const config: Record<string, unknown> = { adopt: setting("object"), protect: setting("boolean") };
  for (const input of program.secrets) config[`${input}s`] = setting("object");
  const lines = [
    ...header(settings, program).map((line) => `# ${line}`),
    `name: ${settings.project}`,
    "runtime: yaml",
    `description: ${yamlScalar(`The setup of the CRM account at ${settings.apiUrl}, for any account (pulumi-crm export), on the plugin pulumi-resource-crm.`)}`,
    "# adopt: the objects this stack takes over, by resource name (their ids in its account); protect: whether a destroy is refused.",
    ...yamlLines({ config }, ""),
  ];
  if (program.lookups.length) {
    lines.push("# Objects the program refers to but does not declare, found by name.", "variables:");
    for (const lookup of program.lookups) {
      lines.push(
        ...yamlLines(
          { [lookup.variable]: { "fn::invoke": { function: `crm:index:${lookup.function}`, arguments: { name: lookup.name }, return: "id" } } },
          "  ",
        ),
      );
    }
  }
  lines.push("resources:");
  let section: string | undefined;
  program.declared.forEach((resource, index) => {
    if (resource.section !== section) lines.push(`  # ${(section = resource.section)}`);
    lines.push(...resource.notes.map((note) => `  # ${resource.resource}: ${note}`));
    const properties: Record<string, unknown> = resource.adopted ? { adoptId: new Expression(`\${adopt["${resource.resource}"]}`) } : {};
    for (const [input, value] of resource.inputs) properties[input] = yamlValue(value);
    // The first resource names the plugin's release, which the CLI downloads the first time.
    const options = {
      protect: new Expression("${protect}"),
      ...(index === 0 ? { version: settings.plugin.version, pluginDownloadURL: settings.plugin.downloadUrl } : {}),
    };
    lines.push(...yamlLines({ [resource.resource]: { type: `crm:${resource.className}`, properties, options } }, "  "));
  });
  return `${lines.join("\n")}\n`;
}

/** A Pulumi YAML expression, written as it is (a literal string's `${` is escaped). */
class Expression {
  constructor(readonly text: string) {}
}

function yamlValue(value: Written): unknown {
  if ("resource" in value) return new Expression(`\${${value.resource.name}.id}`);
  if ("lookup" in value) return new Expression(`\${${value.lookup}}`);
  if ("secret" in value) return new Expression(`\${${value.secret.input}s["${value.secret.resource}"]}`);
  if ("list" in value) return value.list.map(yamlValue);
  return value.literal;
}

/** The source stack's settings: its account, protect, and the id of each object it takes over. */
function sourceStackSettings(objects: readonly ExportedObject[], program: Program, settings: ProgramSettings): string {
  const adopt = Object.fromEntries(program.declared.flatMap((resource, index) => (resource.adopted ? [[resource.resource, objects[index].id]] : [])));
  return [
    `# The settings of the stack of the CRM account at ${settings.apiUrl}, which \`pulumi-crm export\` read: its`,
    "# objects taken over by id (adopt), so that the first `pulumi up` writes nothing, and protected. Its API",
    "# key is not written: `pulumi config set --secret crm:apiToken <key>`.",
    ...yamlLines({ config: { "crm:apiUrl": settings.apiUrl, [`${settings.project}:protect`]: true, [`${settings.project}:adopt`]: adopt } }, ""),
    "",
  ].join("\n");
}

/** A value as YAML block lines at `indent`: a mapping a member a line, a sequence an item a line. */
function yamlLines(value: Record<string, unknown>, indent: string): string[] {
  return Object.entries(value).flatMap(([key, member]) => {
    const name = /^[A-Za-z_][\w:.-]*$/.test(key) ? key : JSON.stringify(key);
    if (isBlock(member)) return [`${indent}${name}:`, ...yamlBlock(member, `${indent}  `)];
    return [`${indent}${name}: ${yamlScalar(member)}`];
  });
}

const isBlock = (value: unknown): value is Record<string, unknown> | unknown[] =>
  !!value && typeof value === "object" && !(value instanceof Expression) && Object.keys(value).length > 0;

function yamlBlock(value: Record<string, unknown> | unknown[], indent: string): string[] {
  if (!Array.isArray(value)) return yamlLines(value, indent);
  return value.flatMap((item) => {
    if (!isBlock(item)) return [`${indent}- ${yamlScalar(item)}`];
    const [first, ...rest] = yamlBlock(item, `${indent}  `);
    return [`${indent}- ${first.slice(indent.length + 2)}`, ...rest];
  });
}

/** A scalar as YAML: plain where it reads back as the same string, else double-quoted (JSON's escapes are YAML's). */
function yamlScalar(value: unknown): string {
  if (value instanceof Expression) return value.text;
  if (Array.isArray(value)) return "[]";
  if (value && typeof value === "object") return "{}";
  if (typeof value !== "string") return JSON.stringify(value);
  // Pulumi YAML reads `${` in a string as an expression: `$${` is the literal.
  const literal = value.replace(/\$\{/g, () => "$${");
  const plain = /^[A-Za-z_/][\w .,:@/()+#-]*$/.test(literal) && !/( |:)$|: | #/.test(literal) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(literal);
  return plain ? literal : JSON.stringify(literal);
}

/** Lines a formatter keeps whole: longer values span lines, a member or an item each. */
const lineWidth = 100;

/** A value as TypeScript source at `indent`, after `lead` characters of its line. */
function typescriptValue(value: Written, indent: string, lead: number): string {
  if ("resource" in value) return `${value.resource.variable}.id`;
  if ("lookup" in value) return value.lookup;
  if ("secret" in value) return `${value.secret.input}Of(${JSON.stringify(value.secret.resource)})`;
  if ("list" in value)
    return spread(
      "[",
      "]",
      value.list.map((item) => (inner: string, at: number) => typescriptValue(item, inner, at)),
      indent,
      lead,
    );
  return typescriptLiteral(value.literal, indent, lead);
}

function typescriptLiteral(value: unknown, indent: string, lead: number): string {
  if (Array.isArray(value))
    return spread(
      "[",
      "]",
      value.map((item) => (inner: string, at: number) => typescriptLiteral(item, inner, at)),
      indent,
      lead,
    );
  if (value && typeof value === "object") {
    const members = Object.entries(value).map(([key, member]) => {
      const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
      return (inner: string, at: number) => `${name}: ${typescriptLiteral(member, inner, at + name.length + 2)}`;
    });
    return spread("{ ", " }", members, indent, lead, "{}");
  }
  return JSON.stringify(value);
}

/**
 * Items between `open` and `close`: on one line when it fits, else an item a line, each a level
 * deeper, with a trailing comma (as Prettier and Biome lay them out).
 */
function spread(
  open: string,
  close: string,
  items: ((indent: string, lead: number) => string)[],
  indent: string,
  lead: number,
  empty = `${open.trim()}${close.trim()}`,
): string {
  if (!items.length) return empty;
  // Laid out on one line, whatever its items' width.
  const oneLine = `${open}${items.map((item) => item(indent, Number.NEGATIVE_INFINITY)).join(", ")}${close}`;
  if (lead + oneLine.length <= lineWidth && !oneLine.includes("\n")) return oneLine;
  const inner = `${indent}  `;
  return `${open.trim()}\n${items.map((item) => `${inner}${item(inner, inner.length)},`).join("\n")}\n${indent}${close.trim()}`;
}

// Words a variable cannot be; a name that is one gets its kind's word added.
const reservedWords = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with let static yield await implements interface " +
    "package private protected public crm pulumi config adopt protect"
  ).split(" "),
);

/** A title's words (at most six, accents dropped), lower case. */
const words = (title: string): string[] =>
  title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .match(/[a-z0-9]+/g)
    ?.slice(0, 6) ?? [];

/** Words in camelCase, made unique among `taken` (lower case; the variable is added to it) by a counter. */
function uniqueVariable(given: readonly string[], taken: Set<string>): string {
  let named = given;
  for (let counter = 2; taken.has(camelCase(named).toLowerCase()) || reservedWords.has(camelCase(named)); counter++) named = [...given, String(counter)];
  taken.add(camelCase(named).toLowerCase());
  return camelCase(named);
}

/**
 * The variable and the resource name of each object, by `kind id`: its title's words in camelCase
 * (`acmeCorp`) and in kebab case (`acme-corp`), unique in the program by a counter (`acmeCorp2`,
 * `acme-corp-2`). A title without usable words, or starting with a digit, or a reserved word,
 * gets its kind's words too.
 */
function namesOf(objects: readonly ExportedObject[]): Map<string, { variable: string; resource: string }> {
  const taken = new Set<string>();
  const names = new Map<string, { variable: string; resource: string }>();
  for (const object of objects) {
    const titleWords = words(object.title);
    const kindWords = object.kind.split("-");
    const given = !titleWords.length ? [...kindWords, object.id] : /^\d/.test(titleWords[0]) ? [...kindWords, ...titleWords] : titleWords;
    const unreserved = reservedWords.has(camelCase(given)) ? [...given, ...kindWords] : given;
    let named = unreserved;
    for (let counter = 2; taken.has(camelCase(named).toLowerCase()); counter++) named = [...unreserved, String(counter)];
    taken.add(camelCase(named).toLowerCase());
    names.set(`${object.kind} ${object.id}`, { variable: camelCase(named), resource: named.join("-") });
  }
  return names;
}

const camelCase = (given: readonly string[]) => given.map((word, index) => (index ? word[0].toUpperCase() + word.slice(1) : word)).join("");

/**
 * The `pulumi import --file` document of the objects: each one's resource by its package
 * schema's token (`crm:index:Account`), under the name the program gives it, and its id. For
 * a program on the native plugin, in any language: `pulumi import --file` prints its code.
 */
export function importFile(objects: readonly ExportedObject[]): string {
  const names = namesOf(objects);
  const resources = objects.map((object) => ({
    type: `crm:index:${resourceOf(object.kind).className}`,
    name: names.get(`${object.kind} ${object.id}`)!.resource,
    id: object.id,
  }));
  return `${JSON.stringify({ resources }, null, 2)}\n`;
}
