// The one rule of unique names (an account's name, a field's label): a deployment declares
// each once, regardless of case, or the two resources can only end in a duplicate or in
// fighting over one object. Each door checks it where it sees every resource: the dynamic
// classes where the program runs, the plugin in Check, where one process serves every
// resource of its provider.

import type { UniqueName } from "./core";
import { unknownValue } from "./inputs";
import { ServiceError } from "../transport/errors";

/** What names a unique field: a resource's type, and the field. */
interface Unique {
  declaration: { type: string; fields: ReadonlyArray<{ name: string; default?: unknown }> };
  uniqueName?: UniqueName;
}

/** The unique names declared so far, by type, each with what declared it. */
export class DeclaredNames {
  private readonly byType = new Map<string, Map<string, unknown>>();

  /**
   * The failure of the unique name of `inputs` when a declarant other than `by` (a URN, a
   * resource) declared it already; undefined when it is free (it is then `by`'s), not a known
   * text yet, or the resource has no unique field.
   */
  claim(resource: Unique, inputs: Record<string, unknown>, by: unknown): ServiceError | undefined {
    const unique = resource.uniqueName;
    const name = unique && inputs[unique.field];
    if (!unique || typeof name !== "string" || name === unknownValue) return undefined;
    const type = resource.declaration.type;
    if (!this.byType.has(type)) this.byType.set(type, new Map());
    const declared = this.byType.get(type)!;
    // Unset, the scope is its default, as check fills it in.
    const scope = unique.within && (inputs[unique.within] ?? resource.declaration.fields.find((field) => field.name === unique.within)?.default);
    if (scope === unknownValue) return undefined;
    const key = unique.within ? `${String(scope)}\u0000${name.toLowerCase()}` : name.toLowerCase();
    const holder = declared.get(key);
    if (holder !== undefined && holder !== by) {
      return new ServiceError(
        `${type} "${name}": two resources of this program declare the ${unique.what} "${name}" (${unique.what}s are unique regardless of case${unique.within ? `, per ${unique.within}` : ""}); give each its own ${unique.what}.`,
        { code: "duplicate", field: unique.field },
      );
    }
    declared.set(key, by);
    return undefined;
  }
}
