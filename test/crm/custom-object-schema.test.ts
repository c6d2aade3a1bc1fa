import assert from "node:assert/strict";
import * as provider from "../../provider/crm/custom-object-schema";
import { getCustomObjectSchemas } from "../../provider/crm/lookups";
import { emulatorCall } from "../../scripts/harness/emulator";
import { writesByRoute, writesSince } from "../support/adoption";
import { adoptIdClaims } from "../../provider/crm/crud";
import { CrmClient } from "../../provider/crm/service/client";
import { releaseNaturalKey } from "../../provider/kit/adoption";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

const labels = (singular: string, plural = `${singular}s`) => ({ singular, plural });
const plan = { id: "plan", labels: labels("Plan"), type: "dropdown", required: true, options: ["Basic", "Pro"] };
const seats = { id: "seats", labels: labels("Seats", "Seats"), type: "number" };
const owner = { id: "owner", labels: labels("Owner"), namespace: "contacts" };
const subscription = { slug: "subscription-plan", labels: labels("Subscription"), fields: [plan, seats], relationships: [owner] };
const schemaPath = (id: string) => `/api/3/customObjects/schemas/${id}`;

describeResource(
  {
    type: "crm.CustomObjectSchema",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      existing: async ({ emulator }) => {
        // As another client sends it: `required` rather than isRequired, options as plain values, every field a scale.
        const schema = {
          slug: "tickets",
          labels: labels("Ticket"),
          description: "Support tickets",
          fields: [{ id: "subject", labels: labels("Subject"), type: "text", required: true, scale: 0 }],
          relationships: [{ ...owner, hasMany: true }],
        };
        const id = (await emulatorCall(emulator, "POST", "/api/3/customObjects/schemas", { schema })).body.schema.id;
        const fields = [{ id: "subject", labels: labels("Subject"), type: "text", required: true }];
        return {
          id,
          inputs: { slug: "tickets", labels: labels("Ticket"), description: "Support tickets", fields, relationships: [{ ...owner, hasMany: true }] },
        };
      },
      changes: { labels: labels("Case"), description: "Cases opened by customers" },
      updateRoute: "PUT /api/3/customObjects/schemas/:schemaId",
      unknownId: "00000000-0000-4000-8000-00000000dead",
    },
    badInputs: [
      [{ labels: labels("A") }, "slug", /^crm\.CustomObjectSchema: slug is required: the schema's slug/],
      [{ ...subscription, slug: "My Object" }, "slug", /slug must be lower-case letters and digits, words joined by dashes, such as my-object/],
      [{ ...subscription, labels: { singular: "Plan" } }, "labels.plural", /labels\.plural is required: the schema's plural label/],
      [
        { ...subscription, fields: [{ ...seats, type: "money" }] },
        "fields.0.type",
        /fields\[0\]\.type must be one of text, textarea, number, decimal, currency, date, datetime, dropdown, multiselect/,
      ],
      [{ ...subscription, fields: [{ ...plan, options: undefined }] }, "fields.0.options", /options is required for a dropdown field: its choices/],
      [{ ...subscription, fields: [{ ...seats, options: ["1"] }] }, "fields.0.options", /options is only for dropdown and multiselect fields, not number/],
      [{ ...subscription, fields: [{ ...plan, scale: 2 }] }, "fields.0.scale", /scale is only for number and decimal fields, not dropdown/],
      [{ ...subscription, fields: [plan, plan] }, "fields", /must name each field once: plan given twice/],
      [
        { ...subscription, relationships: [{ ...owner, namespace: "orders" }] },
        "relationships.0.namespace",
        /namespace must be one of contacts, accounts, deals/,
      ],
      [{ ...subscription, adoptId: "12" }, "adoptId", /must be the id of an existing custom object schema: a UUID/],
      [{ ...subscription, deleteRemovedFields: "yes" }, "deleteRemovedFields", /deleteRemovedFields must be true or false/],
    ],
    roundTrip: {
      inputs: [
        subscription,
        {
          slug: "deal-review",
          labels: labels("Deal review"),
          description: "Reviews of won deals",
          fields: [{ id: "score", labels: labels("Score"), type: "decimal", scale: 2 }],
        },
      ],
    },
  },
  (service) => {
    const make = async (inputs: Record<string, unknown> = subscription) => provider.create(await checked(provider, inputs));
    const held = async (id: string) => (await emulatorCall(service.emulator, "GET", `${schemaPath(id)}?showFields=all`)).body.schema;

    it("changes the slug, labels, description, a field and a relationship in place, and adds both: one PUT, never a replacement", async () => {
      const created = await make();
      const news = await checked(provider, {
        ...subscription,
        slug: "plan-holder",
        labels: labels("Plan holder"),
        description: "Who holds which plan",
        fields: [{ ...plan, labels: labels("Tier"), options: ["Basic", "Pro", "Team"] }, seats, { id: "renewal", labels: labels("Renewal"), type: "date" }],
        relationships: [
          { ...owner, description: "Who pays" },
          { id: "account", labels: labels("Account"), namespace: "accounts" },
        ],
      });
      assert.deepEqual((await provider.diff(created.id, created.outs, news)).replaces, []);
      const before = await writesByRoute(service.emulator);
      const { outs } = await provider.update(created.id, created.outs, news);
      assert.deepEqual(await writesSince(service.emulator, before), { "PUT /api/3/customObjects/schemas/:schemaId": 1 });
      assert.deepEqual((await provider.read(created.id, outs)).props, outs);
      const schema = await held(created.id);
      assert.equal(schema.slug, "plan-holder");
      assert.deepEqual(schema.fields.map((field: { id: string }) => field.id).sort(), ["plan", "renewal", "seats"]);
      assert.deepEqual(outs.fields[0].options, ["Basic", "Pro", "Team"]);
      assert.equal(outs.relationships[1].description, "Who pays");
    });

    it("refuses a field's type change, and a relationship removed or re-pointed, before anything is written", async () => {
      const created = await make();
      const refusals: Array<[Record<string, unknown>, RegExp]> = [
        [
          { ...subscription, fields: [plan, { ...seats, type: "text" }] },
          /the field seats is of type number, .*it cannot become text\. Declare it as number, or give the new field another id/,
        ],
        [{ ...subscription, relationships: [] }, /the schema holds the relationship owner, no longer declared, and the service cannot remove a relationship/],
        [
          { ...subscription, relationships: [{ ...owner, namespace: "deals" }] },
          /the relationship owner relates one of contacts, which the service cannot change/,
        ],
      ];
      for (const [inputs, message] of refusals) {
        const before = await writesByRoute(service.emulator);
        await assert.rejects(provider.update(created.id, created.outs, await checked(provider, inputs)), (error: Error) => {
          assert.match(error.message, /^crm\.CustomObjectSchema "subscription-plan": /);
          assert.match(error.message, message);
          return true;
        });
        assert.deepEqual(await writesSince(service.emulator, before), {}, String(message));
      }
      assert.deepEqual((await provider.read(created.id, created.outs)).props, created.outs);
    });

    it("a field removed from the program is refused, and kept, unless deleteRemovedFields: true deletes it and its values", async () => {
      const created = await make();
      await emulatorCall(service.emulator, "POST", `/api/3/customObjects/records/${created.id}`, {
        record: {
          fields: [
            { id: "plan", value: "Pro" },
            { id: "seats", value: 5 },
          ],
        },
      });
      const withoutSeats = { ...subscription, fields: [plan] };
      const before = await writesByRoute(service.emulator);
      await assert.rejects(provider.update(created.id, created.outs, await checked(provider, withoutSeats)), (error: Error) => {
        assert.match(
          error.message,
          /the schema holds the field seats, no longer declared; deleting a field deletes its value on every record, irreversibly\. Declare it again, or set deleteRemovedFields: true to delete it\./,
        );
        return true;
      });
      assert.deepEqual(await writesSince(service.emulator, before), {});
      assert.ok((await held(created.id)).fields.some((field: { id: string; status?: string }) => field.id === "seats" && !field.status));

      const writes = await writesByRoute(service.emulator);
      const { outs } = await provider.update(created.id, created.outs, await checked(provider, { ...withoutSeats, deleteRemovedFields: true }));
      assert.deepEqual(await writesSince(service.emulator, writes), {
        "PUT /api/3/customObjects/schemas/:schemaId": 1,
        "DELETE /api/3/customObjects/schemas/:schemaId/fields/:fieldId": 1,
      });
      assert.deepEqual(
        outs.fields.map((field: { id: string }) => field.id),
        ["plan"],
      );
      assert.deepEqual((await provider.read(created.id, outs)).props, outs);
      assert.equal((await held(created.id)).fields.find((field: { id: string }) => field.id === "seats").status, "marked_for_deletion");
      const { records } = (await emulatorCall(service.emulator, "GET", `/api/3/customObjects/records/${created.id}`)).body;
      assert.deepEqual(records[0].fields, [{ id: "plan", value: "Pro" }]);
    });

    it("finds a field changed or added behind its back, repairs the change, refuses to drop the added one unasked, and drops it when asked", async () => {
      const created = await make();
      const news = await checked(provider, subscription);
      await emulatorCall(service.emulator, "PUT", schemaPath(created.id), { schema: { fields: [{ ...seats, labels: labels("Licences", "Licences") }] } });
      const drifted = await provider.read(created.id, created.outs);
      assert.deepEqual(drifted.props?.fields.find((field: { id: string }) => field.id === "seats").labels, labels("Licences", "Licences"));
      assert.equal((await provider.diff(created.id, drifted.props!, news)).changes, true);
      const repaired = await provider.update(created.id, drifted.props!, news);
      assert.deepEqual(repaired.outs, created.outs);
      assert.deepEqual((await provider.read(created.id, repaired.outs)).props, created.outs, "the repair as the service holds it");

      await emulatorCall(service.emulator, "PUT", schemaPath(created.id), {
        schema: { fields: [{ id: "notes", labels: labels("Notes", "Notes"), type: "textarea" }] },
      });
      const added = await provider.read(created.id, repaired.outs);
      assert.equal((await provider.diff(created.id, added.props!, news)).changes, true);
      await assert.rejects(provider.update(created.id, added.props!, news), /the schema holds the field notes, no longer declared/);
      // Without a refresh too: an update is held to the schema as the service holds it, not as the state saw it.
      const described = await checked(provider, { ...subscription, description: "Plans held" });
      await assert.rejects(provider.update(created.id, repaired.outs, described), /the schema holds the field notes, no longer declared/);
      const { outs } = await provider.update(
        created.id,
        repaired.outs,
        await checked(provider, { ...subscription, description: "Plans held", deleteRemovedFields: true }),
      );
      assert.deepEqual(
        outs.fields.map((field: { id: string }) => field.id),
        ["plan", "seats"],
      );
      const schema = await held(created.id);
      assert.equal(schema.description, "Plans held");
      assert.equal(schema.fields.find((field: { id: string }) => field.id === "notes").status, "marked_for_deletion");
    });

    it("imports from the id alone what the export declares, which the lookup gives too, and an export's declaration takes it over with no write", async () => {
      const created = await make();
      const imported = await provider.read(created.id, {});
      assert.deepEqual(imported.props, created.outs);
      const listed = (await emulatorCall(service.emulator, "GET", "/api/3/customObjects/schemas")).body.schemas.find(
        (schema: { id: string }) => schema.id === created.id,
      );
      assert.deepEqual(provider.inputsDeclaring(listed), imported.inputs);

      // The lookup's schema is the resource's: its id, and each field's id, labels, type, required and options.
      const { schemas } = await getCustomObjectSchemas();
      const found = schemas.find((schema) => schema.id === created.id)!;
      assert.equal(found.slug, created.outs.slug);
      const lookedUp = found.fields.map(({ id, labels, type, required, options }) => ({ id, labels, type, required, ...(options ? { options } : {}) }));
      assert.deepEqual(
        lookedUp.sort((a, b) => a.id.localeCompare(b.id)),
        created.outs.fields.map(({ scale: _scale, ...field }: Record<string, unknown>) => field),
      );

      await provider.delete(created.id, created.outs);
      const again = await make();
      const writes = await writesByRoute(service.emulator);
      const adopted = await provider.create(
        await checked(provider, { ...provider.inputsDeclaring((await held(again.id)) as Record<string, unknown>), adoptId: again.id }),
      );
      assert.deepEqual(await writesSince(service.emulator, writes), {});
      assert.deepEqual(adopted.outs, again.outs);
    });

    it("takes over a schema holding a field the program does not declare only with deleteRemovedFields: true", async () => {
      const { id } = (
        await emulatorCall(service.emulator, "POST", "/api/3/customObjects/schemas", {
          schema: { ...subscription, fields: [{ ...plan, options: plan.options.map((value) => ({ value })) }, seats] },
        })
      ).body.schema;
      const withoutSeats = { ...subscription, fields: [plan], adoptId: id };
      const before = await writesByRoute(service.emulator);
      await assert.rejects(provider.create(await checked(provider, withoutSeats)), /the schema holds the field seats, no longer declared/);
      assert.deepEqual(await writesSince(service.emulator, before), {});
      const adopted = await provider.create(await checked(provider, { ...withoutSeats, deleteRemovedFields: true }));
      releaseNaturalKey(new CrmClient("test"), adoptIdClaims("crm.CustomObjectSchema"), id);
      assert.deepEqual(
        adopted.outs.fields.map((field: { id: string }) => field.id),
        ["plan"],
      );
      assert.deepEqual(await writesSince(service.emulator, before), {
        "PUT /api/3/customObjects/schemas/:schemaId": 1,
        "DELETE /api/3/customObjects/schemas/:schemaId/fields/:fieldId": 1,
      });
    });

    it("delete removes the schema and its records; already deleted counts as deleted", async () => {
      const created = await make();
      await emulatorCall(service.emulator, "POST", `/api/3/customObjects/records/${created.id}`, { record: { fields: [{ id: "plan", value: "Basic" }] } });
      await provider.delete(created.id, created.outs);
      assert.equal((await emulatorCall(service.emulator, "GET", schemaPath(created.id))).status, 404);
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/customObjects/records/${created.id}`)).status, 404);
      await provider.delete(created.id, created.outs);
    });
  },
);
