// What a response must look like, read from the reference's examples: the members
// they show and the JSON type of each. A response may carry more than the examples.

type JsonType = "string" | "number" | "boolean" | "null" | "object" | "array";

export interface Shape {
  types: Set<JsonType>;
  /** Every value seen was a flag (0, 1, "0", "1", true, false): the README's 0/1 defect. */
  flag: boolean;
  /** Members every example object shows. */
  members: Map<string, Shape>;
  /** Shape of array items; undefined when every example array was empty. */
  items?: Shape;
}

function jsonType(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value as JsonType;
}

const FLAGS: unknown[] = [0, 1, "0", "1", true, false];

export function shapeOfExamples(examples: unknown[]): Shape {
  return examples.map(shapeOfExample).reduce(merge);
}

function shapeOfExample(value: unknown): Shape {
  const shape: Shape = { types: new Set([jsonType(value)]), flag: FLAGS.includes(value), members: new Map() };
  if (Array.isArray(value) && value.length > 0) shape.items = shapeOfExamples(value);
  if (jsonType(value) === "object") {
    for (const [name, member] of Object.entries(value as object)) shape.members.set(name, shapeOfExample(member));
  }
  return shape;
}

/** Two examples of one thing: either type will do, members shown by both are expected. */
function merge(a: Shape, b: Shape): Shape {
  const members = new Map<string, Shape>();
  const aIsObject = a.types.has("object");
  const bIsObject = b.types.has("object");
  for (const [name, member] of a.members) {
    const other = b.members.get(name);
    if (other) members.set(name, merge(member, other));
    else if (!bIsObject) members.set(name, member);
  }
  if (!aIsObject) for (const [name, member] of b.members) members.set(name, member);
  const items = a.items && b.items ? merge(a.items, b.items) : (a.items ?? b.items);
  return { types: new Set([...a.types, ...b.types]), flag: a.flag && b.flag, members, items };
}

/**
 * Where the response differs from the shape, one line per difference. Tolerated: any
 * type where an example shows null (null-able), a flag for a flag (README 0/1 defect),
 * and an object where an example shows [] (PHP writes an empty map as an empty array).
 * `excused` names members not to check, as "$.accounts[].links" (any index).
 */
export function differences(actual: unknown, expected: Shape, excused: ReadonlySet<string> = new Set(), at = "$"): string[] {
  if (excused.has(at.replace(/\[\d+\]/g, "[]"))) return [];
  if (actual === undefined) return [`${at}: missing`];
  // An example that only ever shows null says nothing about the type.
  const onlyNull = expected.types.size === 1 && expected.types.has("null");
  if (onlyNull || (actual === null && expected.types.has("null"))) return [];
  const type = jsonType(actual);
  const emptyArrayForObject = type === "object" && expected.types.has("array") && !expected.items;
  if (expected.flag && FLAGS.includes(actual)) return [];
  if (!expected.types.has(type) && !emptyArrayForObject) {
    return [`${at}: ${describe(actual)} where the reference shows ${[...expected.types].join(" or ")}`];
  }
  if (type === "object") {
    const record = actual as Record<string, unknown>;
    return [...expected.members].flatMap(([name, member]) => differences(record[name], member, excused, `${at}.${name}`));
  }
  if (type === "array" && expected.items) {
    const items = expected.items;
    return (actual as unknown[]).flatMap((item, index) => differences(item, items, excused, `${at}[${index}]`));
  }
  return [];
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return `${jsonType(value)} ${text.length > 40 ? `${text.slice(0, 40)}...` : text}`;
}
