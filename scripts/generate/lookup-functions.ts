// The lookups (provider/crm/lookups) as the package schema's functions: each `getX` of the
// namespace, its arguments and its result read from its TypeScript signature, with the doc
// comments written there, so that a lookup is described once, where it is written.

import { join } from "node:path";
import ts from "typescript";

type Spec = Record<string, unknown>;

const lookupsModule = join(__dirname, "..", "..", "provider", "crm", "lookups", "index.ts");

const docOf = (symbol: ts.Symbol, checker: ts.TypeChecker) => ts.displayPartsToString(symbol.getDocumentationComment(checker)).replace(/\s*\n\s*/g, " ");

/** The functions of package `pkg` (`${pkg}:index:getX`), and the object types they name, added to `types`. */
export function lookupFunctions(pkg: string, types: Record<string, Spec>): Record<string, Spec> {
  const program = ts.createProgram([lookupsModule], {
    strict: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    types: ["node"],
  });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(lookupsModule)!)!;

  interface Member {
    symbol: ts.Symbol;
    /** Its type in each object type of a union that has it. */
    types: ts.Type[];
    optional: boolean;
  }

  /** Members of an object type; of a union's members, each optional unless every member has it. */
  function membersOf(type: ts.Type): Map<string, Member> {
    const members = new Map<string, Member>();
    if (type.isUnion()) {
      const parts = type.types.map(membersOf);
      for (const part of parts) {
        for (const [name, member] of part) {
          const everywhere = parts.every((other) => other.has(name) && !other.get(name)!.optional);
          const known = members.get(name);
          if (known) known.types.push(...member.types);
          else members.set(name, { ...member, types: [...member.types], optional: !everywhere });
        }
      }
      return members;
    }
    if (type.isIntersection()) {
      for (const part of type.types) for (const [name, member] of membersOf(part)) members.set(name, member);
      return members;
    }
    for (const symbol of checker.getPropertiesOfType(type)) {
      const memberType = checker.getNonNullableType(checker.getTypeOfSymbol(symbol));
      if (memberType.flags & ts.TypeFlags.Never) continue;
      members.set(symbol.name, { symbol, types: [memberType], optional: (symbol.flags & ts.SymbolFlags.Optional) !== 0 });
    }
    return members;
  }

  /** One type, or the distinct types a member takes across a union. */
  function specOfAny(types: ts.Type[]): Spec {
    const specs = [...new Set(types.map((type) => JSON.stringify(typeSpec(type))))].map((text) => JSON.parse(text) as Spec);
    const flat = specs.flatMap((spec) => (Array.isArray(spec.oneOf) ? (spec.oneOf as Spec[]) : [spec]));
    const distinct = [...new Set(flat.map((spec) => JSON.stringify(spec)))].map((text) => JSON.parse(text) as Spec);
    return distinct.length === 1 ? distinct[0] : { oneOf: distinct };
  }

  function objectSpec(type: ts.Type): { properties: Record<string, Spec>; required: string[] } {
    const members = membersOf(type);
    const properties = Object.fromEntries(
      [...members].map(([name, member]) => [name, { ...specOfAny(member.types), description: docOf(member.symbol, checker) }]),
    );
    // A member that may be null is there, but not required to hold a value.
    const required = [...members].filter(([, member]) => !member.optional && !nullable(member.symbol)).map(([name]) => name);
    return { properties, required };
  }

  const nullable = (symbol: ts.Symbol) => {
    const type = checker.getTypeOfSymbol(symbol);
    return type.isUnion() && type.types.some((part) => part.flags & ts.TypeFlags.Null);
  };

  /**
   * Lookup types whose TypeScript name is not the name released schemas give them: getCustomObjectSchemas'
   * CustomObjectSchemaInfo is the schema's CustomObjectSchema, a name the resource crm.CustomObjectSchema
   * took in TypeScript after that release; renaming the schema's type would break the SDKs' users
   * (scripts/schema-compat.ts). The Go SDK names it CustomObjectSchemaType beside the resource.
   */
  const releasedTypeNames: Record<string, string> = { CustomObjectSchemaInfo: "CustomObjectSchema" };

  function typeSpec(given: ts.Type): Spec {
    if (given.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) return { $ref: "pulumi.json#/Any" };
    const type = checker.getNonNullableType(given);
    if (type.flags & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral)) return { type: "string" };
    if (type.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral)) return { type: "number" };
    if (type.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { type: "boolean" };
    if (type.isUnion() && type.types.every((part) => part.flags & ts.TypeFlags.StringLiteral)) return { type: "string" };
    if (type.isUnion() && type.types.every((part) => part.flags & ts.TypeFlags.BooleanLiteral)) return { type: "boolean" };
    if (type.isUnion() && type.types.every((part) => part.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike))) {
      const members = [...new Set(type.types.map((part) => JSON.stringify(typeSpec(part))))];
      return members.length === 1 ? JSON.parse(members[0]) : { oneOf: members.map((member) => JSON.parse(member)) };
    }
    if (checker.isArrayType(type)) return { type: "array", items: typeSpec(checker.getTypeArguments(type as ts.TypeReference)[0]) };
    const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
    if (index) return { type: "object", additionalProperties: typeSpec(index.type) };
    const name = (type.aliasSymbol ?? type.getSymbol())?.name;
    if (!name || name === "__type" || name === "__object") throw new Error(`a lookup names an object type without a name: ${checker.typeToString(type)}`);
    const token = `${pkg}:index:${releasedTypeNames[name] ?? name}`;
    if (!types[token]) {
      types[token] = {};
      const symbol = type.aliasSymbol ?? type.getSymbol()!;
      types[token] = { type: "object", description: docOf(symbol, checker), ...objectSpec(type) };
    }
    return { $ref: `#/types/${token}` };
  }

  const functions: Record<string, Spec> = {};
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    if (!/^get[A-Z]\w*$/.test(exported.name) || exported.name.endsWith("Output")) continue;
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const [signature] = checker.getSignaturesOfType(checker.getTypeOfSymbol(symbol), ts.SignatureKind.Call);
    // The arguments come first, unless the lookup takes none (only its options).
    const [first] = signature.parameters;
    const takesArgs = first !== undefined && first.name !== "opts";
    const result = checker.getAwaitedType(signature.getReturnType())!;
    functions[`${pkg}:index:${exported.name}`] = {
      description: docOf(symbol, checker),
      ...(takesArgs ? { inputs: objectSpec(checker.getNonNullableType(checker.getTypeOfSymbol(first))) } : {}),
      outputs: objectSpec(result),
    };
  }
  return functions;
}
