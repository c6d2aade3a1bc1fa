// A kind's definition: everything the provider knows of one resource, and nothing of the doors
// that serve it. Both doors are made of it: the plugin serves its core by its declaration's token
// (./plugin/server.ts), and its dynamic door module, written by `npm run generate` at the path
// deployed stacks require (provider/crm/<name>.ts), wraps it (./dynamic/door.ts). The registry
// (./registry.ts) lists the definitions; the docs, the schema, the SDKs and the export read them.

import type { z } from "zod";
import type { ExportDeclaration } from "./crm/crud/export-declaration";
import type { ServiceObject } from "./crm/service/collection";
import type { ResourceCore } from "./kit/core";
import type { AnyResourceDeclaration } from "./kit/declaration";

export type Definition<Core extends ResourceCore = ResourceCore> = {
  /** What the resource is, in a sentence or two: its class's doc comment, its schema's and its page's description. */
  description: string;
  declaration: AnyResourceDeclaration;
  inputSchema: z.AnyZodObject;
  core: Core;
} & (
  | { exported?: undefined; inputsDeclaring?: undefined }
  | {
      /** What `pulumi-crm export` reads of the kind (a setup or data kind of the account). */
      exported: ExportDeclaration;
      /** The inputs declaring an object as the service holds it; undefined for an object of another kind in its collection. */
      inputsDeclaring(object: ServiceObject): Record<string, unknown> | undefined;
    }
);

/** What `pulumi-crm export` reads of a kind it declares the objects of. */
export interface ExportedParts {
  exported: ExportDeclaration;
  inputsDeclaring(object: ServiceObject): Record<string, unknown> | undefined;
}

export interface Made<Core extends ResourceCore, Declaration extends AnyResourceDeclaration> {
  description: string;
  declaration: Declaration;
  inputSchema: Declaration["inputSchema"];
  core: Core;
}

/** A definition of a kind: its description, declaration and core, and what the export reads of it if it declares its objects. */
export function defineKind<Core extends ResourceCore, Declaration extends AnyResourceDeclaration>(
  description: string,
  declaration: Declaration,
  core: Core,
): Made<Core, Declaration> & { exported?: undefined; inputsDeclaring?: undefined };
export function defineKind<Core extends ResourceCore, Declaration extends AnyResourceDeclaration>(
  description: string,
  declaration: Declaration,
  core: Core,
  exportedParts: ExportedParts,
): Made<Core, Declaration> & ExportedParts;
export function defineKind(description: string, declaration: AnyResourceDeclaration, core: ResourceCore, exportedParts?: ExportedParts): Definition {
  return { description, declaration, inputSchema: declaration.inputSchema, core, ...exportedParts } as Definition;
}
