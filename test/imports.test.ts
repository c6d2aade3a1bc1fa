import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** The modules of its own package a module loads at run time (imports and re-exports of values), and with `types` its type-only imports too. */
function runtimeImports(file: string, types = false): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022);
  const typeOnly = (statement: ts.ImportDeclaration) => {
    const clause = statement.importClause;
    const bindings = clause?.namedBindings;
    return (
      !!clause && (clause.isTypeOnly || (!clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.every((element) => element.isTypeOnly)))
    );
  };
  return source.statements.flatMap((statement) => {
    const loads =
      (ts.isImportDeclaration(statement) && (types || !typeOnly(statement))) || (ts.isExportDeclaration(statement) && (types || !statement.isTypeOnly));
    const specifier = loads && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : "";
    if (!specifier.startsWith(".")) return [];
    const target = resolve(dirname(file), specifier);
    if (existsSync(`${target}.ts`)) return [`${target}.ts`];
    return existsSync(join(target, "index.ts")) ? [join(target, "index.ts")] : [];
  });
}

// The provider's modules and the emulator's, each checked on its own.
for (const [what, root] of [
  ["the provider's modules", resolve(__dirname, "../provider")],
  ["the emulator's modules", resolve(__dirname, "../emulator")],
]) {
  describe(what, () => {
    it("load one another without a cycle", () => {
      const files = (readdirSync(root, { recursive: true }) as string[])
        .filter((file) => file.endsWith(".ts") && !file.includes("node_modules"))
        .map((file) => join(root, file));
      const imports = new Map(files.map((file) => [file, runtimeImports(file)]));
      const cycles: string[] = [];
      const done = new Set<string>();
      const visit = (file: string, path: string[]) => {
        if (path.includes(file)) return void cycles.push([...path.slice(path.indexOf(file)), file].map((step) => relative(root, step)).join(" -> "));
        if (done.has(file)) return;
        for (const imported of imports.get(file) ?? []) visit(imported, [...path, file]);
        done.add(file);
      };
      for (const file of files) visit(file, []);
      assert.deepEqual(cycles, []);
    });
  });
}

describe("the emulator's layers", () => {
  const root = resolve(__dirname, "../emulator/src");
  const layerOf = (file: string) => relative(root, file).split("/")[0].replace(/\.ts$/, "");
  // From the top: the server (core), the services (crm, chat), what they share (the contract, leaf pieces).
  const below: Record<string, readonly string[]> = {
    core: ["crm", "chat", "service", "shared"],
    crm: ["service", "shared"],
    chat: ["service", "shared"],
    service: [],
    shared: [],
  };

  it("import only what lies below them, types included: the services nothing of the server", () => {
    const upward = (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => file.endsWith(".ts"))
      .map((file) => join(root, file))
      .flatMap((file) =>
        runtimeImports(file, true)
          .filter((imported) => layerOf(imported) !== layerOf(file) && !below[layerOf(file)].includes(layerOf(imported)))
          .map((imported) => `${relative(root, file)} -> ${relative(root, imported)}`),
      );
    assert.deepEqual(upward, []);
  });
});

describe("the provider's layers", () => {
  const root = resolve(__dirname, "../provider");
  const inRoot = (file: string) => relative(root, file);
  const namespaceIndexes = new Set(["index.ts", "crm/index.ts", "chat/index.ts"]);
  // The doors: the dynamic door, the plugin, and the door modules `npm run generate` writes at the paths deployed stacks require.
  const isDoor = (file: string) =>
    /^(dynamic|plugin)\//.test(inRoot(file)) ||
    (/^(crm|chat)\/[\w-]+\.ts$/.test(inRoot(file)) && !/generated-types\.ts$/.test(file) && !namespaceIndexes.has(inRoot(file)));
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith(".ts")).map((file) => join(root, file));

  it("hold a door module for every resource and nothing else beside the namespaces' indexes and types", () => {
    const doorModules = files.filter((file) => /^(crm|chat)\/[\w-]+\.ts$/.test(inRoot(file)) && isDoor(file));
    for (const file of doorModules)
      assert.match(readFileSync(file, "utf8"), /^\/\/ Written by `npm run generate` from provider\/registry\.ts: do not edit\./, inRoot(file));
  });

  // The commands stand beside the doors: a drift check reads the state the plugin wrote as the plugin does (plugin/properties.ts).
  const besideTheDoors = (file: string) => inRoot(file).startsWith("commands/");

  it("import no door below the doors, types included: definitions, cores and clients know neither door", () => {
    const upward = files
      .filter((file) => !isDoor(file) && !besideTheDoors(file) && !namespaceIndexes.has(inRoot(file)))
      .flatMap((file) =>
        runtimeImports(file, true)
          .filter(isDoor)
          .map((imported) => `${inRoot(file)} -> ${inRoot(imported)}`),
      );
    assert.deepEqual(upward, []);
  });

  it("keep the plugin free of the dynamic door: it serves the definitions' cores", () => {
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const imported of runtimeImports(file)) visit(imported);
    };
    visit(join(root, "plugin", "server.ts"));
    assert.deepEqual([...loaded].filter((file) => isDoor(file) && !inRoot(file).startsWith("plugin/")).map(inRoot), []);
  });
});
