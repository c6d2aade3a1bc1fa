// Each resource's declaration (provider/kit/declaration.ts) against what behaves by it: the
// generated files (types, docs tables, schemas, this repository's field table) are what `npm
// run generate` writes now; diff replaces on exactly the declared fields and never compares
// those read once; the class takes the declared inputs and has the declared outputs. What is
// generated from the declaration is not compared with it again: freshness covers it. The
// dynamic type each class registers, which the schema aliases, is shown on the real CLI by
// test/plugin/moved-stack.test.ts (a stack of every importable type moved with no change).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import type { z } from "zod";
import type { ValueType } from "../provider/kit/value-types";
import { resources, typeOf } from "../provider/registry";
import { inputDescription, outputDescription } from "../scripts/generate/declaration-text";
import { generatedFiles, repoRoot } from "../scripts/generate/index";
import { resourceExamples } from "./support/resource-examples";
import { dynamicProviderOf } from "./support/provider-steps";

const parents = { account: "3", contact: "4", contactField: "8", textField: "5", pipeline: "6", userGroup: "7", list: "9" };

/** Another valid-looking value of a field's type, for diff (which compares, and does not check). */
function changed(type: ValueType, current: unknown): unknown {
  switch (type.kind) {
    case "string":
      return type.format === "email" ? "changed@example.com" : type.format === "uuid" ? "0f8fad5b-d9cb-469f-a165-70867728950e" : `${String(current ?? "")}x`;
    case "id":
      return "999";
    case "boolean":
      return !current;
    case "enum":
      return type.values.find((value) => value !== current);
    case "integer":
    case "number":
      return Number(current ?? type.minimum ?? 0) + 1;
    case "list": {
      const items = (current as unknown[] | undefined) ?? [];
      return [...items, items.length ? items[0] : "changed"];
    }
    default:
      return `${JSON.stringify(current)} changed`;
  }
}

describe("the resources' declarations", () => {
  it("generate what is committed: types, docs tables and package schemas (`npm run generate`)", () => {
    const stale = [...generatedFiles()].filter(([path, content]) => {
      try {
        return readFileSync(join(repoRoot, path), "utf8") !== content;
      } catch {
        return true;
      }
    });
    assert.deepEqual(
      stale.map(([path]) => path),
      [],
      "run `npm run generate` and commit the result",
    );
  });

  // The classes as the compiler sees them, read once (some 2 s), by the tests that need them.
  let program: ts.Program | undefined;
  const compiled = () => {
    program ??= ts.createProgram([join(repoRoot, "provider/index.ts")], {
      strict: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      types: ["node"],
    });
    return { program, checker: program.getTypeChecker() };
  };

  /** The class's constructor's Args members (name, optional), and its instance's members. */
  function classFacts(namespace: string, name: string, className: string) {
    const { program, checker } = compiled();
    const source = program.getSourceFile(join(repoRoot, "provider", namespace, `${name}.ts`))!;
    const found = source.statements.find(
      (statement): statement is ts.ClassDeclaration => ts.isClassDeclaration(statement) && statement.name?.text === className,
    )!;
    const classType = checker.getTypeOfSymbolAtLocation(checker.getSymbolAtLocation(found.name!)!, found);
    const argsParameter = classType.getConstructSignatures()[0].getParameters()[1];
    const argsType = checker.getTypeOfSymbolAtLocation(argsParameter, found);
    // What an editor shows of each member: its doc comment, as one line.
    const docOf = (property: ts.Symbol) => ts.displayPartsToString(property.getDocumentationComment(checker)).replace(/\s*\n\s*/g, " ");
    const args = checker.getPropertiesOfType(argsType).map((property) => [property.name, (property.flags & ts.SymbolFlags.Optional) !== 0] as const);
    const argsDocs = new Map(checker.getPropertiesOfType(argsType).map((property) => [property.name, docOf(property)]));
    const instanceMembers = checker.getPropertiesOfType(checker.getTypeAtLocation(found.name!));
    const instance = instanceMembers.map((property) => property.name);
    const outputDocs = new Map(instanceMembers.map((property) => [property.name, docOf(property)]));
    return { args, argsDocs, instance, outputDocs };
  }

  for (const resource of resources) {
    const { declaration } = resource.definition;
    const inputs = declaration.fields.filter((field) => field.role !== "output");
    const example: Record<string, unknown> = resourceExamples[typeOf(resource)].inputs(parents, 1);

    describe(typeOf(resource), () => {
      it("its diff replaces on exactly the declared fields, and never compares those read once", async () => {
        // Diff compares the checked inputs with the outputs; it reads no setting, and sends no request.
        const olds = (resource.definition.inputSchema as z.AnyZodObject).parse(example);
        for (const field of inputs) {
          const news = { ...olds, [field.name]: changed(field.type, olds[field.name]) };
          const diff = await dynamicProviderOf(resource).diff("1", olds, news);
          if (field.role === "input") assert.equal(diff.changes, false, `${field.name} is never a change`);
          else assert.deepEqual([diff.changes, diff.replaces?.includes(field.name) ?? false], [true, field.replaceOnChanges], `a change of ${field.name}`);
        }
      });

      it("its class takes the declared inputs, and has the declared outputs with their descriptions as editors show them", () => {
        assert.equal(declaration.type, typeOf(resource), "the declaration names the registered class");
        const facts = classFacts(resource.namespace, resource.name, resource.className);
        assert.deepEqual(
          facts.args,
          inputs.map((field) => [field.name, !field.required]),
        );
        for (const field of inputs) assert.equal(facts.argsDocs.get(field.name), inputDescription(field), `${resource.className}Args.${field.name}`);
        for (const field of declaration.fields.filter((field) => field.role !== "input")) {
          assert.equal(facts.outputDocs.get(field.name), outputDescription(field), `${resource.className}.${field.name}`);
        }
      });
    });
  }
});
