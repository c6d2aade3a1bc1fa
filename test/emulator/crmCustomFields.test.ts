import assert from "node:assert/strict";
import { startHarness, type Harness } from "./harness";

/** The service writes custom-field timestamps in UTC, at +00:00 (REAL-WORLD.md), whatever the account's offset. */
const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

/** A timestamp the service wrote during the test (since `startedMs`), told by its clock: at +00:00, not the account's offset. */
function assertWrittenSince(timestamp: string, startedMs: number): void {
  assert.match(timestamp, UTC_TIMESTAMP);
  const ms = Date.parse(timestamp);
  // Whole seconds: the service's second may start up to 1 s before the test's millisecond.
  assert.ok(ms >= startedMs - 1000 && ms <= Date.now(), `${timestamp} is not between ${new Date(startedMs).toISOString()} and now`);
}
const NOT_FOUND_ERRORS = { errors: [{ status: 404, title: "Not Found" }] };

describe("CRM custom account fields", () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());
  beforeEach(() => h.api("POST", "/__emulator/reset"));

  const createField = async (metum: Record<string, unknown>) => {
    const reply = await h.api("POST", "/api/3/accountCustomFieldMeta", { accountCustomFieldMetum: metum });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.accountCustomFieldMetum;
  };
  const createAccount = async (name: string) => (await h.api("POST", "/api/3/accounts", { account: { name } })).body.account;
  const createDatum = (datum: Record<string, unknown>) => h.api("POST", "/api/3/accountCustomFieldData", { accountCustomFieldDatum: datum });

  describe("definitions (accountCustomFieldMeta)", () => {
    it("POST creates with 201 (REAL-WORLD.md), 0/1 flags and timestamps in UTC at +00:00", async () => {
      const startedMs = Date.now();
      const metum = await createField({
        fieldLabel: "Size",
        fieldType: "dropdown",
        fieldOptions: ["S", "M"],
        fieldDefault: "S",
        isFormVisible: true,
        displayOrder: 4,
      });
      assert.equal(metum.id, "1");
      assert.equal(metum.fieldType, "dropdown");
      assert.deepEqual(metum.fieldOptions, ["S", "M"]);
      assert.equal(metum.fieldDefault, "S");
      assert.equal(metum.isFormVisible, 1);
      assert.equal(metum.isRequired, 0);
      assert.equal(metum.displayOrder, 4);
      assertWrittenSince(metum.createdTimestamp, startedMs);
      assertWrittenSince(metum.updatedTimestamp, startedMs);
      assertWrittenSince((await h.api("GET", "/api/3/accountCustomFieldMeta")).body.accountCustomFieldMeta[0].updatedTimestamp, startedMs);
      assert.equal(metum.links.accountCustomFieldData, `${h.emulator.crmUrl}/api/3/accountCustomFieldMeta/1/accountCustomFieldData`);
      assert.equal(metum.personalization, undefined);
    });

    it("keeps multiselect defaults as arrays and currency defaults in cents", async () => {
      assert.deepEqual((await createField({ fieldLabel: "Tags", fieldType: "multiselect", fieldOptions: ["a", "b"], fieldDefault: ["a", "b"] })).fieldDefault, [
        "a",
        "b",
      ]);
      const price = await createField({ fieldLabel: "Price", fieldType: "currency", fieldDefault: "1050", fieldDefaultCurrency: "EUR" });
      assert.equal(price.fieldDefault, 1050);
      assert.equal(price.fieldDefaultCurrency, "EUR");
    });

    it("answers 422 when fieldType is missing or not one of the documented types", async () => {
      const missing = await h.api("POST", "/api/3/accountCustomFieldMeta", { accountCustomFieldMetum: { fieldLabel: "x" } });
      assert.equal(missing.status, 422);
      assert.equal(missing.body.errors[0].title, "The field type field is required.");
      assert.equal(missing.body.errors[0].code, "field_missing");
      const wrong = await h.api("POST", "/api/3/accountCustomFieldMeta", { accountCustomFieldMetum: { fieldLabel: "x", fieldType: "colour" } });
      assert.equal(wrong.status, 422);
      assert.equal(wrong.body.errors[0].code, "field_invalid");
      assert.equal((await h.api("GET", "/api/3/accountCustomFieldMeta")).body.accountCustomFieldMeta.length, 0);
    });

    it("GET lists with personalization, knownFieldId and hideFieldFlag and no meta; GET one; 404 {errors}", async () => {
      const metum = await createField({ fieldLabel: "Tier", fieldType: "text" });
      const list = await h.api("GET", "/api/3/accountCustomFieldMeta");
      assert.equal(list.body.meta, undefined);
      assert.deepEqual(
        [
          list.body.accountCustomFieldMeta[0].personalization,
          list.body.accountCustomFieldMeta[0].knownFieldId,
          list.body.accountCustomFieldMeta[0].hideFieldFlag,
        ],
        ["", null, 0],
      );
      assert.deepEqual((await h.api("GET", `/api/3/accountCustomFieldMeta/${metum.id}`)).body, { accountCustomFieldMetum: metum });
      const missing = await h.api("GET", "/api/3/accountCustomFieldMeta/42");
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, NOT_FOUND_ERRORS);
    });

    it("PUT updates label, options, flags and order but not the type", async () => {
      const metum = await createField({ fieldLabel: "Tier", fieldType: "text" });
      const reply = await h.api("PUT", `/api/3/accountCustomFieldMeta/${metum.id}`, {
        accountCustomFieldMetum: { fieldLabel: "Level", fieldType: "number", isRequired: 1, displayOrder: 9 },
      });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.accountCustomFieldMetum.fieldLabel, "Level");
      assert.equal(reply.body.accountCustomFieldMetum.fieldType, "text");
      assert.equal(reply.body.accountCustomFieldMetum.isRequired, 1);
      assert.equal(reply.body.accountCustomFieldMetum.displayOrder, 9);
      assert.deepEqual((await h.api("PUT", "/api/3/accountCustomFieldMeta/42", { accountCustomFieldMetum: {} })).body, NOT_FOUND_ERRORS);
    });

    it("pages the list without meta.total: only a short page says it is the last", async () => {
      for (let i = 1; i <= 3; i++) await createField({ fieldLabel: `Field ${i}`, fieldType: "text" });
      const pages = [];
      for (const offset of [0, 2]) pages.push((await h.api("GET", `/api/3/accountCustomFieldMeta?limit=2&offset=${offset}`)).body);
      assert.deepEqual(
        pages.map((page) => page.accountCustomFieldMeta.length),
        [2, 1],
      );
      assert.ok(pages.every((page) => !("meta" in page)));
    });

    it("an empty or null default removes the default", async () => {
      const price = await createField({ fieldLabel: "Price", fieldType: "currency", fieldDefault: "100" });
      for (const fieldDefault of ["", null]) {
        await h.api("PUT", `/api/3/accountCustomFieldMeta/${price.id}`, { accountCustomFieldMetum: { fieldDefault: "5" } });
        const reply = await h.api("PUT", `/api/3/accountCustomFieldMeta/${price.id}`, { accountCustomFieldMetum: { fieldDefault } });
        assert.equal(reply.body.accountCustomFieldMetum.fieldDefault, null, JSON.stringify(fieldDefault));
      }
    });

    it("DELETE answers {message}, removes the field's values, then 404 {message} naming it; never-issued ids 404 {errors}", async () => {
      const metum = await createField({ fieldLabel: "Tier", fieldType: "text" });
      const account = await createAccount("Acme");
      const datum = (await createDatum({ customerAccountId: account.id, customFieldId: metum.id, fieldValue: "gold" })).body.accountCustomFieldDatum;
      const reply = await h.api("DELETE", `/api/3/accountCustomFieldMeta/${metum.id}`);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body, { message: "AccountCustomFieldMeta deleted." });
      assert.equal((await h.api("GET", `/api/3/accountCustomFieldData/${datum.id}`)).status, 404);
      const gone = { message: `No Result found for AccountCustomFieldMetum with id ${metum.id}` };
      for (const method of ["GET", "DELETE"]) {
        const again = await h.api(method, `/api/3/accountCustomFieldMeta/${metum.id}`);
        assert.equal(again.status, 404);
        assert.deepEqual(again.body, gone);
      }
      assert.deepEqual((await h.api("GET", "/api/3/accountCustomFieldMeta/42")).body, NOT_FOUND_ERRORS);
    });

    it("answers 403 to writes from a key without the manage-accounts permission, reads stay open", async () => {
      const metum = await createField({ fieldLabel: "Tier", fieldType: "text" });
      await h.api("POST", "/__emulator/tokens", { token: "cannot-manage", permissions: ["pg_subscriber_add"] });
      const asLimited = { "Api-Token": "cannot-manage" };
      const attempts = [
        h.raw("POST", "/api/3/accountCustomFieldMeta", { accountCustomFieldMetum: { fieldLabel: "x", fieldType: "text" } }, asLimited),
        h.raw("PUT", `/api/3/accountCustomFieldMeta/${metum.id}`, { accountCustomFieldMetum: { fieldLabel: "y" } }, asLimited),
        h.raw("DELETE", `/api/3/accountCustomFieldMeta/${metum.id}`, undefined, asLimited),
      ];
      for (const reply of await Promise.all(attempts)) {
        assert.equal(reply.status, 403);
        assert.match(reply.body.message, /permission/);
      }
      assert.equal((await h.raw("GET", `/api/3/accountCustomFieldMeta/${metum.id}`, undefined, asLimited)).status, 200);
    });
  });

  describe("values (accountCustomFieldData)", () => {
    it("POST creates with 200, numeric ids and timestamps in UTC at +00:00; accepts customerAccountId or accountId", async () => {
      const startedMs = Date.now();
      const metum = await createField({ fieldLabel: "Tier", fieldType: "text" });
      const acme = await createAccount("Acme");
      const globex = await createAccount("Globex");
      const reply = await createDatum({ customerAccountId: Number(acme.id), customFieldId: metum.id, fieldValue: "gold" });
      assert.equal(reply.status, 200);
      const datum = reply.body.accountCustomFieldDatum;
      assert.deepEqual(
        [datum.id, datum.accountId, datum.customFieldId, datum.accountCustomFieldMetumId, datum.fieldValue],
        ["1", Number(acme.id), Number(metum.id), Number(metum.id), "gold"],
      );
      assertWrittenSince(datum.createdTimestamp, startedMs);
      assertWrittenSince(datum.updatedTimestamp, startedMs);
      assertWrittenSince((await h.api("GET", `/api/3/accountCustomFieldData/${datum.id}`)).body.accountCustomFieldDatum.updatedTimestamp, startedMs);
      assert.equal(datum.links.account, `${h.emulator.crmUrl}/api/3/accountCustomFieldData/1/account`);
      assert.equal(
        (await createDatum({ accountId: globex.id, customFieldId: metum.id, fieldValue: "silver" })).body.accountCustomFieldDatum.accountId,
        Number(globex.id),
      );
    });

    it("stores currency in cents with a currency code, dates as YYYY-MM-DD from three input forms", async () => {
      const account = await createAccount("Acme");
      const price = await createField({ fieldLabel: "Price", fieldType: "currency", fieldDefaultCurrency: "usd" });
      const since = await createField({ fieldLabel: "Since", fieldType: "date" });
      const cents = (await createDatum({ customerAccountId: account.id, customFieldId: price.id, fieldValue: 10050 })).body.accountCustomFieldDatum;
      assert.equal(cents.fieldValue, 10050);
      assert.equal(cents.fieldCurrency, "usd");
      const dates: string[] = [];
      for (const input of ["2024-02-29", "2024/02/29", "02/29/2024"]) {
        const datum = (await createDatum({ customerAccountId: account.id, customFieldId: since.id, fieldValue: input })).body.accountCustomFieldDatum;
        dates.push(datum.fieldValue);
        await h.api("DELETE", `/api/3/accountCustomFieldData/${datum.id}`);
      }
      assert.deepEqual(dates, ["2024-02-29", "2024-02-29", "2024-02-29"]);
    });

    it("stores a multiselect or checkbox value as ||a||b|| and answers it so, however it was sent (a list or the string)", async () => {
      const acme = await createAccount("Acme");
      const globex = await createAccount("Globex");
      const tags = await createField({ fieldLabel: "Tags", fieldType: "multiselect", fieldOptions: ["a", "b", "c"] });
      const boxes = await createField({ fieldLabel: "Boxes", fieldType: "checkbox", fieldOptions: ["a", "b", "c"] });
      const fromList = await createDatum({ customerAccountId: acme.id, customFieldId: tags.id, fieldValue: ["a", "b"] });
      // The write answer adds the value as sent; fieldValue is the stored one.
      assert.deepEqual([fromList.body.accountCustomFieldDatum.fieldValue, fromList.body.accountCustomFieldDatum.originalValue], ["||a||b||", ["a", "b"]]);
      const fromString = (await createDatum({ customerAccountId: acme.id, customFieldId: boxes.id, fieldValue: "||a||c||" })).body.accountCustomFieldDatum;
      assert.equal(fromString.fieldValue, "||a||c||");
      const read = async (id: string) => (await h.api("GET", `/api/3/accountCustomFieldData/${id}`)).body.accountCustomFieldDatum.fieldValue;
      assert.deepEqual([await read(fromList.body.accountCustomFieldDatum.id), await read(fromString.id)], ["||a||b||", "||a||c||"]);
      const put = await h.api("PUT", `/api/3/accountCustomFieldData/${fromString.id}`, { accountCustomFieldDatum: { fieldValue: ["b", "c"] } });
      assert.equal(put.body.accountCustomFieldDatum.fieldValue, "||b||c||");
      await h.api("PATCH", "/api/3/accountCustomFieldData/bulkUpdate", [{ id: Number(fromList.body.accountCustomFieldDatum.id), fieldValue: ["c"] }]);
      await h.api("POST", "/api/3/accountCustomFieldData/bulkCreate", [{ customerAccountId: globex.id, customFieldId: tags.id, fieldValue: ["b", "a"] }]);
      await h.api("PUT", `/api/3/accounts/${globex.id}`, { account: { fields: [{ customFieldId: boxes.id, fieldValue: ["a"] }] } });
      const listed = (await h.api("GET", "/api/3/accountCustomFieldData?orders[id]=ASC")).body.accountCustomFieldData;
      assert.deepEqual(
        listed.map((d: { accountId: number; customFieldId: number; fieldValue: string }) => [d.accountId, d.customFieldId, d.fieldValue]),
        [
          [Number(acme.id), Number(tags.id), "||c||"],
          [Number(acme.id), Number(boxes.id), "||b||c||"],
          [Number(globex.id), Number(tags.id), "||b||a||"],
          [Number(globex.id), Number(boxes.id), "||a||"],
        ],
      );
    });

    it("answers 422 for values that do not fit the field, unknown accounts and fields, and a second value", async () => {
      const account = await createAccount("Acme");
      const price = await createField({ fieldLabel: "Price", fieldType: "currency" });
      const since = await createField({ fieldLabel: "Since", fieldType: "date" });
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ customerAccountId: account.id, customFieldId: price.id, fieldValue: 100.5 }, "field_invalid", "/data/attributes/fieldValue"],
        [{ customerAccountId: account.id, customFieldId: since.id, fieldValue: "2024-02-30" }, "field_invalid", "/data/attributes/fieldValue"],
        [{ customerAccountId: account.id, customFieldId: since.id, fieldValue: "29.02.2024" }, "field_invalid", "/data/attributes/fieldValue"],
        [{ customerAccountId: account.id, customFieldId: since.id }, "field_missing", "/data/attributes/fieldValue"],
        [{ customerAccountId: 99, customFieldId: since.id, fieldValue: "2024-01-01" }, "field_invalid", "/data/attributes/customerAccountId"],
        [{ customFieldId: since.id, fieldValue: "2024-01-01" }, "field_missing", "/data/attributes/customerAccountId"],
        [{ customerAccountId: account.id, customFieldId: 99, fieldValue: "x" }, "field_invalid", "/data/attributes/customFieldId"],
      ];
      for (const [datum, code, pointer] of cases) {
        const reply = await createDatum(datum);
        assert.equal(reply.status, 422, JSON.stringify(datum));
        assert.equal(reply.body.errors[0].code, code, JSON.stringify(datum));
        assert.equal(reply.body.errors[0].source.pointer, pointer, JSON.stringify(datum));
      }
      await createDatum({ customerAccountId: account.id, customFieldId: price.id, fieldValue: 5 });
      assert.equal((await createDatum({ customerAccountId: account.id, customFieldId: price.id, fieldValue: 6 })).body.errors[0].code, "duplicate");
    });

    it("write answers add originalValue, the value as sent; reads do not", async () => {
      const account = await createAccount("Acme");
      const since = await createField({ fieldLabel: "Since", fieldType: "date" });
      const created = (await createDatum({ customerAccountId: account.id, customFieldId: since.id, fieldValue: "03/31/2027" })).body.accountCustomFieldDatum;
      assert.deepEqual([created.fieldValue, created.originalValue], ["2027-03-31", "03/31/2027"]);
      const updated = (await h.api("PUT", `/api/3/accountCustomFieldData/${created.id}`, { accountCustomFieldDatum: { fieldValue: "2027/04/01" } })).body;
      assert.deepEqual([updated.accountCustomFieldDatum.fieldValue, updated.accountCustomFieldDatum.originalValue], ["2027-04-01", "2027/04/01"]);
      assert.equal("originalValue" in (await h.api("GET", `/api/3/accountCustomFieldData/${created.id}`)).body.accountCustomFieldDatum, false);
    });

    it("GET one, PUT, DELETE with {message}, then 404 {message} naming it; never-issued ids 404 {errors}", async () => {
      const account = await createAccount("Acme");
      const metum = await createField({ fieldLabel: "Tier", fieldType: "text" });
      const datum = (await createDatum({ customerAccountId: account.id, customFieldId: metum.id, fieldValue: "gold" })).body.accountCustomFieldDatum;
      assert.equal((await h.api("GET", `/api/3/accountCustomFieldData/${datum.id}`)).body.accountCustomFieldDatum.fieldValue, "gold");
      const updated = await h.api("PUT", `/api/3/accountCustomFieldData/${datum.id}`, { accountCustomFieldDatum: { fieldValue: "platinum" } });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.accountCustomFieldDatum.fieldValue, "platinum");
      assert.deepEqual((await h.api("DELETE", `/api/3/accountCustomFieldData/${datum.id}`)).body, { message: "AccountCustomFieldData deleted." });
      for (const [method, body] of [
        ["GET", undefined],
        ["PUT", { accountCustomFieldDatum: { fieldValue: "x" } }],
        ["DELETE", undefined],
      ] as const) {
        const reply = await h.api(method, `/api/3/accountCustomFieldData/${datum.id}`, body);
        assert.equal(reply.status, 404);
        assert.deepEqual(reply.body, { message: `No Result found for AccountCustomFieldDatum with id ${datum.id}` });
      }
      assert.deepEqual((await h.api("GET", "/api/3/accountCustomFieldData/42")).body, NOT_FOUND_ERRORS);
    });

    it("lists with filters[customerAccountId], meta.total as a number, and sideloads from accounts", async () => {
      const acme = await createAccount("Acme");
      const globex = await createAccount("Globex");
      const metum = await createField({ fieldLabel: "Tier", fieldType: "text" });
      await createDatum({ customerAccountId: acme.id, customFieldId: metum.id, fieldValue: "gold" });
      await createDatum({ customerAccountId: globex.id, customFieldId: metum.id, fieldValue: "tin" });
      const filtered = await h.api("GET", `/api/3/accountCustomFieldData?filters[customerAccountId]=${globex.id}`);
      assert.deepEqual(
        filtered.body.accountCustomFieldData.map((d: { fieldValue: string }) => d.fieldValue),
        ["tin"],
      );
      assert.equal(filtered.body.meta.total, 1);
      const included = await h.api("GET", `/api/3/accounts/${acme.id}?include=accountCustomFieldData.accountCustomFieldMetum`);
      assert.deepEqual(included.body.account.accountCustomFieldData, ["1"]);
      assert.equal(included.body.accountCustomFieldData[0].fieldValue, "gold");
      assert.equal(included.body.accountCustomFieldMeta[0].fieldLabel, "Tier");
    });

    it("orders values by orders[updatedTimestamp] and orders[createdTimestamp], to the millisecond", async () => {
      const acme = await createAccount("Acme");
      const ids: string[] = [];
      for (const fieldLabel of ["First", "Second", "Third"]) {
        const metum = await createField({ fieldLabel, fieldType: "text" });
        ids.push((await createDatum({ customerAccountId: acme.id, customFieldId: metum.id, fieldValue: "x" })).body.accountCustomFieldDatum.id);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await h.api("PATCH", "/api/3/accountCustomFieldData/bulkUpdate", [{ id: Number(ids[0]), fieldValue: "y" }]);
      const ordered = async (order: string) =>
        (await h.api("GET", `/api/3/accountCustomFieldData?filters[customerAccountId]=${acme.id}&${order}`)).body.accountCustomFieldData.map(
          (d: { id: string }) => d.id,
        );
      assert.deepEqual(await ordered("orders[updatedTimestamp]=DESC"), [ids[0], ids[2], ids[1]]);
      assert.deepEqual(await ordered("orders[createdTimestamp]=DESC"), [ids[2], ids[1], ids[0]]);
    });

    it("stores fields sent with an account create or update and echoes them", async () => {
      const metum = await createField({ fieldLabel: "Tier", fieldType: "text" });
      const created = await h.api("POST", "/api/3/accounts", { account: { name: "Acme", fields: [{ customFieldId: Number(metum.id), fieldValue: "gold" }] } });
      assert.deepEqual(created.body.account.fields, [{ customFieldId: Number(metum.id), fieldValue: "gold", accountId: created.body.account.id }]);
      await h.api("PUT", `/api/3/accounts/${created.body.account.id}`, { account: { fields: [{ customFieldId: metum.id, fieldValue: "silver" }] } });
      const values = (await h.api("GET", "/api/3/accountCustomFieldData")).body.accountCustomFieldData;
      assert.deepEqual(
        values.map((d: { fieldValue: string }) => d.fieldValue),
        ["silver"],
      );
      const rejected = await h.api("POST", "/api/3/accounts", { account: { name: "Globex", fields: [{ customFieldId: 99, fieldValue: "x" }] } });
      assert.equal(rejected.status, 422);
      assert.equal(rejected.body.errors[0].source.pointer, "/data/attributes/fields/0/customFieldId");
      assert.equal((await h.api("GET", "/api/3/accounts?search=Globex")).body.meta.total, "0");
    });
  });

  describe("bulk writes", () => {
    it("bulkCreate takes a top-level array, answers {message} and refreshes only the first item's account", async () => {
      const acme = await createAccount("Acme");
      const globex = await createAccount("Globex");
      const tier = await createField({ fieldLabel: "Tier", fieldType: "text" });
      const price = await createField({ fieldLabel: "Price", fieldType: "currency" });
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const reply = await h.api("POST", "/api/3/accountCustomFieldData/bulkCreate", [
        { customerAccountId: acme.id, customFieldId: tier.id, fieldValue: "gold" },
        { accountId: acme.id, customFieldId: price.id, fieldValue: 9999, fieldCurrency: "cad" },
        { accountId: globex.id, customFieldId: tier.id, fieldValue: "tin" },
      ]);
      assert.equal(reply.status, 200);
      // REAL-WORLD.md's recorded text wins over the reference's "the bulk insert was successful".
      assert.deepEqual(reply.body, { message: "The bulk insert was successful." });
      assert.equal((await h.api("GET", "/api/3/accountCustomFieldData")).body.meta.total, 3);
      const acmeAfter = (await h.api("GET", `/api/3/accounts/${acme.id}`)).body.account;
      const globexAfter = (await h.api("GET", `/api/3/accounts/${globex.id}`)).body.account;
      assert.ok(acmeAfter.updatedTimestamp > acme.updatedTimestamp);
      assert.equal(globexAfter.updatedTimestamp, globex.updatedTimestamp);
    });

    it("bulkCreate creates or updates: a value the account has for the field is overwritten", async () => {
      const acme = await createAccount("Acme");
      const tier = await createField({ fieldLabel: "Tier", fieldType: "text" });
      const existing = (await createDatum({ customerAccountId: acme.id, customFieldId: tier.id, fieldValue: "gold" })).body.accountCustomFieldDatum;
      const reply = await h.api("POST", "/api/3/accountCustomFieldData/bulkCreate", [
        { customerAccountId: acme.id, customFieldId: tier.id, fieldValue: "platinum" },
      ]);
      assert.equal(reply.status, 200);
      const values = (await h.api("GET", `/api/3/accountCustomFieldData?filters[customerAccountId]=${acme.id}`)).body.accountCustomFieldData;
      assert.deepEqual(
        values.map((d: { id: string; fieldValue: string }) => [d.id, d.fieldValue]),
        [[existing.id, "platinum"]],
      );
    });

    it("bulkCreate writes nothing when over 250 items or when any item is invalid", async () => {
      const acme = await createAccount("Acme");
      const tier = await createField({ fieldLabel: "Tier", fieldType: "text" });
      const tooMany = Array.from({ length: 251 }, () => ({ customerAccountId: acme.id, customFieldId: tier.id, fieldValue: "x" }));
      assert.equal((await h.api("POST", "/api/3/accountCustomFieldData/bulkCreate", tooMany)).status, 422);
      const oneBad = await h.api("POST", "/api/3/accountCustomFieldData/bulkCreate", [
        { customerAccountId: acme.id, customFieldId: tier.id, fieldValue: "x" },
        { customerAccountId: acme.id, customFieldId: 77, fieldValue: "y" },
      ]);
      assert.equal(oneBad.status, 422);
      assert.equal(oneBad.body.errors[0].source.pointer, "/data/attributes/1/customFieldId");
      assert.equal((await h.api("POST", "/api/3/accountCustomFieldData/bulkCreate", { accountCustomFieldDatum: {} })).status, 422);
      assert.equal((await h.api("GET", "/api/3/accountCustomFieldData")).body.meta.total, 0);
    });

    it("bulkUpdate changes the listed values and names their ids; unknown ids write nothing", async () => {
      const acme = await createAccount("Acme");
      const tier = await createField({ fieldLabel: "Tier", fieldType: "text" });
      const price = await createField({ fieldLabel: "Price", fieldType: "currency" });
      await createDatum({ customerAccountId: acme.id, customFieldId: tier.id, fieldValue: "gold" });
      await createDatum({ customerAccountId: acme.id, customFieldId: price.id, fieldValue: 100 });
      const reply = await h.api("PATCH", "/api/3/accountCustomFieldData/bulkUpdate", [
        { id: "1", fieldValue: "silver" },
        { id: 2, fieldValue: "250", fieldCurrency: "eur" },
      ]);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body, { message: "AccountCustomFieldDatas with ID(s): 1, 2 successfully bulk updated." });
      const values = (await h.api("GET", "/api/3/accountCustomFieldData")).body.accountCustomFieldData;
      assert.deepEqual(
        values.map((d: { fieldValue: unknown }) => d.fieldValue),
        ["silver", 250],
      );
      assert.equal(values[1].fieldCurrency, "eur");
      const unknown = await h.api("PATCH", "/api/3/accountCustomFieldData/bulkUpdate", [
        { id: 1, fieldValue: "bronze" },
        { id: 9, fieldValue: "x" },
      ]);
      assert.equal(unknown.status, 422);
      assert.equal((await h.api("GET", "/api/3/accountCustomFieldData/1")).body.accountCustomFieldDatum.fieldValue, "silver");
    });
  });
});
