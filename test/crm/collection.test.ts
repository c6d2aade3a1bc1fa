import assert from "node:assert/strict";
import { CrmClient } from "../../provider/crm/service/client";
import { pageOf, pages, walk } from "../../provider/crm/service/collection";
import type { ServiceError } from "../../provider/transport/errors";
import { useStackConfig } from "../../provider/settings";
import { configOf } from "../../scripts/harness/emulator";
import { type ScriptedServer, sendJson, startScriptedServer } from "../support/scripted-server";

/** A collection of `size` items `{ id }` under `things`, paged by limit and offset, with `meta` as the script gives it. */
function serveThings(size: number, meta: (size: number) => Record<string, unknown> | undefined = (count) => ({ total: String(count) })) {
  return startScriptedServer((req, res) => {
    const query = new URL(req.url, "http://x").searchParams;
    const offset = Number(query.get("offset") ?? 0);
    const things = Array.from({ length: Math.max(0, Math.min(Number(query.get("limit")), size - offset)) }, (_, index) => ({ id: String(offset + index + 1) }));
    sendJson(res, 200, { things, ...(meta(size) ? { meta: meta(size) } : {}) });
  });
}

describe("crm collection paging", () => {
  let server: ScriptedServer;
  const client = () => new CrmClient("test collection");
  const use = (scripted: ScriptedServer) => {
    server = scripted;
    useStackConfig(configOf({ "crm:apiUrl": server.url, "crm:apiToken": "k", "crm:requestsPerSecond": "0" }));
  };
  const offsets = () => server.requests.map((request) => new URL(request.url, "http://x").searchParams.get("offset"));
  afterEach(async () => server?.close());

  it("walks pages of 100 until the service's total, a string or a number", async () => {
    for (const total of [(count: number) => ({ total: String(count) }), (count: number) => ({ total: count })]) {
      use(await serveThings(200, total));
      const items = await walk<{ id: string }>(client(), "/things", "things", { "orders[id]": "ASC" });
      assert.deepEqual([items.length, items[199].id, offsets()], [200, "200", ["0", "100"]]);
      assert.match(server.requests[0].url, /^\/api\/3\/things\?orders%5Bid%5D=ASC&limit=100&offset=0$/);
      await server.close();
    }
  });

  it("without a usable total, only a short page ends the walk", async () => {
    for (const meta of [() => undefined, () => ({ total: null })]) {
      use(await serveThings(200, meta));
      assert.equal((await walk(client(), "/things", "things", {})).length, 200);
      assert.deepEqual(offsets(), ["0", "100", "200"]);
      await server.close();
    }
  });

  it("ends at the page holding what the caller stops at", async () => {
    use(await serveThings(350));
    const items = await walk<{ id: string }>(client(), "/things", "things", {}, (item) => item.id === "150");
    assert.deepEqual([items.length, offsets()], [200, ["0", "100"]]);
  });

  it("refuses a collection past its bound: after the first page with a total, else once read past it", async () => {
    const bound = { maxRecords: 150, narrow: "give a search" };
    use(await serveThings(350));
    await assert.rejects(walk(client(), "/things", "things", {}, undefined, bound), (error: ServiceError) => {
      assert.equal(error.code, "too_many_records");
      assert.equal(error.message, "test collection: 350 records match, more than the 150 a lookup reads; give a search.");
      return true;
    });
    assert.deepEqual(offsets(), ["0"]);
    await server.close();

    use(await serveThings(350, () => undefined));
    await assert.rejects(walk(client(), "/things", "things", {}, undefined, bound), /more than 150 records match, more than the 150 a lookup reads/);
    assert.deepEqual(offsets(), ["0", "100"]);
    await server.close();

    // A collection of exactly the bound is read whole.
    use(await serveThings(150, () => undefined));
    assert.equal((await walk(client(), "/things", "things", {}, undefined, bound)).length, 150);
  });

  it("an answer without the list is a last page without items", async () => {
    use(await startScriptedServer((_req, res) => sendJson(res, 200, { meta: { total: "500" } })));
    const seen = [];
    for await (const page of pages(client(), "/things", "things", {})) seen.push(page);
    assert.deepEqual(seen, [{ items: undefined, total: 500, last: true }]);
    assert.deepEqual(await walk(client(), "/things", "things", {}), []);
  });

  it("a single page is the first, asked for without an offset", async () => {
    use(await serveThings(30));
    const page = await pageOf(client(), "/things", "things", { "orders[id]": "DESC" });
    assert.deepEqual([page.items?.length, page.total], [30, 30]);
    assert.equal(server.requests[0].url, "/api/3/things?orders%5Bid%5D=DESC&limit=100");
  });
});
