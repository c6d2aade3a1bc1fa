// The contract checks themselves: what they tolerate and what they catch, so a
// passing contract test means what it says.

import assert from "node:assert/strict";
import { ReferenceDocument } from "./reference";
import { differences, shapeOfExamples } from "./shape";

describe("contract checks", () => {
  describe("response shape against examples", () => {
    const example = {
      account: { id: "1", name: "Example", accountUrl: null, isDefault: "1", links: [], tags: [{ id: "3", label: "x" }] },
    };
    const shape = shapeOfExamples([example]);

    it("accepts a response with the same members and types, and more members", () => {
      const response = { account: { id: "7", name: "Other", accountUrl: "https://a.example", isDefault: "0", links: [], tags: [], extra: 1 } };
      assert.deepEqual(differences(response, shape), []);
    });

    it("reports a missing member and a member of another type, with where they are", () => {
      const response = { account: { id: 7, accountUrl: null, isDefault: "1", links: [], tags: [{ id: "3" }] } };
      assert.deepEqual(differences(response, shape), [
        "$.account.id: number 7 where the reference shows string",
        "$.account.name: missing",
        "$.account.tags[0].label: missing",
      ]);
    });

    it("tolerates any type where the example shows null, 0/1 flags in any spelling, and an object for an empty []", () => {
      const response = { account: { id: "1", name: "n", accountUrl: 42, isDefault: true, links: { notes: "/notes" }, tags: [] } };
      assert.deepEqual(differences(response, shape), []);
    });

    it("still requires a member the example shows as null", () => {
      assert.deepEqual(differences({ account: { id: "1", name: "n", isDefault: 1, links: [], tags: [] } }, shape), ["$.account.accountUrl: missing"]);
    });

    it("does not take a flag for an ordinary number or string", () => {
      assert.deepEqual(differences({ n: 2, s: "7", f: 5 }, shapeOfExamples([{ n: "2", s: 7, f: "1" }])), [
        "$.n: number 2 where the reference shows string",
        '$.s: string "7" where the reference shows number',
        "$.f: number 5 where the reference shows string",
      ]);
    });

    it("skips excused members at any index", () => {
      const excused = new Set(["$.account.tags[].label", "$.account.name"]);
      assert.deepEqual(differences({ account: { id: "1", accountUrl: null, isDefault: "1", links: [], tags: [{ id: "3" }] } }, shape, excused), []);
    });

    it("expects of list items only the members every example item shows", () => {
      const listShape = shapeOfExamples([
        {
          items: [
            { id: "1", a: "x" },
            { id: "2", b: "y" },
          ],
        },
      ]);
      assert.deepEqual(differences({ items: [{ id: "3" }, { a: "z" }] }, listShape), ["$.items[1].id: missing"]);
    });

    it("reports a missing body", () => {
      assert.deepEqual(differences(undefined, shapeOfExamples([{}])), ["$: missing"]);
    });
  });

  describe("reading the reference documents", () => {
    const crm = new ReferenceDocument("crm-v3.openapi.json");
    const chat = new ReferenceDocument("chat.openapi.json");

    it("reads a keyed map written in brackets as an object (GET /accounts)", () => {
      const [list] = crm.operation("GET", "/accounts").responseExamples(200) as Array<{ accounts: Array<{ links: unknown }> }>;
      assert.deepEqual(Object.keys(list.accounts[0].links as object), ["notes", "accountCustomFieldData", "accountContacts"]);
    });

    it("takes the bulk operations' {array: item} request as a top-level array", () => {
      const schema = crm.operation("POST", "/accountCustomFieldData/bulkCreate").requestSchema();
      assert.equal(schema?.type, "array");
      assert.deepEqual((schema?.items as { required: string[] } | undefined)?.required, ["customerAccountId", "customFieldId", "fieldValue"]);
    });

    it("lets request booleans be 0/1 flags", () => {
      const schema = crm.operation("POST", "/calendars").requestSchema() as { properties: { calendar: { properties: Record<string, unknown> } } };
      assert.deepEqual(schema.properties.calendar.properties.notification, {
        description: "Whether or not this calendar has notifications",
        anyOf: [{ type: "boolean" }, { enum: [0, 1, "0", "1"] }],
      });
    });

    it("resolves $refs and does not require read-only members of a request", () => {
      const schema = chat.operation("POST", "/channel/whatsapp/flow/{id}/run").requestSchema() as any;
      const tag = schema.properties.contact_list.items.properties.tags.items;
      assert.deepEqual([tag.properties.name.maxLength, tag.required], [100, ["name"]]);
    });
  });
});
