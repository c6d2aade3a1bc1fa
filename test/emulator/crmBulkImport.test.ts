import assert from "node:assert/strict";
import { join } from "node:path";
import { inTempDir, startHarness, type Harness, type Reply } from "./harness";

/** The reference's 400 message: the payload refused whole. */
const NOT_QUEUED = "JSON payload did not pass validation. Please fix failure Reasons and retry. The import was not queued for processing.";

describe("CRM bulk contact sync (POST /import/bulk_import)", () => {
  let h: Harness;
  before(async () => (h = await startHarness({ bulkImportDelayMs: 100 })));
  after(() => h.close());
  beforeEach(() => h.api("POST", "/__emulator/reset"));

  const contactsNamed = (count: number, prefix = "person") =>
    Array.from({ length: count }, (_, i) => ({ email: `${prefix}${i}@example.test`, first_name: `First${i}`, last_name: "Doe" }));

  /** Polls GET /import/info until the batch completes. */
  async function completed(batchId: string): Promise<Reply> {
    for (;;) {
      const info = await h.api("GET", `/api/3/import/info?batchId=${batchId}`);
      if (info.body.status === "completed") return info;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("answers 200 {success: 1} with a batch id, as REAL-WORLD.md, and writes the rows only after the response", async () => {
    const reply = await h.api("POST", "/api/3/import/bulk_import", { contacts: contactsNamed(3) });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.success, 1);
    assert.match(reply.body.batchId, /^[0-9a-f-]{36}$/);
    assert.equal(reply.body.queued_contacts, 3);
    assert.equal((await h.api("GET", "/api/3/contacts?filters[email]=person0@example.test")).body.meta.total, "0");
    assert.equal((await h.api("GET", `/api/3/import/info?batchId=${reply.body.batchId}`)).body.status, "queued");
    const info = await completed(reply.body.batchId);
    assert.deepEqual(info.body.success, ["1", "2", "3"]);
    assert.deepEqual(info.body.failure, []);
    const written = (await h.api("GET", "/api/3/contacts?filters[email]=person0@example.test")).body.contacts[0];
    assert.deepEqual([written.firstName, written.lastName], ["First0", "Doe"]);
  });

  it("updates contacts matched by email and skips failing rows without failing the batch", async () => {
    await h.api("POST", "/api/3/contacts", { contact: { email: "known@example.test", firstName: "Old" } });
    const reply = await h.api("POST", "/api/3/import/bulk_import", {
      contacts: [
        { email: "KNOWN@example.test", first_name: "New" },
        { first_name: "no email" },
        { email: "not-an-email" },
        "junk",
        { email: "fresh@example.test" },
      ],
    });
    assert.equal(reply.status, 200);
    const info = await completed(reply.body.batchId);
    assert.deepEqual(info.body.success, ["1", "2"]);
    assert.deepEqual(info.body.failure, ["#1", "not-an-email", "#3"]);
    assert.equal((await h.api("GET", "/api/3/contacts/1")).body.contact.firstName, "New");
    assert.equal((await h.api("GET", "/api/3/contacts")).body.meta.total, "2");
  });

  it("answers 422 over 250 contacts and writes nothing", async () => {
    const reply = await h.api("POST", "/api/3/import/bulk_import", { contacts: contactsNamed(251) });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.errors[0].source.pointer, "/data/attributes/contacts");
    assert.equal((await h.api("POST", "/api/3/import/bulk_import", { contacts: contactsNamed(250) })).status, 200);
  });

  it("refuses a payload without contacts with the reference's 400 and queues nothing (REAL-WORLD.md: an empty payload is refused)", async () => {
    for (const body of [{}, { contacts: [] }, { contacts: "ann@example.test" }, []]) {
      const reply = await h.api("POST", "/api/3/import/bulk_import", body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.deepEqual(reply.body, { success: 0, message: NOT_QUEUED, failureReasons: ["At least one contact is required in the contacts array."] });
    }
    assert.deepEqual((await h.api("GET", "/api/3/import/bulk_import")).body, { outstanding: [], recentlyCompleted: [] });
  });

  it("answers 422 when the batch would exceed the account's contact limit, counting only new emails", async () => {
    await h.api("POST", "/__emulator/limits", { contacts: 3 });
    try {
      await h.api("POST", "/api/3/contacts", { contact: { email: "person0@example.test" } });
      const over = await h.api("POST", "/api/3/import/bulk_import", { contacts: contactsNamed(4) });
      assert.equal(over.status, 422);
      assert.match(over.body.errors[0].title, /contact limit/);
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal((await h.api("GET", "/api/3/contacts")).body.meta.total, "1");
      const fits = await h.api("POST", "/api/3/import/bulk_import", { contacts: contactsNamed(3) });
      assert.equal(fits.status, 200);
    } finally {
      await h.api("POST", "/__emulator/limits", { contacts: 100_000 });
    }
  });

  it("answers 403 to a key without pg_subscriber_add", async () => {
    await h.api("POST", "/__emulator/tokens", { token: "no-import", permissions: ["manage_accounts"] });
    const reply = await h.raw("POST", "/api/3/import/bulk_import", { contacts: contactsNamed(1) }, { "Api-Token": "no-import" });
    assert.equal(reply.status, 403);
    assert.match(reply.body.message, /pg_subscriber_add/);
  });

  it("GET /import/bulk_import counts the batches and their contacts per day, queued and completed", async () => {
    assert.deepEqual((await h.api("GET", "/api/3/import/bulk_import")).body, { outstanding: [], recentlyCompleted: [] });
    const first = (await h.api("POST", "/api/3/import/bulk_import", { contacts: contactsNamed(3) })).body.batchId;
    await completed(first);
    await h.api("POST", "/api/3/import/bulk_import", { contacts: contactsNamed(2, "other") });
    const { outstanding, recentlyCompleted } = (await h.api("GET", "/api/3/import/bulk_import")).body;
    const today = outstanding[0]?.forDate;
    assert.match(today, /^\d{4}-\d{2}-\d{2}$/);
    assert.deepEqual(outstanding, [{ forDate: today, batches: "1", contacts: "2" }]);
    assert.deepEqual(recentlyCompleted, [{ forDate: today, batches: "1", contacts: "3" }]);
  });

  it("GET /import/info answers 400 without batchId and 404 for an unknown one", async () => {
    assert.deepEqual((await h.api("GET", "/api/3/import/info")).body, { success: 0, message: "'batchId' is a required field." });
    assert.equal((await h.api("GET", "/api/3/import/info?batchId=nope")).status, 404);
  });

  it("finishes a queued batch after a restart with --data", () =>
    inTempDir("crm-import-", async (dir) => {
      const data = join(dir, "state.json");
      const first = await startHarness({ data, token: "import-key", bulkImportDelayMs: 60_000 });
      const batchId = (await first.api("POST", "/api/3/import/bulk_import", { contacts: contactsNamed(2) })).body.batchId;
      await first.close();
      const second = await startHarness({ data, token: "import-key", bulkImportDelayMs: 10 });
      try {
        for (;;) {
          const info = await second.api("GET", `/api/3/import/info?batchId=${batchId}`);
          if (info.body.status === "completed") break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        assert.equal((await second.api("GET", "/api/3/contacts")).body.meta.total, "2");
      } finally {
        await second.close();
      }
    }));
});

describe("CRM bulk contact sync refusing rows without a valid email (bulkImportRefusesInvalidEmails), as the reference shows", () => {
  let h: Harness;
  before(async () => (h = await startHarness({ bulkImportDelayMs: 0, bulkImportRefusesInvalidEmails: true })));
  after(() => h.close());

  it("answers 400 naming each such row by its place, with the reference's failureReason, and imports nothing", async () => {
    const rows = [{ email: "ann@example.test" }, { first_name: "no email" }, { email: "not-an-email" }, "junk", { email: " bob@example.test " }];
    const reply = await h.api("POST", "/api/3/import/bulk_import", { contacts: rows });
    assert.equal(reply.status, 400);
    const failureReason = "Field‘ email’ incorrect format";
    assert.deepEqual(reply.body, { success: 0, message: NOT_QUEUED, failureReasons: [1, 2, 3].map((contact) => ({ contact, failureReason })) });
    assert.deepEqual((await h.api("GET", "/api/3/import/bulk_import")).body, { outstanding: [], recentlyCompleted: [] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal((await h.api("GET", "/api/3/contacts")).body.meta.total, "0");
    const valid = await h.api("POST", "/api/3/import/bulk_import", { contacts: [rows[0], rows[4]] });
    assert.deepEqual([valid.status, valid.body.queued_contacts], [200, 2]);
  });
});
