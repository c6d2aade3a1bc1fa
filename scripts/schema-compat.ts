// Whether a change to a package schema breaks a user: the schema of each package's last release
// is kept in schema/released/<package>.json, and the schema now (schema/<package>.json) is held
// to it, as Pulumi's schema-tools compare holds its providers' on pull requests. A break is a
// removed resource, function, type, config variable or property; a property whose type changed
// (narrowed among them), whose default changed, or made secret or no longer secret; an enum value
// removed; an input that is required now and was not; an output that was required and is not (Go
// and TypeScript read it as always there). None counts when the major version changes. Additions
// break nothing.
//
//   npx ts-node --transpile-only scripts/schema-compat.ts            check every package; exit 1 on a break
//   npx ts-node --transpile-only scripts/schema-compat.ts --keep     after a release: keep today's schemas as the released ones
//
// test/schema-compat.test.ts holds it to broken schemas; `npm run release` runs it first.

import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

type Spec = Record<string, any>;

const repoRoot = join(__dirname, "..");
export const releasedSchemaFolder = join(repoRoot, "schema", "released");

const major = (version: string) => Number(/^v?(\d+)\./.exec(version)?.[1] ?? NaN);

/** A property's type as one string, object types by token: `array<string>`, `map<#/types/crm:index:X>`, `string|integer`. */
function typeOf(property: Spec | undefined): string {
  if (!property) return "none";
  if (property.$ref) return property.$ref;
  if (property.oneOf) return (property.oneOf as Spec[]).map(typeOf).join("|");
  if (property.type === "array") return `array<${typeOf(property.items)}>`;
  if (property.type === "object" && property.additionalProperties) return `map<${typeOf(property.additionalProperties)}>`;
  return String(property.type);
}

/**
 * The required names of a set of properties on either side, by what a user relies on: an input
 * required now and not before breaks the programs that leave it out; an output no longer required
 * (it may now be missing) breaks the Go and TypeScript programs that read it as always there.
 */
interface Required {
  inputs?: [before: string[] | undefined, after: string[] | undefined];
  outputs?: [before: string[] | undefined, after: string[] | undefined];
}

/**
 * The breaks between two sets of properties: one removed; its type changed (narrowed or other:
 * `string|number` to `string` refuses what a program sent); its default changed (a program that
 * leaves it out gets another value); made secret or no longer secret (the state and the SDKs'
 * outputs change form); and the required names as `required` says.
 */
function propertyBreaks(where: string, before: Spec = {}, after: Spec = {}, required: Required = {}): string[] {
  const breaks: string[] = [];
  for (const [name, property] of Object.entries(before)) {
    const now = after[name];
    if (!now) {
      breaks.push(`${where}: property "${name}" removed`);
      continue;
    }
    if (typeOf(property) !== typeOf(now)) breaks.push(`${where}: property "${name}" changed type from ${typeOf(property)} to ${typeOf(now)}`);
    if (JSON.stringify(property.default) !== JSON.stringify(now.default))
      breaks.push(
        `${where}: property "${name}" changed its default from ${JSON.stringify(property.default) ?? "none"} to ${JSON.stringify(now.default) ?? "none"}`,
      );
    if (Boolean(property.secret) !== Boolean(now.secret)) breaks.push(`${where}: property "${name}" ${now.secret ? "is secret now" : "is no longer secret"}`);
  }
  if (required.inputs) {
    const [was, is] = required.inputs;
    for (const name of is ?? []) if (!(was ?? []).includes(name)) breaks.push(`${where}: input "${name}" is required now`);
  }
  if (required.outputs) {
    const [was, is] = required.outputs;
    for (const name of was ?? [])
      if (name in after && !(is ?? []).includes(name)) breaks.push(`${where}: output "${name}" is no longer required (it may be missing)`);
  }
  return breaks;
}

/** Every break of `after` against `before`, the schema of the last release; none when the major version changed. */
export function breakingChanges(before: Spec, after: Spec): string[] {
  if (major(after.version) !== major(before.version)) return [];
  const breaks: string[] = [];
  const config = (spec: Spec) => spec.config?.variables ?? {};
  breaks.push(...propertyBreaks("config", config(before), config(after)));
  breaks.push(
    ...propertyBreaks("provider input", before.provider?.inputProperties, after.provider?.inputProperties, {
      inputs: [before.provider?.requiredInputs, after.provider?.requiredInputs],
    }),
  );
  for (const [token, resource] of Object.entries<Spec>(before.resources ?? {})) {
    const now = after.resources?.[token];
    if (!now) {
      breaks.push(`resource ${token} removed`);
      continue;
    }
    breaks.push(...propertyBreaks(`${token} input`, resource.inputProperties, now.inputProperties, { inputs: [resource.requiredInputs, now.requiredInputs] }));
    breaks.push(...propertyBreaks(`${token} output`, resource.properties, now.properties, { outputs: [resource.required, now.required] }));
  }
  for (const [token, fn] of Object.entries<Spec>(before.functions ?? {})) {
    const now = after.functions?.[token];
    if (!now) {
      breaks.push(`function ${token} removed`);
      continue;
    }
    breaks.push(...propertyBreaks(`${token} input`, fn.inputs?.properties, now.inputs?.properties, { inputs: [fn.inputs?.required, now.inputs?.required] }));
    breaks.push(
      ...propertyBreaks(`${token} output`, fn.outputs?.properties, now.outputs?.properties, { outputs: [fn.outputs?.required, now.outputs?.required] }),
    );
  }
  for (const [token, type] of Object.entries<Spec>(before.types ?? {})) {
    const now = after.types?.[token];
    if (!now) {
      breaks.push(`type ${token} removed`);
      continue;
    }
    if (type.enum) {
      const values = new Set((now.enum ?? []).map((entry: Spec) => entry.value));
      for (const { value } of type.enum) if (!values.has(value)) breaks.push(`type ${token}: enum value ${JSON.stringify(value)} removed`);
    } else {
      // An object type may be an input or an output: a member required now, or no longer, breaks one of them.
      breaks.push(
        ...propertyBreaks(`type ${token}`, type.properties, now.properties, { inputs: [type.required, now.required], outputs: [type.required, now.required] }),
      );
    }
  }
  return breaks;
}

/** The packages with a released schema kept, by name. */
const releasedPackages = (folder: string) => ["crm", "chat"].filter((name) => existsSync(join(folder, `${name}.json`)));

const read = (file: string): Spec => JSON.parse(readFileSync(file, "utf8"));

/** Each package's breaks of `current`/<pkg>.json against `released`/<pkg>.json. */
export function checkSchemas(released = releasedSchemaFolder, current = join(repoRoot, "schema")): Map<string, string[]> {
  const packages = releasedPackages(released);
  if (packages.length === 0) throw new Error(`no released schema in ${released}: run scripts/schema-compat.ts --keep once`);
  return new Map(packages.map((name) => [name, breakingChanges(read(join(released, `${name}.json`)), read(join(current, `${name}.json`)))]));
}

if (require.main === module) {
  const { values } = parseArgs({ options: { keep: { type: "boolean" }, released: { type: "string" }, current: { type: "string" } } });
  if (values.keep) {
    mkdirSync(releasedSchemaFolder, { recursive: true });
    for (const name of ["crm", "chat"]) copyFileSync(join(repoRoot, "schema", `${name}.json`), join(releasedSchemaFolder, `${name}.json`));
    console.log(`kept schema/crm.json and schema/chat.json as the released schemas (${releasedSchemaFolder})`);
    process.exit(0);
  }
  let broken = false;
  for (const [name, breaks] of checkSchemas(values.released, values.current)) {
    if (breaks.length === 0) {
      console.log(`${name}: no breaking change against the released schema`);
      continue;
    }
    broken = true;
    console.error(
      `${name}: ${breaks.length} breaking change(s) against the released schema (a user's program would stop working; change the major version if meant):`,
    );
    for (const line of breaks) console.error(`  - ${line}`);
  }
  process.exit(broken ? 1 : 0);
}
