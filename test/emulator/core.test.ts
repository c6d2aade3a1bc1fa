import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArguments, wantsHelp } from "../../emulator/src/core/cli";
import { parseFaultSpec } from "../../emulator/src/core/faults";
import { inTempDir, startHarness, type Harness } from "./harness";

describe("emulator core", () => {
  describe("authentication", () => {
    let h: Harness;
    before(async () => (h = await startHarness({ token: "core-auth-key" })));
    after(() => h.close());

    it("answers 403 {message} to CRM requests without a key or with a wrong one", async () => {
      const missing = await h.raw("GET", "/api/3/accounts");
      assert.equal(missing.status, 403);
      assert.equal(typeof missing.body.message, "string");
      const wrong = await h.raw("GET", "/api/3/accounts", undefined, { "Api-Token": "not-the-key" });
      assert.equal(wrong.status, 403);
      assert.equal((await h.api("GET", "/api/3/accounts")).status, 200);
    });

    it("requires Authorization: Token <key> on chat paths and refuses an Api-Token header alone", async () => {
      const apiTokenOnly = await h.raw("POST", "/chat/channel/chat/flow/x/run", {}, { "Api-Token": "core-auth-key" });
      assert.equal(apiTokenOnly.status, 403);
      const wrongScheme = await h.raw("POST", "/chat/channel/chat/flow/x/run", {}, { Authorization: "Bearer core-auth-key" });
      assert.equal(wrongScheme.status, 403);
      const wrongKey = await h.raw("POST", "/chat/channel/chat/flow/x/run", {}, { Authorization: "Token other-key" });
      assert.deepEqual([apiTokenOnly.body, wrongKey.body], [{ detail: "Authentication credentials were not provided." }, { detail: "Invalid token." }]);
      const authorized = await h.raw("POST", "/chat/channel/chat/flow/x/run", {}, { Authorization: "Token core-auth-key" });
      assert.notEqual(authorized.status, 403);
    });

    it("generates a random key when none is given", async () => {
      const a = await startHarness();
      const b = await startHarness();
      try {
        assert.match(a.emulator.apiToken, /^[0-9a-f]{40}$/);
        assert.notEqual(a.emulator.apiToken, b.emulator.apiToken);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  });

  describe("routing", () => {
    let h: Harness;
    before(async () => (h = await startHarness()));
    after(() => h.close());

    it("answers 404 with an HTML page, not JSON, to unknown paths inside and outside the services", async () => {
      for (const path of ["/api/3/nothingHere", "/api/3/accounts/1/nothingHere", "/elsewhere"]) {
        const reply = await h.api("GET", path);
        assert.equal(reply.status, 404, path);
        assert.match(reply.headers.get("content-type") ?? "", /^text\/html/, path);
        assert.match(reply.body, /<html>.*Not Found/s, path);
      }
      // A known path with an unknown id is the service's own JSON answer.
      assert.deepEqual((await h.api("GET", "/api/3/accounts/99")).body, { message: "No Result found for Account with id 99" });
    });

    it("answers GET /api/3/ with 200 to a valid key, 403 to a bad one or none: what clients check their key with", async () => {
      for (const root of ["/api/3/", "/api/3"]) {
        const reply = await h.api("GET", root);
        assert.equal(reply.status, 200, root);
        assert.match(reply.headers.get("content-type") ?? "", /json/);
        assert.equal((await h.raw("GET", root, undefined, { "Api-Token": "not-the-key" })).status, 403);
        assert.equal((await h.raw("GET", root)).status, 403);
      }
    });

    it("answers 405 with Allow to a wrong method on a known path", async () => {
      const reply = await h.api("PATCH", "/api/3/accounts");
      assert.equal(reply.status, 405);
      assert.deepEqual(reply.headers.get("allow")?.split(", ").sort(), ["GET", "POST"]);
    });

    it("answers 400 to malformed JSON", async () => {
      const reply = await h.api("POST", "/api/3/accounts", "{not json");
      assert.equal(reply.status, 400);
      assert.match(reply.body.message, /Malformed JSON/);
    });

    it("listens on 127.0.0.1 and hands out the service addresses", () => {
      assert.equal(h.emulator.crmUrl, `http://127.0.0.1:${h.emulator.port}`);
      assert.equal(h.emulator.chatUrl, `http://127.0.0.1:${h.emulator.port}/chat`);
    });
  });

  describe("rate limit", () => {
    it("admits 5 requests per second per account, then answers 429 with Retry-After", async () => {
      const h = await startHarness({ token: "core-rate-key", rateLimit: 5 });
      try {
        const statuses: number[] = [];
        const remaining: Array<string | null> = [];
        for (let i = 0; i < 5; i++) {
          const answer = await h.api("GET", "/api/3/accounts");
          statuses.push(answer.status);
          remaining.push(answer.headers.get("ratelimit-remaining"));
        }
        const sixth = await h.api("GET", "/api/3/accounts");
        assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
        // As the real service since about 2026 (REAL-WORLD.md): the limit and what is left of the window.
        assert.deepEqual(remaining, ["4", "3", "2", "1", "0"]);
        assert.equal(sixth.headers.get("ratelimit-limit"), "5");
        assert.equal(sixth.status, 429);
        assert.equal(sixth.headers.get("retry-after"), "1");
        assert.match(sixth.body.message, /Rate limit/);
        await new Promise((resolve) => setTimeout(resolve, 1050));
        assert.equal((await h.api("GET", "/api/3/accounts")).status, 200);
      } finally {
        await h.close();
      }
    });

    it("shares the limit between the keys of one account but not across accounts", async () => {
      const h = await startHarness({ token: "core-shared-key", rateLimit: 2 });
      try {
        await h.api("POST", "/__emulator/tokens", { token: "same-account-key" });
        await h.api("POST", "/__emulator/tokens", { token: "other-account-key", account: "other" });
        assert.equal((await h.api("GET", "/api/3/accounts")).status, 200);
        assert.equal((await h.raw("GET", "/api/3/accounts", undefined, { "Api-Token": "same-account-key" })).status, 200);
        assert.equal((await h.raw("GET", "/api/3/accounts", undefined, { "Api-Token": "same-account-key" })).status, 429);
        assert.equal((await h.raw("GET", "/api/3/accounts", undefined, { "Api-Token": "other-account-key" })).status, 200);
      } finally {
        await h.close();
      }
    });

    describe("per service", () => {
      const flowRun = "/chat/channel/chat/flow/2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31/run"; // a built-in flow
      const runFlow = (h: Harness) => h.raw("POST", flowRun, {}, { Authorization: `Token ${h.emulator.apiToken}` });
      const readAccounts = (h: Harness) => h.api("GET", "/api/3/accounts");

      /** Statuses of `count` sequential requests; each service's window starts empty. */
      async function statuses(count: number, request: () => Promise<{ status: number }>): Promise<number[]> {
        const seen: number[] = [];
        for (let i = 0; i < count; i++) seen.push((await request()).status);
        return seen;
      }

      it("does not throttle chat once CRM requests have used up the CRM limit", async () => {
        const h = await startHarness({ rateLimit: 2 });
        try {
          assert.deepEqual(await statuses(3, () => readAccounts(h)), [200, 200, 429]);
          const chat = await runFlow(h);
          assert.equal(chat.status, 400); // an empty body, refused by the service and not by the limit
          assert.equal(chat.headers.get("ratelimit-remaining"), "1");
        } finally {
          await h.close();
        }
      });

      it("does not throttle CRM once chat requests have used up the chat limit", async () => {
        const h = await startHarness({ rateLimit: 2 });
        try {
          assert.deepEqual(await statuses(3, () => runFlow(h)), [400, 400, 429]);
          const crm = await readAccounts(h);
          assert.equal(crm.status, 200);
          assert.equal(crm.headers.get("ratelimit-remaining"), "1");
        } finally {
          await h.close();
        }
      });

      it("takes each service's rate on its own, in place of rateLimit", async () => {
        const h = await startHarness({ rateLimit: 5, crmRateLimit: 1, chatRateLimit: 0 });
        try {
          assert.deepEqual(await statuses(2, () => readAccounts(h)), [200, 429]);
          assert.deepEqual(await statuses(8, () => runFlow(h)), Array(8).fill(400));
        } finally {
          await h.close();
        }
      });
    });

    it("is off with rateLimit 0", async () => {
      const h = await startHarness({ rateLimit: 0 });
      try {
        const replies = await Promise.all(Array.from({ length: 30 }, () => h.api("GET", "/api/3/accounts")));
        assert.ok(replies.every((reply) => reply.status === 200));
      } finally {
        await h.close();
      }
    });

    it("never limits admin routes", async () => {
      const h = await startHarness({ rateLimit: 1 });
      try {
        for (let i = 0; i < 5; i++) assert.equal((await h.api("GET", "/__emulator/stats")).status, 200);
        assert.equal((await h.api("GET", "/api/3/accounts")).status, 200);
      } finally {
        await h.close();
      }
    });
  });

  describe("fault injection", () => {
    /** Status of each of `count` sequential requests, or "reset" when the connection dropped. */
    async function outcomes(h: Harness, count: number): Promise<Array<number | "reset">> {
      const seen: Array<number | "reset"> = [];
      for (let i = 0; i < count; i++) {
        try {
          seen.push((await h.api("GET", "/api/3/accounts")).status);
        } catch {
          seen.push("reset");
        }
      }
      return seen;
    }

    it("produces the same faults for the same seed", async () => {
      const first = await startHarness({ faults: "429=0.3,503=0.2,reset=0.1", seed: 42 });
      const second = await startHarness({ faults: "429=0.3,503=0.2,reset=0.1", seed: 42 });
      try {
        const a = await outcomes(first, 40);
        const b = await outcomes(second, 40);
        assert.deepEqual(a, b);
        for (const expected of [200, 429, 503, "reset"] as const) assert.ok(a.includes(expected), `expected a ${expected} in ${a}`);
        const stats = (await first.api("GET", "/__emulator/stats")).body;
        assert.equal(stats.byStatus.reset, a.filter((o) => o === "reset").length);
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });

    it("carries out a request, then answers 500, 502 or 504 with an HTML page or an empty body", async () => {
      const h = await startHarness({ faults: "500=1", seed: 1 });
      /** The status and the body's kind: an HTML page (its title), empty, or else the text. */
      const answer = async (method: string, body?: unknown) => {
        const response = await fetch(`${h.emulator.crmUrl}/api/3/accounts`, {
          method,
          headers: { "Api-Token": h.emulator.apiToken, "Content-Type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        const title = /^<!DOCTYPE html><html><head><title>([^<]+)<\/title>/.exec(text)?.[1];
        return { status: response.status, kind: text === "" ? "empty" : title ? `page "${title}"` : text };
      };
      try {
        const posts = [];
        for (let n = 0; n < 12; n++) posts.push(await answer("POST", { account: { name: `Failed After ${n}` } }));
        assert.deepEqual(new Set(posts.map((post) => post.status)), new Set([500]));
        assert.deepEqual(new Set(posts.map((post) => post.kind)), new Set(["empty", 'page "500 Internal Server Error"']));
        await h.api("POST", "/__emulator/faults", { spec: "502=0.5,504=0.5", seed: 2 });
        const gets = [];
        for (let n = 0; n < 12; n++) gets.push(await answer("GET"));
        assert.deepEqual(new Set(gets.map((get) => get.status)), new Set([502, 504]));
        await h.api("POST", "/__emulator/faults", { spec: "" });
        const names = (await h.api("GET", "/api/3/accounts?limit=100")).body.accounts.map((a: { name: string }) => a.name);
        assert.equal(names.length, 12, "each POST answered 500 was carried out");
        assert.equal((await h.api("GET", "/__emulator/stats")).body.byRouteAndStatus["POST /api/3/accounts"]["500"], 12);
      } finally {
        await h.close();
      }
    });

    it("carries out a request whose answer it then loses (lost), unlike a reset", async () => {
      const h = await startHarness({ faults: "lost=1", seed: 1 });
      try {
        await assert.rejects(h.api("POST", "/api/3/accounts", { account: { name: "Lost Answer" } }));
        await h.api("POST", "/__emulator/faults", { spec: "reset=1" });
        await assert.rejects(h.api("POST", "/api/3/accounts", { account: { name: "Never Made" } }));
        await h.api("POST", "/__emulator/faults", { spec: "" });
        const names = (await h.api("GET", "/api/3/accounts")).body.accounts.map((a: { name: string }) => a.name);
        assert.deepEqual(names, ["Lost Answer"]);
        const stats = (await h.api("GET", "/__emulator/stats")).body;
        assert.equal(stats.byStatus.lost, 1);
        assert.equal(stats.byStatus.reset, 1);
      } finally {
        await h.close();
      }
    });

    it("is configured and cleared at run time; injected 429s carry Retry-After", async () => {
      const h = await startHarness();
      try {
        await h.api("POST", "/__emulator/faults", { spec: "429=1", seed: 1 });
        const faulted = await h.api("GET", "/api/3/accounts");
        assert.equal(faulted.status, 429);
        assert.equal(faulted.headers.get("retry-after"), "1");
        await h.api("POST", "/__emulator/faults", { spec: "" });
        assert.equal((await h.api("GET", "/api/3/accounts")).status, 200);
        assert.equal((await h.api("POST", "/__emulator/faults", { spec: "teapot=1" })).status, 400);
      } finally {
        await h.close();
      }
    });

    it("adds latency within the given range", async () => {
      const h = await startHarness({ faults: "latency=60-80", seed: 3 });
      try {
        const started = Date.now();
        assert.equal((await h.api("GET", "/api/3/accounts")).status, 200);
        assert.ok(Date.now() - started >= 60);
      } finally {
        await h.close();
      }
    });

    it("parses and rejects specs", () => {
      assert.deepEqual(parseFaultSpec("429=0.2,503=0.1,reset=0.05,lost=0.05,500=0.05,504=0.01,latency=50-200"), {
        rate429: 0.2,
        rate503: 0.1,
        rateReset: 0.05,
        rateLost: 0.05,
        rate500: 0.05,
        rate502: 0,
        rate504: 0.01,
        latencyMs: { min: 50, max: 200 },
      });
      assert.throws(() => parseFaultSpec("501=0.1"), /unknown fault "501" \(expected 429, 503, reset, lost, 500, 502, 504 or latency\)/);
      assert.throws(() => parseFaultSpec("429=2"), /between 0 and 1/);
      assert.throws(() => parseFaultSpec("latency=9-3"), /reversed/);
      assert.throws(() => parseFaultSpec("429=0.6,503=0.6"), /more than 1/);
    });
  });

  describe("admin routes", () => {
    let h: Harness;
    before(async () => (h = await startHarness()));
    after(() => h.close());

    it("counts requests by route template and status, admin routes excluded", async () => {
      const created = await h.api("POST", "/api/3/accounts", { account: { name: "Stats Co" } });
      await h.api("GET", `/api/3/accounts/${created.body.account.id}`);
      await h.api("GET", "/api/3/accounts/999");
      await h.raw("GET", "/api/3/accounts");
      await h.api("POST", "/__emulator/faults", { spec: "" });
      const stats = (await h.api("GET", "/__emulator/stats")).body;
      assert.equal(stats.requests, 4);
      assert.equal(stats.byRoute["GET /api/3/accounts/:id"], 2);
      assert.deepEqual(stats.byRouteAndStatus["GET /api/3/accounts/:id"], { "200": 1, "404": 1 });
      assert.deepEqual(stats.byStatus, { "201": 1, "200": 1, "404": 1, "403": 1 });
      assert.ok(!Object.keys(stats.byRoute).some((route) => route.includes("__emulator")));
    });

    it("names chat routes with their ids replaced by :id", async () => {
      const flow = "2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31"; // a built-in flow
      await h.raw("POST", `/chat/channel/chat/flow/${flow}/run`, {}, { Authorization: `Token ${h.emulator.apiToken}` });
      const stats = (await h.api("GET", "/__emulator/stats")).body;
      assert.equal(stats.byRoute["POST /chat/channel/chat/flow/:id/run"], 1);
    });

    it("reset clears data and counters but keeps the key", async () => {
      await h.api("POST", "/api/3/accounts", { account: { name: "Doomed" } });
      assert.equal((await h.api("POST", "/__emulator/reset")).status, 200);
      const stats = (await h.api("GET", "/__emulator/stats")).body;
      assert.equal(stats.requests, 0);
      const list = await h.api("GET", "/api/3/accounts");
      assert.equal(list.status, 200);
      assert.equal(list.body.meta.total, "0");
      const again = await h.api("POST", "/api/3/accounts", { account: { name: "Doomed" } });
      assert.equal(again.body.account.id, "1");
    });

    it("reset-counters clears the counters and the rate windows but keeps the data", async () => {
      const limited = await startHarness({ rateLimit: 1 });
      try {
        const created = await limited.api("POST", "/api/3/accounts", { account: { name: "Kept" } });
        assert.equal((await limited.api("GET", "/api/3/accounts")).status, 429);
        const reset = await limited.api("POST", "/__emulator/reset-counters");
        assert.deepEqual([reset.status, reset.body], [200, { reset: "counters" }]);
        assert.deepEqual((await limited.api("GET", "/__emulator/stats")).body, { requests: 0, byRoute: {}, byStatus: {}, byRouteAndStatus: {} });
        const kept = await limited.api("GET", `/api/3/accounts/${created.body.account.id}`);
        assert.deepEqual([kept.status, kept.body.account.name], [200, "Kept"]);
        assert.equal((await limited.api("GET", "/__emulator/stats")).body.requests, 1);
      } finally {
        await limited.close();
      }
    });

    it("answers 404 to unknown admin routes", async () => {
      assert.equal((await h.api("GET", "/__emulator/nothing")).status, 404);
    });
  });

  describe("--data persistence", () => {
    it("keeps the state across a restart", () =>
      inTempDir("crm-emulator-", async (dir) => {
        const data = join(dir, "state.json");
        const first = await startHarness({ data, token: "persist-key" });
        const created = await first.api("POST", "/api/3/accounts", { account: { name: "Persistent" } });
        await first.close();
        assert.ok(JSON.parse(readFileSync(data, "utf8")).crm);

        const second = await startHarness({ data, token: "persist-key" });
        try {
          const fetched = await second.api("GET", `/api/3/accounts/${created.body.account.id}`);
          assert.equal(fetched.body.account.name, "Persistent");
          const next = await second.api("POST", "/api/3/accounts", { account: { name: "Second" } });
          assert.equal(next.body.account.id, "2");
        } finally {
          await second.close();
        }
      }));
  });

  describe("command line", () => {
    it("parses flags in both spellings", () => {
      assert.deepEqual(parseArguments(["--port", "0", "--token=t", "--rate-limit", "0", "--faults", "503=0.1", "--seed", "9", "--data", "f.json"]), {
        port: 0,
        token: "t",
        rateLimit: 0,
        faults: "503=0.1",
        seed: 9,
        data: "f.json",
      });
      assert.throws(() => parseArguments(["--port", "x"]), /non-negative integer/);
      assert.throws(() => parseArguments(["--bogus"]), /unknown argument/);
      assert.throws(() => parseArguments(["--token"]), /needs a value/);
      assert.throws(() => parseArguments(["--faults", "oops=1"]), /unknown fault/);
      assert.deepEqual(parseArguments(["--execution-duration=250"]), { executionDurationMs: 250 });
      assert.deepEqual(parseArguments(["--rate-limit", "5", "--crm-rate-limit=3", "--chat-rate-limit", "0"]), {
        rateLimit: 5,
        crmRateLimit: 3,
        chatRateLimit: 0,
      });
      assert.throws(() => parseArguments(["--execution-duration", "0"]), /--execution-duration must be at least 1/);
    });

    it("asks for help with -h or --help anywhere, even beside a bad flag", () => {
      assert.equal(wantsHelp(["--help"]), true);
      assert.equal(wantsHelp(["--port", "x", "-h"]), true);
      assert.equal(wantsHelp(["--port", "0"]), false);
    });
  });
});
