// The chat flow service through real HTTP. Routing, encodings, validation and auth go
// through the emulator as it runs (startEmulator); execution progress is checked on the
// service mounted alone on a bare node:http server, the way the core mounts it, with an
// injected clock so that it is exact.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { inTempDir } from "./harness";
import { BUILT_IN_FLOWS, createChatService, EXECUTION_DURATION_MS } from "../../emulator/src/chat";
import { GENERATED_AUTOMATIONS } from "../../emulator/src/crm/fixtures";
import type { EmulatedService } from "../../emulator/src/service";

// Built-in flows: the one examples/flow-run runs, and another.
const FLOW = "2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31";
const OTHER_FLOW = "bf5d0ee7-5586-408e-9d5a-a4fd63f166d4";
/** A UUID that is neither a known flow nor an execution. */
const UNKNOWN = "0b6f1a64-5f7e-4c43-9f43-2c1f2f5b9d10";
const START = Date.UTC(2024, 4, 1, 12, 0, 0);

interface Reply {
  status: number;
  body: any;
}

interface RequestInit {
  json?: unknown;
  body?: string | FormData;
  contentType?: string;
  headers?: Record<string, string>;
}

/** Requests to a chat root ("http://127.0.0.1:PORT/chat") with the given default headers. */
function chatClient(chatUrl: string, defaultHeaders: Record<string, string>) {
  const call = async (method: string, path: string, init: RequestInit = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...defaultHeaders, ...init.headers };
    if (init.json !== undefined) headers["content-type"] = "application/json";
    if (init.contentType) headers["content-type"] = init.contentType;
    const response = await fetch(`${chatUrl}${path}`, {
      method,
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    call,
    run: (body: unknown, flow = FLOW, channel = "chat") => call("POST", `/channel/${channel}/flow/${flow}/run`, { json: body }),
    read: (id: string, channel = "chat") => call("GET", `/channel/${channel}/flow-execution/${id}`),
  };
}

type ChatClient = ReturnType<typeof chatClient>;

/** The bare mount: the service below /chat, as the core hands it requests. */
async function mount(service: EmulatedService): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://chat");
    const reply = await service.handle({
      method: req.method ?? "GET",
      path: url.pathname.replace(/^\/chat/, ""),
      query: url.searchParams,
      headers: req.headers,
      rawBody: Buffer.concat(chunks),
      token: "test",
      accountPath: "",
    });
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    res.end(reply.body === undefined ? "" : JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const contacts = (count: number) => Array.from({ length: count }, (_, index) => ({ phone: `+1555010${index}` }));

describe("chat flow service, through the emulator", () => {
  let emulator: RunningEmulator;
  let chat: ChatClient;
  const authorization = () => ({ Authorization: `Token ${emulator.apiToken}` });

  before(async () => {
    emulator = await startEmulator({ rateLimit: 0 });
    chat = chatClient(emulator.chatUrl, authorization());
  });
  after(() => emulator.close());
  beforeEach(async () => {
    const reset = await fetch(`${emulator.crmUrl}/__emulator/reset`, { method: "POST" });
    assert.equal(reset.status, 200);
  });

  describe("authentication", () => {
    const body = { execute_for: "LIST", contact_list: contacts(1) };

    it("accepts Authorization: Token <key>", async () => {
      assert.equal((await chat.run(body)).status, 201);
    });

    it("refuses the CRM's Api-Token header, and a wrong key", async () => {
      const withApiToken = chatClient(emulator.chatUrl, { "Api-Token": emulator.apiToken });
      assert.deepEqual(await withApiToken.run(body), { status: 403, body: { detail: "Authentication credentials were not provided." } });
      const withWrongKey = chatClient(emulator.chatUrl, { Authorization: "Token not-the-key" });
      assert.deepEqual(await withWrongKey.run(body), { status: 403, body: { detail: "Invalid token." } });
    });
  });

  describe("POST /channel/{channel}/flow/{id}/run", () => {
    it("answers 201 with the flow execution record, contacts echoed with their defaults", async () => {
      const reply = await chat.run({
        execute_for: "LIST",
        contact_list: [
          {
            phone: "+15550100",
            first_name: "Ada",
            last_name: null,
            email: "ada@example.com",
            meta: { plan: "gold" },
            external_url: "https://crm.example.com/contacts/1",
            id: "6F1C3D2E-8B4A-4C5D-9E6F-7A8B9C0D1E2F",
            created_on: "2024-04-30T08:00:00+02:00",
            tags: [{ name: "vip" }, { name: "beta" }],
            default_assignees: [3, "4"],
            default_channel: null,
            notes: [{ notes: "read-only, dropped" }],
            unknown_member: "dropped",
          },
        ],
      });
      assert.equal(reply.status, 201);
      assert.match(reply.body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const { id: _id, created_on: createdOn, status_last_change_on: changedOn, contact_list: contactList, ...execution } = reply.body;
      assert.ok(Math.abs(Date.parse(createdOn) - Date.now()) < 60_000, `created_on ${createdOn} is not now`);
      assert.equal(changedOn, createdOn);
      assert.deepEqual(execution, {
        status: "RUNNING",
        execute_for: "LIST",
        has_priority: false,
        flow_execution_variables: {},
        start_on: null,
        num_contacts: 1,
        expired: 0,
        running: 1,
        completed: 0,
        canceled: 0,
        failed: 0,
        avg_completion_time: "00:00:00",
        status_reason: null,
        status_triggered_by: null,
        contact_filters: [],
        source: "API",
        is_hidden: false,
      });
      assert.deepEqual(contactList, [
        {
          phone: "+15550100",
          first_name: "Ada",
          last_name: null,
          email: "ada@example.com",
          meta: { plan: "gold" },
          external_url: "https://crm.example.com/contacts/1",
          id: "6f1c3d2e-8b4a-4c5d-9e6f-7a8b9c0d1e2f",
          source: "website",
          created_on: "2024-04-30T06:00:00.000Z",
          tags: [
            { id: 1, name: "vip" },
            { id: 2, name: "beta" },
          ],
          default_assignees: [3, 4],
          default_channel: null,
          overwrite_tags: false,
          overwrite_default_assignees: false,
          overwrite_meta: false,
        },
      ]);
    });

    it("keeps one id per tag name across executions", async () => {
      await chat.run({ execute_for: "LIST", contact_list: [{ tags: [{ name: "vip" }] }] });
      const reply = await chat.run({ execute_for: "LIST", contact_list: [{ tags: [{ name: "new" }, { name: "vip" }] }] });
      assert.deepEqual(reply.body.contact_list[0].tags, [
        { id: 2, name: "new" },
        { id: 1, name: "vip" },
      ]);
    });

    it("serves the seed's chat channel and the real service's whatsapp channel, and nothing else", async () => {
      const body = { execute_for: "LIST", contact_list: contacts(1) };
      assert.equal((await chat.run(body, FLOW, "chat")).status, 201);
      assert.equal((await chat.run(body, FLOW, "whatsapp")).status, 201);
      assert.deepEqual(await chat.run(body, FLOW, "sms"), { status: 404, body: { detail: "Not found." } });
    });

    it("answers 404 for a flow id that is not a UUID, as a route that does not match", async () => {
      const reply = await chat.run({ execute_for: "LIST", contact_list: contacts(1) }, "42");
      assert.deepEqual(reply, { status: 404, body: { detail: "Not found." } });
    });

    it("answers 405 with Allow to other methods", async () => {
      const response = await fetch(`${emulator.chatUrl}/channel/chat/flow/${FLOW}/run`, { headers: authorization() });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get("allow"), "POST");
      assert.deepEqual(await response.json(), { detail: 'Method "GET" not allowed.' });
    });

    it("takes a url-encoded body with contact_list as a JSON text and booleans as words", async () => {
      const form = new URLSearchParams({ execute_for: "LIST", has_priority: "true", contact_list: JSON.stringify(contacts(2)) });
      const reply = await chat.call("POST", `/channel/chat/flow/${FLOW}/run`, {
        body: form.toString(),
        contentType: "application/x-www-form-urlencoded",
      });
      assert.equal(reply.status, 201);
      assert.equal(reply.body.has_priority, true);
      assert.deepEqual(
        reply.body.contact_list.map((contact: { phone: string }) => contact.phone),
        contacts(2).map((contact) => contact.phone),
      );
    });

    it("takes a multipart body the same way", async () => {
      const form = new FormData();
      form.append("execute_for", "LIST");
      form.append("contact_list", JSON.stringify(contacts(1)));
      const reply = await chat.call("POST", `/channel/chat/flow/${FLOW}/run`, { body: form });
      assert.equal(reply.status, 201);
      assert.equal(reply.body.has_priority, false);
      assert.equal(reply.body.contact_list[0].phone, contacts(1)[0].phone);
    });
  });

  describe("known flows", () => {
    const body = { execute_for: "LIST", contact_list: contacts(1) };
    const notFound = { status: 404, body: { detail: "Not found." } };

    it("runs every built-in flow, the examples' among them, whatever the id's case", async () => {
      assert.ok(BUILT_IN_FLOWS.some((flow) => flow.id === FLOW));
      for (const flow of BUILT_IN_FLOWS) assert.equal((await chat.run(body, flow.id)).status, 201, flow.name);
      assert.equal((await chat.run(body, FLOW.toUpperCase(), "whatsapp")).status, 201);
    });

    it("answers 404 to a flow it does not know, on both channels, before it looks at the body", async () => {
      assert.deepEqual(await chat.run(body, UNKNOWN, "chat"), notFound);
      assert.deepEqual(await chat.run(body, UNKNOWN, "whatsapp"), notFound);
      assert.deepEqual(await chat.run({}, UNKNOWN), notFound);
    });

    describe("from a --fixtures file", () => {
      let dir: string;
      before(() => (dir = mkdtempSync(path.join(tmpdir(), "chat-fixtures-"))));
      after(() => rmSync(dir, { recursive: true, force: true }));

      const withFixtures = async (fixtures: unknown, test: (chat: ChatClient, emulator: RunningEmulator) => Promise<void>) => {
        const file = path.join(dir, "fixtures.json");
        writeFileSync(file, JSON.stringify(fixtures));
        const other = await startEmulator({ rateLimit: 0, fixtures: file });
        try {
          await test(chatClient(other.chatUrl, { Authorization: `Token ${other.apiToken}` }), other);
        } finally {
          await other.close();
        }
      };

      it("runs its flows besides the built-in ones, after a reset too, and leaves the CRM data generated", async () => {
        const added = "7a1c2e3d-4b5f-4a6e-8d9c-0b1a2c3d4e5f";
        await withFixtures(
          {
            flows: [
              { id: added.toUpperCase(), name: "Added", status: "PUBLISHED" },
              { id: FLOW, name: "Renamed" },
            ],
          },
          async (fixtureChat, other) => {
            assert.equal((await fixtureChat.run(body, added)).status, 201);
            assert.equal((await fixtureChat.run(body, FLOW, "whatsapp")).status, 201);
            assert.equal((await fixtureChat.run(body, OTHER_FLOW)).status, 201);
            assert.deepEqual(await fixtureChat.run(body, UNKNOWN), notFound);
            assert.equal((await fetch(`${other.crmUrl}/__emulator/reset`, { method: "POST" })).status, 200);
            assert.equal((await fixtureChat.run(body, added)).status, 201);
            const automations = await fetch(`${other.crmUrl}/api/3/automations`, { headers: { "Api-Token": other.apiToken } });
            assert.equal(((await automations.json()) as { meta: { total: string } }).meta.total, String(GENERATED_AUTOMATIONS));
          },
        );
      });

      it("ends the runs of a flow given a failureReason FAILED with it", async () => {
        const failing = "5b0f9a1c-2d3e-4f50-8a6b-7c8d9e0f1a2b";
        const file = path.join(dir, "failing.json");
        writeFileSync(file, JSON.stringify({ flows: [{ id: failing, name: "Failing", failureReason: "Template rejected." }] }));
        const other = await startEmulator({ rateLimit: 0, fixtures: file, executionDurationMs: 20 });
        try {
          const fixtureChat = chatClient(other.chatUrl, { Authorization: `Token ${other.apiToken}` });
          const created = (await fixtureChat.run(body, failing)).body;
          await new Promise((resolve) => setTimeout(resolve, 40));
          const { body: ended } = await fixtureChat.read(created.id);
          assert.deepEqual([ended.status, ended.failed, ended.status_reason], ["FAILED", 1, "Template rejected."]);
        } finally {
          await other.close();
        }
      });

      it("runs the flows of the sample file emulator/fixtures/flows.json", async () => {
        const sample = await startEmulator({ rateLimit: 0, fixtures: path.join(__dirname, "../../emulator/fixtures/flows.json") });
        try {
          const sampleChat = chatClient(sample.chatUrl, { Authorization: `Token ${sample.apiToken}` });
          assert.equal((await sampleChat.run(body, "498edd42-e949-46de-862e-456ad404681e")).status, 201);
        } finally {
          await sample.close();
        }
      });

      it("refuses flows that are not a list of {id: UUID, name}", async () => {
        for (const flows of [{}, [{ id: "42", name: "Not a UUID" }], [{ id: UNKNOWN }], [{ id: UNKNOWN, name: "n".repeat(101) }]]) {
          await assert.rejects(
            withFixtures({ flows }, async () => assert.fail("started")),
            /fixtures\.json: flows must be an array of \{id: UUID, name: 1 to 100 characters, failureReason\?: text\} \(flows[.\w]*: /,
          );
        }
      });
    });
  });

  describe("validation (400, DRF error shape)", () => {
    const cases: Array<{ name: string; body: unknown; errors: unknown }> = [
      {
        name: "required members",
        body: {},
        errors: { execute_for: ["This field is required."], contact_list: ["This field is required."] },
      },
      {
        name: "execute_for other than LIST, a has_priority that is not a boolean",
        body: { execute_for: "FILTERS", has_priority: "maybe", contact_list: [] },
        errors: { execute_for: ['"FILTERS" is not a valid choice.'], has_priority: ["Must be a valid boolean."] },
      },
      {
        name: "a contact_list that is not a list",
        body: { execute_for: "LIST", contact_list: { phone: "1" } },
        errors: { contact_list: ['Expected a list of items but got type "dict".'] },
      },
      {
        name: "contact errors, lined up with the contacts",
        body: {
          execute_for: "LIST",
          contact_list: [
            { phone: "+15550100" },
            {
              phone: "1".repeat(31),
              first_name: "x".repeat(101),
              email: "not-an-email",
              external_url: "ftp//example",
              id: "123",
              contact_import: "not-a-uuid",
              created_on: "yesterday",
              is_deleted: "perhaps",
              default_channel: 1.5,
              wa_id: 7,
            },
            "not an object",
          ],
        },
        errors: {
          contact_list: [
            {},
            {
              phone: ["Ensure this field has no more than 30 characters."],
              first_name: ["Ensure this field has no more than 100 characters."],
              email: ["Enter a valid email address."],
              external_url: ["Enter a valid URL."],
              is_deleted: ["Must be a valid boolean."],
              id: ["Must be a valid UUID."],
              created_on: ["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."],
              contact_import: ["Must be a valid UUID."],
              default_channel: ["A valid integer is required."],
              wa_id: ["Not a valid string."],
            },
            { non_field_errors: ["Invalid data. Expected a dictionary, but got str."] },
          ],
        },
      },
      {
        name: "an email that is both malformed and too long",
        body: { execute_for: "LIST", contact_list: [{ email: `${"a".repeat(260)}@` }] },
        errors: {
          contact_list: [{ email: ["Enter a valid email address.", "Ensure this field has no more than 254 characters."] }],
        },
      },
      {
        name: "nested tags and assignees: tag errors line up, list-field errors are keyed by index",
        body: { execute_for: "LIST", contact_list: [{ tags: [{ name: "ok" }, { name: "t".repeat(101) }, {}], default_assignees: [1, "two"] }] },
        errors: {
          contact_list: [
            {
              tags: [{}, { name: ["Ensure this field has no more than 100 characters."] }, { name: ["This field is required."] }],
              default_assignees: { "1": ["A valid integer is required."] },
            },
          ],
        },
      },
      {
        name: "null where the seed does not allow it",
        body: { execute_for: "LIST", has_priority: null, contact_list: [{ phone: null, email: null }] },
        errors: { has_priority: ["This field may not be null."], contact_list: [{ phone: ["This field may not be null."] }] },
      },
      {
        name: "a body that is not an object",
        body: [{ execute_for: "LIST" }],
        errors: { non_field_errors: ["Invalid data. Expected a dictionary, but got list."] },
      },
      {
        name: "a JSON null body",
        body: null,
        errors: { non_field_errors: ["No data provided"] },
      },
    ];
    for (const { name, body, errors } of cases) {
      it(name, async () => {
        assert.deepEqual(await chat.run(body), { status: 400, body: errors });
      });
    }

    it("refuses JSON that does not parse", async () => {
      const reply = await chat.call("POST", `/channel/chat/flow/${FLOW}/run`, { body: "{", contentType: "application/json" });
      assert.equal(reply.status, 400);
      assert.match(reply.body.detail, /^JSON parse error - /);
    });

    it("refuses a form whose contact_list is not JSON", async () => {
      const reply = await chat.call("POST", `/channel/chat/flow/${FLOW}/run`, {
        body: "execute_for=LIST&contact_list=phone",
        contentType: "application/x-www-form-urlencoded",
      });
      assert.deepEqual(reply, { status: 400, body: { contact_list: ["Value must be valid JSON."] } });
    });

    it("answers 415 to a content type the reference does not declare", async () => {
      const reply = await chat.call("POST", `/channel/chat/flow/${FLOW}/run`, { body: "execute_for: LIST", contentType: "text/yaml" });
      assert.deepEqual(reply, { status: 415, body: { detail: 'Unsupported media type "text/yaml" in request.' } });
    });
  });

  describe("GET /channel/{channel}/flow-execution/{id}", () => {
    it("reads an execution through either channel", async () => {
      const { body: created } = await chat.run({ execute_for: "LIST", contact_list: contacts(1) }, FLOW, "chat");
      assert.deepEqual(await chat.read(created.id, "whatsapp"), { status: 200, body: created });
    });

    it("answers 404 for an unknown execution", async () => {
      assert.deepEqual(await chat.read(UNKNOWN), { status: 404, body: { detail: "Not found." } });
    });
  });

  it("keeps executions across a restart with a data file", () =>
    inTempDir("chat-", async (dataDir) => {
      const dataFile = path.join(dataDir, "state.json");
      const first = await startEmulator({ rateLimit: 0, data: dataFile, token: "restart-key" });
      const restartClient = (chatUrl: string) => chatClient(chatUrl, { Authorization: "Token restart-key" });
      const created = (await restartClient(first.chatUrl).run({ execute_for: "LIST", contact_list: contacts(2) })).body;
      await first.close();

      const second = await startEmulator({ rateLimit: 0, data: dataFile, token: "restart-key" });
      try {
        const reread = await restartClient(second.chatUrl).read(created.id);
        assert.deepEqual([reread.status, reread.body.created_on, reread.body.num_contacts], [200, created.created_on, 2]);
      } finally {
        await second.close();
      }
    }));
});

describe("chat flow service, execution progress with an injected clock", () => {
  let now = START;
  let service: EmulatedService;
  let server: { url: string; close(): Promise<void> };
  let chat: ChatClient;

  before(async () => {
    service = createChatService({ now: () => now });
    server = await mount(service);
    chat = chatClient(server.url, {});
  });
  after(() => server.close());
  beforeEach(() => {
    now = START;
    service.reset();
  });

  describe("progress", () => {
    it("moves contacts from running to completed over the execution's duration", async () => {
      const { body: created } = await chat.run({ execute_for: "LIST", contact_list: contacts(4) });
      const progress = async () => {
        const { body } = await chat.read(created.id);
        return [body.status, body.running, body.completed, body.avg_completion_time, body.status_last_change_on];
      };
      assert.deepEqual(await progress(), ["RUNNING", 4, 0, "00:00:00", new Date(START).toISOString()]);
      now = START + EXECUTION_DURATION_MS / 2;
      // Contacts finish at 1/4 and 2/4 of the duration: mean (0.75 + 1.5) / 2 = 1.125 s.
      assert.deepEqual(await progress(), ["RUNNING", 2, 2, "00:00:01.125000", new Date(START).toISOString()]);
      now = START + EXECUTION_DURATION_MS * 10;
      const finishedOn = new Date(START + EXECUTION_DURATION_MS).toISOString();
      assert.deepEqual(await progress(), ["COMPLETED", 0, 4, "00:00:01.875000", finishedOn]);
    });

    it("fails each contact of a run of a failing flow in turn and ends FAILED with the flow's reason", async () => {
      const failing = BUILT_IN_FLOWS.find((flow) => flow.failureReason)!;
      const { body: created } = await chat.run({ execute_for: "LIST", contact_list: contacts(2) }, failing.id);
      const outcome = async () => {
        const { body } = await chat.read(created.id);
        return [body.status, body.running, body.completed, body.failed, body.status_reason];
      };
      now = START + EXECUTION_DURATION_MS / 2;
      assert.deepEqual(await outcome(), ["RUNNING", 1, 0, 1, null]);
      now = START + EXECUTION_DURATION_MS;
      assert.deepEqual(await outcome(), ["FAILED", 0, 0, 2, failing.failureReason]);
    });

    it("runs over the duration it is given", async () => {
      const quick = createChatService({ now: () => now, executionDurationMs: 100 });
      const quickServer = await mount(quick);
      try {
        const quickChat = chatClient(quickServer.url, {});
        const { body: created } = await quickChat.run({ execute_for: "LIST", contact_list: contacts(2) });
        now = START + 100;
        const { body } = await quickChat.read(created.id);
        assert.deepEqual([body.status, body.status_last_change_on], ["COMPLETED", new Date(START + 100).toISOString()]);
      } finally {
        await quickServer.close();
      }
    });

    it("completes an execution without contacts at once", async () => {
      const { body } = await chat.run({ execute_for: "LIST", contact_list: [] });
      assert.deepEqual([body.status, body.num_contacts, body.status_last_change_on], ["COMPLETED", 0, new Date(START).toISOString()]);
    });
  });

  describe("has_priority", () => {
    it("cancels the other running executions of the same flow, and only those", async () => {
      const running = (await chat.run({ execute_for: "LIST", contact_list: contacts(3) })).body;
      const finished = (await chat.run({ execute_for: "LIST", contact_list: [] })).body;
      const otherFlow = (await chat.run({ execute_for: "LIST", contact_list: contacts(1) }, OTHER_FLOW)).body;
      now = START + EXECUTION_DURATION_MS / 3;
      const priority = (await chat.run({ execute_for: "LIST", has_priority: true, contact_list: contacts(1) })).body;
      assert.equal(priority.status, "RUNNING");

      now = START + EXECUTION_DURATION_MS * 10;
      const canceled = (await chat.read(running.id)).body;
      assert.deepEqual(
        [canceled.status, canceled.running, canceled.completed, canceled.canceled, canceled.status_last_change_on],
        ["CANCELED", 0, 1, 2, new Date(START + EXECUTION_DURATION_MS / 3).toISOString()],
      );
      assert.equal(canceled.status_reason, `Canceled by the priority flow execution ${priority.id}.`);
      assert.equal((await chat.read(finished.id)).body.status, "COMPLETED");
      assert.equal((await chat.read(otherFlow.id)).body.status, "COMPLETED");
      assert.equal((await chat.read(priority.id)).body.status, "COMPLETED");
    });
  });

  describe("persistence", () => {
    it("restores a snapshot into a fresh service, progress and tag ids included", async () => {
      const created = (await chat.run({ execute_for: "LIST", contact_list: [{ tags: [{ name: "vip" }] }] })).body;
      const restored = createChatService({ now: () => now });
      restored.restore(JSON.parse(JSON.stringify(service.snapshot())));
      service.reset();
      assert.equal((await chat.read(created.id)).status, 404);

      service.restore(restored.snapshot());
      now = START + EXECUTION_DURATION_MS;
      assert.equal((await chat.read(created.id)).body.status, "COMPLETED");
      const next = (await chat.run({ execute_for: "LIST", contact_list: [{ tags: [{ name: "vip" }, { name: "new" }] }] })).body;
      assert.deepEqual(next.contact_list[0].tags, [
        { id: 1, name: "vip" },
        { id: 2, name: "new" },
      ]);
    });

    it("refuses a state that is not its own", () => {
      assert.throws(() => service.restore({ executions: "none" }), /Invalid chat service state/);
    });
  });
});
