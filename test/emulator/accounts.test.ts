// Many accounts from one emulator process: each named account below /acct/<name> has its own data,
// key, rate limits and counters, as each real account has its own address (a fleet of client
// stacks runs against them on one machine).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArguments } from "../../emulator/src/core/cli";
import { inTempDir, startHarness, type Harness } from "./harness";

async function call(url: string, token: string | undefined, method = "GET", body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, {
    method,
    headers: { ...(token === undefined ? {} : { "Api-Token": token }), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: /json/.test(response.headers.get("content-type") ?? "") ? JSON.parse(text) : text };
}

describe("emulator: many accounts from one process", () => {
  describe("data, keys and counters", () => {
    let h: Harness;
    before(async () => (h = await startHarness({ token: "root-key", accounts: [{ name: "acme", token: "acme-key" }, { name: "globex" }] })));
    after(() => h.close());

    it("serves each named account at its own address, with a key of its own", async () => {
      const { acme, globex } = h.emulator.accounts;
      assert.deepEqual(acme, { crmUrl: `${h.emulator.crmUrl}/acct/acme`, chatUrl: `${h.emulator.crmUrl}/acct/acme/chat`, apiToken: "acme-key" });
      assert.match(globex.apiToken, /^[0-9a-f]{40}$/);
      assert.equal((await call(`${acme.crmUrl}/api/3/accounts`, "acme-key")).status, 200);
      // A key opens its own account only.
      assert.equal((await call(`${acme.crmUrl}/api/3/accounts`, globex.apiToken)).status, 403);
      assert.equal((await call(`${acme.crmUrl}/api/3/accounts`, "root-key")).status, 403);
      assert.equal((await call(`${h.emulator.crmUrl}/api/3/accounts`, "acme-key")).status, 403);
    });

    it("keeps each account's data apart, ids included, and links to the account's own address", async () => {
      const { acme, globex } = h.emulator.accounts;
      const made = await call(`${acme.crmUrl}/api/3/accounts`, acme.apiToken, "POST", { account: { name: "Acme" } });
      assert.equal(made.status, 201);
      assert.equal(made.body.account.id, "1");
      const listed = await call(`${acme.crmUrl}/api/3/accounts`, acme.apiToken);
      assert.equal(listed.body.accounts[0].links.notes, `${acme.crmUrl}/api/3/accounts/1/notes`);
      assert.equal((await call(`${globex.crmUrl}/api/3/accounts`, globex.apiToken, "POST", { account: { name: "Globex" } })).body.account.id, "1");
      const names = async (url: string, token: string) => (await call(`${url}/api/3/accounts`, token)).body.accounts.map((a: { name: string }) => a.name);
      assert.deepEqual(await names(acme.crmUrl, acme.apiToken), ["Acme"]);
      assert.deepEqual(await names(globex.crmUrl, globex.apiToken), ["Globex"]);
      assert.deepEqual(await names(h.emulator.crmUrl, "root-key"), []);
    });

    it("counts each account's requests on its own admin routes, and resets one account alone", async () => {
      const { acme, globex } = h.emulator.accounts;
      await call(`${acme.crmUrl}/__emulator/reset-counters`, undefined, "POST");
      await call(`${globex.crmUrl}/__emulator/reset-counters`, undefined, "POST");
      await call(`${acme.crmUrl}/api/3/accounts`, acme.apiToken);
      await call(`${acme.crmUrl}/api/3/accounts`, acme.apiToken);
      assert.equal((await call(`${acme.crmUrl}/__emulator/stats`, undefined)).body.requests, 2);
      assert.equal((await call(`${globex.crmUrl}/__emulator/stats`, undefined)).body.requests, 0);
      assert.equal((await call(`${globex.crmUrl}/__emulator/reset`, undefined, "POST")).status, 200);
      assert.equal((await call(`${globex.crmUrl}/api/3/accounts`, globex.apiToken)).body.accounts.length, 0);
      assert.equal((await call(`${acme.crmUrl}/api/3/accounts`, acme.apiToken)).body.accounts.length, 1);
    });

    it("answers 404 with the HTML page under the address of an account not opened", async () => {
      const reply = await call(`${h.emulator.crmUrl}/acct/initech/api/3/accounts`, "root-key");
      assert.equal(reply.status, 404);
      assert.match(reply.body, /<html>.*Not Found/s);
    });

    it("opens an account while it runs, once, and refuses a second key for it or a name that is no host label", async () => {
      const opened = await call(`${h.emulator.crmUrl}/__emulator/accounts`, undefined, "POST", { name: "initech", token: "initech-key" });
      assert.deepEqual(
        [opened.status, opened.body],
        [201, { name: "initech", crmUrl: `${h.emulator.crmUrl}/acct/initech`, chatUrl: `${h.emulator.crmUrl}/acct/initech/chat`, apiToken: "initech-key" }],
      );
      assert.equal((await call(`${opened.body.crmUrl}/api/3/accounts`, "initech-key")).status, 200);
      assert.equal((await call(`${h.emulator.crmUrl}/__emulator/accounts`, undefined, "POST", { name: "initech" })).status, 200);
      const otherKey = await call(`${h.emulator.crmUrl}/__emulator/accounts`, undefined, "POST", { name: "initech", token: "another" });
      assert.equal(otherKey.status, 409);
      assert.match(otherKey.body.message, /open already with another key/);
      const badName = await call(`${h.emulator.crmUrl}/__emulator/accounts`, undefined, "POST", { name: "Not_A_Label" });
      assert.equal(badName.status, 400);
      assert.match(badName.body.message, /host name's label/);
      const listed = await call(`${h.emulator.crmUrl}/__emulator/accounts`, undefined);
      assert.deepEqual(
        listed.body.accounts.map((a: { name: string }) => a.name),
        ["acme", "globex", "initech"],
      );
      assert.ok(!JSON.stringify(listed.body).includes("initech-key"), "the list shows no key");
      assert.equal(h.emulator.addAccount("initech").apiToken, "initech-key");
    });
  });

  it("limits each account to its own 5 requests a second: a busy account never slows another", async () => {
    const h = await startHarness({ rateLimit: 5, accounts: [{ name: "busy" }, { name: "quiet" }] });
    try {
      const { busy, quiet } = h.emulator.accounts;
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await call(`${busy.crmUrl}/api/3/accounts`, busy.apiToken)).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
      const other = await call(`${quiet.crmUrl}/api/3/accounts`, quiet.apiToken);
      assert.equal(other.status, 200);
      assert.equal(other.headers.get("ratelimit-remaining"), "4");
      assert.equal((await h.api("GET", "/api/3/accounts")).status, 200);
    } finally {
      await h.close();
    }
  });

  it("keeps every account, its data and its key, across a restart with --data", () =>
    inTempDir("crm-emulator-accounts-", async (dir) => {
      const data = join(dir, "state.json");
      const first = await startHarness({ data, accounts: [{ name: "acme" }] });
      const acme = first.emulator.accounts.acme;
      await call(`${acme.crmUrl}/api/3/accounts`, acme.apiToken, "POST", { account: { name: "Kept" } });
      const opened = first.emulator.addAccount("globex");
      await first.close();
      assert.deepEqual(Object.keys(JSON.parse(readFileSync(data, "utf8")).accounts), ["acme", "globex"]);

      const second = await startHarness({ data });
      try {
        const again = second.emulator.accounts;
        assert.deepEqual([again.acme.apiToken, again.globex.apiToken], [acme.apiToken, opened.apiToken]);
        const names = (await call(`${again.acme.crmUrl}/api/3/accounts`, acme.apiToken)).body.accounts.map((a: { name: string }) => a.name);
        assert.deepEqual(names, ["Kept"]);
      } finally {
        await second.close();
      }
    }));

  it("takes --accounts on the command line as a list of names", () => {
    assert.deepEqual(parseArguments(["--accounts", "acme,globex"]).accounts, [{ name: "acme" }, { name: "globex" }]);
  });
});
