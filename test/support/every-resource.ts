// What test/reliability/programs/every-resource declares, given to it as the stack config
// `resources`: `copies` of each CRM object a create makes (each registered resource whose
// example in ./resource-examples.ts round-trips by create), and once each object a
// deployment takes over (the branding), with the examples' inputs. The n-th copy's
// dependents refer to the n-th account and to a text field declared for them, as a user's
// program passes `account.id`, and to the n-th of contacts that exist before the stack.

import { type RegisteredResource, resources, typeOf } from "../../provider/registry";
import { type ResourceExample, resourceExamples } from "./resource-examples";

/** One resource of the program: made by its class's name, the inputs that refer to another by its name given that one's id. */
export interface DeclaredResource {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  references: Record<string, string>;
}

export interface EveryResourceStack {
  /** The stack config that declares them. */
  config: { resources: string };
  /** How many objects the service lists once they are made (the tally's count): all but the taken over. */
  objects: number;
}

/** The program's resources: `copies` of each of `registered` (by default every registered resource). */
export function everyResourceStack(copies: number, contactIds: readonly string[], registered: readonly RegisteredResource[] = resources): EveryResourceStack {
  const exampleOf = (type: string) => resourceExamples[type as keyof typeof resourceExamples] as ResourceExample;
  // The parents the examples take, named by resources of the program: the copy's own account, pipeline and user group, and a text field.
  const parentsOf = (n: number) => ({
    account: `account-${n}`,
    contact: contactIds[n - 1],
    // The program's contact custom field of the same copy, declared before the group member that refers to it.
    contactField: `contact-custom-field-${n}`,
    textField: `text-field-${n}`,
    pipeline: `pipeline-${n}`,
    userGroup: `user-group-${n}`,
    list: `list-${n}`,
  });
  const declare = (resource: RegisteredResource, name: string, n: number): DeclaredResource => {
    const parents = parentsOf(n);
    // JSON leaves out what is undefined, as an input left out.
    const inputs = exampleOf(typeOf(resource)).inputs(parents, n);
    const references = Object.fromEntries(
      Object.entries(inputs).filter(([, value]) =>
        [parents.account, parents.contactField, parents.textField, parents.pipeline, parents.userGroup, parents.list].includes(value as string),
      ),
    );
    return { type: typeOf(resource), name, inputs, references: references as Record<string, string> };
  };
  const declared: DeclaredResource[] = [];
  for (let n = 1; n <= copies; n++) {
    declared.push({
      type: "crm.AccountCustomField",
      name: parentsOf(n).textField,
      inputs: { fieldLabel: `Soak text ${n}`, fieldType: "text" },
      references: {},
    });
    for (const resource of registered) if (exampleOf(typeOf(resource)).roundTrip === "create") declared.push(declare(resource, `${resource.name}-${n}`, n));
  }
  for (const resource of registered) if (exampleOf(typeOf(resource)).roundTrip === "update") declared.push(declare(resource, resource.name, 1));
  return {
    config: { resources: JSON.stringify(declared) },
    objects: declared.filter((resource) => exampleOf(resource.type).collection).length,
  };
}
