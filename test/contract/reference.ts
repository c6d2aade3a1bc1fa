// The reference OpenAPI documents (copied into test/contract/reference, so that CI on a
// fresh clone has them; see the README there for their origin) and the
// readings of them the contract tests need, with the defects listed in their README
// worked around here and nowhere else.

import { readFileSync } from "node:fs";
import path from "node:path";

const REFERENCE_DIR = path.resolve(__dirname, "reference");

export type JsonSchema = { [keyword: string]: unknown };

interface OpenApiOperation {
  requestBody?: { content?: Record<string, { schema?: JsonSchema; examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema; examples?: Record<string, { value: unknown }> }> }>;
}

export class ReferenceDocument {
  private readonly document: { paths: Record<string, Record<string, OpenApiOperation>>; components?: { schemas?: Record<string, JsonSchema> } };

  /** The operations by path template, a misspelt path read as the one its kind's other operations are at. */
  private readonly paths: Record<string, Record<string, OpenApiOperation>>;

  constructor(readonly file: string) {
    this.document = JSON.parse(readFileSync(path.join(REFERENCE_DIR, file), "utf8"));
    this.paths = {};
    for (const [template, operations] of Object.entries(this.document.paths)) {
      // The task outcomes' update and delete are at /taskOutccomes/{id}; their read at /taskOutcomes/{id}.
      const meant = template.replace(/^\/taskOutccomes\//, "/taskOutcomes/");
      this.paths[meant] = { ...this.paths[meant], ...operations };
    }
  }

  operation(method: string, template: string): ReferenceOperation {
    const operation = this.paths[template]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${this.file} has no operation ${method} ${template}`);
    return new ReferenceOperation(this, operation);
  }

  /** The path template a concrete path (`/accounts/5/notes`) matches, literal segments preferred; undefined when none. */
  templateOf(method: string, path: string): string | undefined {
    const parameters = (template: string) => (template.match(/\{/g) ?? []).length;
    return Object.keys(this.paths)
      .filter((template) => this.paths[template][method.toLowerCase()])
      .sort((a, b) => parameters(a) - parameters(b))
      .find((template) => new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`).test(path));
  }

  /** A schema with its $refs replaced by what they point at. */
  resolve(schema: JsonSchema, seen: readonly string[] = []): JsonSchema {
    const ref = schema.$ref;
    if (typeof ref === "string") {
      if (seen.includes(ref)) throw new Error(`${this.file}: circular $ref ${ref}`);
      const name = ref.replace("#/components/schemas/", "");
      const target = this.document.components?.schemas?.[name];
      if (!target) throw new Error(`${this.file}: unresolvable $ref ${ref}`);
      return this.resolve(target, [...seen, ref]);
    }
    return mapSubschemas(schema, (child) => this.resolve(child, seen));
  }
}

export class ReferenceOperation {
  constructor(
    private readonly document: ReferenceDocument,
    private readonly operation: OpenApiOperation,
  ) {}

  declaredStatuses(): number[] {
    return Object.keys(this.operation.responses).map(Number);
  }

  /**
   * The JSON request schema, read as a request: read-only members are not expected
   * (OpenAPI), booleans also take 0/1 and "0"/"1" (README: the reference's own
   * examples send them), and the {array: item} wrapper of the bulk operations is the
   * top-level array its examples show (README); a schema of one item whose examples send
   * the items as a list under one member (`{fieldOptions: [...]}` for /fieldOption/bulk) is
   * that list's items.
   */
  requestSchema(): JsonSchema | undefined {
    const content = this.operation.requestBody?.content?.["application/json"];
    const schema = content?.schema;
    if (!schema || Object.keys(schema).length === 0) return undefined;
    const examples = Object.values(content?.examples ?? {}).map((example) => example.value);
    return asRequest(listsAsExamplesSend(itemsAsExamplesSend(unwrapBulkArray(this.document.resolve(schema)), examples), examples));
  }

  /** The response schema for a status, $refs resolved (the chat reference's are exact; the CRM's are inferred from its examples). */
  responseSchema(status: number): JsonSchema | undefined {
    const schema = this.operation.responses[String(status)]?.content?.["application/json"]?.schema;
    return schema && this.document.resolve(schema);
  }

  /** The response examples for a status, parsed from the JSON text they are stored as (README). */
  responseExamples(status: number): unknown[] {
    const content = this.operation.responses[String(status)]?.content ?? {};
    return Object.values(content).flatMap((media) =>
      Object.values(media.examples ?? {}).map((example) => (typeof example.value === "string" ? parseExample(example.value) : example.value)),
    );
  }
}

/** Applies `change` to every direct subschema of `schema` (properties, items, allOf/anyOf/oneOf). */
function mapSubschemas(schema: JsonSchema, change: (child: JsonSchema) => JsonSchema): JsonSchema {
  const result: JsonSchema = { ...schema };
  if (isSchema(schema.properties)) {
    result.properties = Object.fromEntries(Object.entries(schema.properties).map(([name, child]) => [name, change(child as JsonSchema)]));
  }
  if (isSchema(schema.items)) result.items = change(schema.items);
  for (const keyword of ["allOf", "anyOf", "oneOf"]) {
    const list = schema[keyword];
    if (Array.isArray(list)) result[keyword] = list.map((child: JsonSchema) => change(child));
  }
  return result;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unwrapBulkArray(schema: JsonSchema): JsonSchema {
  const members = isSchema(schema.properties) ? Object.keys(schema.properties) : [];
  if (members.length !== 1 || members[0] !== "array") return schema;
  return { type: "array", items: (schema.properties as Record<string, JsonSchema>).array };
}

/** The item schema as a list under the one member every example sends a list under, when the schema lacks that member. */
function itemsAsExamplesSend(schema: JsonSchema, examples: unknown[]): JsonSchema {
  const listMembers = examples.map((example) => {
    const members = example && typeof example === "object" ? Object.entries(example) : [];
    return members.length === 1 && Array.isArray(members[0][1]) ? members[0][0] : undefined;
  });
  const [member] = listMembers;
  const properties = isSchema(schema.properties) ? schema.properties : {};
  if (member === undefined || listMembers.some((other) => other !== member) || member in properties) return schema;
  return { type: "object", required: [member], properties: { [member]: { type: "array", items: schema } } };
}

/**
 * A member declared an object that the examples send as a list of such objects (a schema
 * update's `relationships`, PUT /customObjects/schemas/{schemaId}): read as that list.
 */
function listsAsExamplesSend(schema: JsonSchema, examples: unknown[]): JsonSchema {
  const sent = examples.filter((example) => example !== undefined && example !== null);
  if (schema.type === "object" && sent.length > 0 && sent.every(Array.isArray)) return { type: "array", items: listsAsExamplesSend(schema, sent.flat()) };
  if (!isSchema(schema.properties)) return schema;
  const properties = Object.entries(schema.properties).map(([name, child]) => [
    name,
    listsAsExamplesSend(
      child as JsonSchema,
      sent.map((example) => (isSchema(example) ? example[name] : undefined)),
    ),
  ]);
  return { ...schema, properties: Object.fromEntries(properties) };
}

const FLAG_VALUES = [0, 1, "0", "1"];

function asRequest(schema: JsonSchema): JsonSchema {
  const result = mapSubschemas(schema, asRequest);
  if (isSchema(schema.properties) && Array.isArray(schema.required)) {
    const properties = schema.properties as Record<string, JsonSchema>;
    result.required = schema.required.filter((name: string) => properties[name]?.readOnly !== true);
  }
  if (schema.type === "boolean") {
    delete result.type;
    result.anyOf = [{ type: "boolean" }, { enum: FLAG_VALUES }];
  }
  // Enums written as prose (/taskOutcomes: "0 or 1"; "Positive", "Neutral", "or Negative"): the values they name.
  if (Array.isArray(schema.enum) && schema.enum.some((value) => typeof value === "string" && /(^|\s)or\s/.test(value)))
    result.enum = schema.enum.flatMap((value) => (typeof value === "string" ? value.split(/\s*(?:,|\bor\b)\s*/).filter(Boolean) : [value]));
  return result;
}

/**
 * Parses an example's JSON text. Two defects go beyond the README's list: a keyed
 * map written inside brackets, ["notes": "..."] (GET /accounts), read as an object;
 * indentation with no-break spaces (GET /import/bulk_import), read as spaces.
 */
function parseExample(text: string): unknown {
  const json = text.replace(/\u00a0/g, " ");
  try {
    return JSON.parse(json);
  } catch {
    return JSON.parse(bracketedMapsAsObjects(json));
  }
}

function bracketedMapsAsObjects(text: string): string {
  const characters = [...text];
  const openContainers: number[] = [];
  let inString = false;
  let afterString = false;
  for (let i = 0; i < characters.length; i++) {
    const c = characters[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') [inString, afterString] = [false, true];
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") openContainers.push(i);
    else if (c === "]" || c === "}") {
      const opener = openContainers.pop();
      if (opener !== undefined) characters[i] = characters[opener] === "{" ? "}" : "]";
    } else if (c === ":" && afterString) {
      // A key directly inside brackets: those brackets hold a map.
      const innermost = openContainers[openContainers.length - 1];
      if (innermost !== undefined) characters[innermost] = "{";
    }
    if (!/\s/.test(c)) afterString = false;
  }
  return characters.join("");
}
