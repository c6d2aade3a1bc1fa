// The places-per-field count (scripts/generate/field-places.ts, CONTRIBUTING's table): it tells a
// restatement of a field from a use of it in logic, and no registered resource restates a field
// in more than 2 places (its declaration, and one wire quirk).

import assert from "node:assert/strict";
import { fieldPlaces, mentionsIn, mostRestatements, restatements } from "../scripts/generate/field-places";

/** A resource file writing its state, type and body by hand beside its declaration, and using its fields in logic. */
const handWritten = `
export const declaration = declareResource({
  namespace: "crm",
  name: "Thing",
  inputs: {
    name: input(text, "The name.", { wire: { answer: "title", read: String } }),
    accountId: input(id, "The account."),
  },
});
interface ThingState {
  name: string;
  accountId: string;
}
const stateOf = (object) => ({ name: String(object.title), accountId: idOf(object.account) });
const createBody = (inputs) => ({ title: inputs.name, account: Number(inputs.accountId) });
const managed = ["name", "accountId"];
const label = labelBy(type, "name");
const find = (client, inputs) => walk(client, "/things", { search: inputs.name });
const path = (inputs) => \`/accounts/\${inputs.accountId}/things\`;
`;

describe("the places-per-field count", () => {
  it("tells a restatement (the declaration, a state, a type, a body, a list of names) from a use in logic (a label, a query, a path)", () => {
    const found = mentionsIn(handWritten, new Set(["name", "accountId"]));
    const kinds = (field: string) => {
      const { lines, restating } = found.get(field)!;
      return { places: lines.size, restated: restating.size };
    };
    // Restated: the declaration entry (its wire form on another line is the entry still), the type, the state, the body, the list; used: the label and the query, the path.
    assert.deepEqual(kinds("name"), { places: 7, restated: 5 });
    assert.deepEqual(kinds("accountId"), { places: 6, restated: 5 });
  });

  it(`no field of a registered resource is restated in more than ${mostRestatements} places: what remains above is a use in logic`, () => {
    const restated = fieldPlaces()
      .filter((entry) => restatements(entry) > mostRestatements)
      .map((entry) => `${entry.resource} ${entry.field} ${restatements(entry)}`);
    assert.deepEqual(restated, []);
  });
});
