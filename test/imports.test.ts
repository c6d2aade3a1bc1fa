import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** The provider's own modules a module loads at run time: imports and re-exports of values, type-only ones aside. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022);
  const typeOnly = (statement: ts.ImportDeclaration) => {
    const clause = statement.importClause;
    const bindings = clause?.namedBindings;
    return !!clause && (clause.isTypeOnly || (!clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.every((element) => element.isTypeOnly)));
  };
  return source.statements.flatMap((statement) => {
    const loads = (ts.isImportDeclaration(statement) && !typeOnly(statement)) || (ts.isExportDeclaration(statement) && !statement.isTypeOnly);
    const specifier = loads && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : "";
    if (!specifier.startsWith(".")) return [];
    const target = resolve(dirname(file), specifier);
    return [existsSync(`${target}.ts`) ? `${target}.ts` : join(target, "index.ts")];
  });
}

// The provider's modules and the emulator's, each checked on its own.
for (const [what, root] of [
  ["the provider's modules", resolve(__dirname, "../provider")],
  ["the emulator's modules", resolve(__dirname, "../emulator")],
]) {
  describe(what, () => {
    it("load one another without a cycle", () => {
      const files = (readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith(".ts") && !file.includes("node_modules")).map((file) => join(root, file));
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
