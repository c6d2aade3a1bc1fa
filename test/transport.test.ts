import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { inspect } from "node:util";
import { parseFailureBody, ServiceError } from "../provider/transport/errors";
import { limiterFor, RateLimiter } from "../provider/transport/limiter";
import { type AttemptOutcome, briefRetryAttempts, decideRetry, defaultRetryPolicy, type RetryPolicy } from "../provider/transport/retry";
import { type AccountEndpoint, Transport } from "../provider/transport/transport";
import { ServiceClient } from "../provider/service-client";
import { chatService, endpointFor, crmService, unknownSettingWarnings, useStackConfig, type SettingsError } from "../provider/settings";
import { configOf } from "../scripts/harness/emulator";
import { type ScriptedServer, sendJson, startScriptedServer, type Script } from "./support/scripted-server";

const token = "tok-super-secret-0123456789";
const fastRetries: RetryPolicy = { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 100, deadlineMs: 5_000, unreachableForMs: 10_000, random: () => 0.5 };
let accountCounter = 0;

function endpoint(server: ScriptedServer, overrides: Partial<AccountEndpoint> = {}): AccountEndpoint {
  return {
    rootUrl: `${server.url}/api/3`,
    urlSetting: "crm:apiUrl",
    headers: { "Api-Token": token },
    secret: token,
    // A fresh account per test, so that limiters do not carry over between tests.
    accountKey: `test-account-${++accountCounter}`,
    requestsPerSecond: 0,
    timeoutMs: 2_000,
    retry: fastRetries,
    ...overrides,
  };
}

describe("transport", () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const serve = async (script: Script) => (server = await startScriptedServer(script));

  it("waits out a 429's Retry-After, then succeeds", async () => {
    const s = await serve((_req, res, index) =>
      index === 0 ? sendJson(res, 429, { message: "slow down" }, { "retry-after": "1" }) : sendJson(res, 200, { ok: true }),
    );
    const response = await new Transport(endpoint(s)).call({ method: "GET", path: "/accounts" }, { resource: "test" });
    assert.deepEqual(response.body, { ok: true });
    assert.equal(s.requests.length, 2);
    assert.ok(s.requests[1].arrivedAt - s.requests[0].arrivedAt >= 950, "the retry came before Retry-After elapsed");
  });

  it("retries a GET after 503, then succeeds", async () => {
    const s = await serve((_req, res, index) => (index === 0 ? sendJson(res, 503, {}) : sendJson(res, 200, { ok: 1 })));
    const response = await new Transport(endpoint(s)).call({ method: "GET", path: "/accounts/1" }, { resource: "test" });
    assert.equal(response.status, 200);
    assert.equal(s.requests.length, 2);
  });

  it("retries a GET after a connection reset, then succeeds", async () => {
    const s = await serve((_req, res, index) => (index === 0 ? res.socket?.destroy() : sendJson(res, 200, { ok: 1 })));
    const response = await new Transport(endpoint(s)).call({ method: "GET", path: "/accounts/1" }, { resource: "test" });
    assert.equal(response.status, 200);
    assert.equal(s.requests.length, 2);
  });

  it("never grants more than the account's rate in any one-second window, across concurrent callers", async () => {
    // Each caller's request is answered at once: a place frees one second after its answer.
    const limiter = new RateLimiter(5);
    const grants: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        const answered = await limiter.acquire();
        grants.push(Date.now());
        answered();
      }),
    );
    for (let i = 5; i < grants.length; i++) {
      assert.ok(grants[i] - grants[i - 5] >= 1000, `grants ${i - 5} and ${i} were ${grants[i] - grants[i - 5]} ms apart`);
    }
  });

  it("holds a request's place until one second after its answer, however late the service may have counted it", async () => {
    // A first request may wait for the HTTP client to load and a connection to open: the
    // service counts it when it arrives, which can be long after the grant.
    let now = 10_000;
    const limiter = new RateLimiter(5, () => now);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await limiter.acquire());
    let admitted = false;
    const sixth = limiter.acquire().then(() => (admitted = true));
    now += 1_100;
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(admitted, false, "a second after the grants, no answer has come: every place is still held");
    answers[0]();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(admitted, false, "the first answer frees its place one second later");
    now += 1_000;
    await sixth;
  });

  it("frees at once the place of a request that never reached the service, which counted nothing", async () => {
    const limiter = new RateLimiter(1, () => 10_000);
    (await limiter.acquire())(false);
    let admitted = false;
    const next = limiter.acquire().then(() => (admitted = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(admitted, true, "the clock stands still, and the window's one place is free");
    await next;
  });

  it("gives every transport of one account the same limiter", () => {
    assert.equal(limiterFor("one-account", 5), limiterFor("one-account", 5));
    assert.notEqual(limiterFor("one-account", 5), limiterFor("another-account", 5));
  });

  it("counts what RateLimit-Remaining shows another client used of the account's window", async () => {
    let now = 10_000;
    const limiter = new RateLimiter(5, () => now);
    (await limiter.acquire())();
    (await limiter.acquire())();
    // The service's window holds 5: 2 of this process's, 3 of another client's.
    limiter.observeRemaining(0);
    let admitted = false;
    const third = limiter.acquire().then(() => (admitted = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(admitted, false, "the window is full");
    now += 1_100;
    await third;
  });

  it("takes no other client into account when RateLimit-Remaining shows only this process's starts", async () => {
    let now = 10_000;
    const limiter = new RateLimiter(5, () => now);
    (await limiter.acquire())();
    (await limiter.acquire())();
    limiter.observeRemaining(3);
    /** Whether a request is admitted while the clock stands still, and its turn. */
    const admittedAtOnce = async () => {
      let admitted = false;
      const turn = limiter.acquire().then((answered) => {
        admitted = true;
        answered();
      });
      await new Promise((resolve) => setImmediate(resolve));
      return { admitted, turn };
    };
    for (let i = 3; i <= 5; i++) assert.equal((await admittedAtOnce()).admitted, true, `request ${i} of the window's 5`);
    const sixth = await admittedAtOnce();
    assert.equal(sixth.admitted, false, "a sixth: the window is full");
    now += 1_100;
    await sixth.turn;
  });

  it("holds every caller of the account after a 429 with Retry-After", async () => {
    const limiter = new RateLimiter(0);
    const started = Date.now();
    limiter.pauseUntil(started + 300);
    await limiter.acquire();
    assert.ok(Date.now() - started >= 290);
  });

  it("turns a 422 into one sentence naming the resource, the field and what to do, without the token", async () => {
    const s = await serve((_req, res) =>
      sendJson(res, 422, {
        errors: [{ title: `Name is taken (key ${token})`, detail: "", code: "duplicate", source: { pointer: "/data/attributes/name" } }],
      }),
    );
    const call = new Transport(endpoint(s)).call(
      { method: "POST", path: "/accounts", body: { account: { name: "Acme" } } },
      { resource: 'crm.Account "Acme"', advice: { duplicate: "choose another name" } },
    );
    await assert.rejects(call, (error: ServiceError) => {
      assert.ok(error instanceof ServiceError);
      assert.equal(error.status, 422);
      assert.equal(error.code, "duplicate");
      assert.equal(error.field, "name");
      assert.match(error.message, /^crm\.Account "Acme": the service answered 422 \(duplicate\) for field "name": .*; choose another name\.$/);
      assert.ok(!error.message.includes(token), error.message);
      return true;
    });
  });

  it("reads both 404 body shapes", async () => {
    const s = await serve((req, res) =>
      req.url.endsWith("/1")
        ? sendJson(res, 404, { errors: [{ status: 404, title: "The requested resource was not found" }] })
        : sendJson(res, 404, { message: "No Result found for Account with id 2" }),
    );
    const transport = new Transport(endpoint(s));
    for (const [id, text] of [
      ["1", "The requested resource was not found"],
      ["2", "No Result found for Account with id 2"],
    ]) {
      await assert.rejects(transport.call({ method: "GET", path: `/accounts/${id}` }, { resource: "r" }), (error: ServiceError) => {
        assert.equal(error.status, 404);
        assert.ok(error.message.includes(text), error.message);
        assert.match(error.message, /run `pulumi refresh`/);
        return true;
      });
    }
    const accepted = await transport.call({ method: "GET", path: "/accounts/2" }, { resource: "r", accept: [404] });
    assert.equal(accepted.status, 404);
  });

  it("does not resend a POST that timed out, and recovers what it created instead", async () => {
    const created: string[] = [];
    const s = await serve((req, res, index) => {
      if (req.method === "POST") {
        created.push(req.body);
        // The first create takes effect but answers too late.
        if (index === 0) setTimeout(() => sendJson(res, 201, { account: { id: "1" } }), 500);
        else sendJson(res, 201, { account: { id: String(created.length) } });
      } else {
        sendJson(res, 200, { accounts: created.length ? [{ id: "1" }] : [], meta: { total: created.length } });
      }
    });
    const transport = new Transport(endpoint(s, { timeoutMs: 150 }));
    const response = await transport.call(
      { method: "POST", path: "/accounts", body: { account: { name: "Acme" } } },
      {
        resource: "test",
        recover: async () => {
          const found = await transport.call({ method: "GET", path: "/accounts", query: { search: "Acme" } }, { resource: "test" });
          const [account] = (found.body as { accounts: unknown[] }).accounts;
          return account ? { status: 201, body: { account } } : undefined;
        },
      },
    );
    assert.deepEqual(response.body, { account: { id: "1" } });
    assert.equal(created.length, 1, "the create was sent twice");
  });

  it("fails a POST answered 503 without a way to recover, rather than resending it", async () => {
    const s = await serve((_req, res) => sendJson(res, 503, { message: "unavailable" }));
    await assert.rejects(
      new Transport(endpoint(s)).call({ method: "POST", path: "/accounts", body: {} }, { resource: "test" }),
      /the service answered 503: unavailable; it may have taken effect on the service anyway: check there before running it again\.$/,
    );
    assert.equal(s.requests.length, 1);
  });

  it("gives up at the deadline with a message that says what to do", async () => {
    const s = await serve((_req, res) => sendJson(res, 429, {}, { "retry-after": "30" }));
    await assert.rejects(
      new Transport(endpoint(s)).call({ method: "GET", path: "/accounts" }, { resource: "r" }),
      /answered 429; the account's rate limit was still exceeded after retrying; try again later\.$/,
    );
    assert.equal(s.requests.length, 1);
  });

  it("sends the credential in the service's header and nowhere else", async () => {
    const s = await serve((_req, res) => sendJson(res, 200, {}));
    await new Transport(endpoint(s)).call({ method: "GET", path: "/accounts", query: { search: "a b" } }, { resource: "r" });
    assert.equal(s.requests[0].headers["api-token"], token);
    assert.equal(s.requests[0].url, "/api/3/accounts?search=a+b");
  });
});

describe("failure messages", () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("names the setting whose key the service refused", async () => {
    server = await startScriptedServer((_req, res) => sendJson(res, 403, { detail: "Invalid token." }));
    await assert.rejects(
      new Transport(endpoint(server)).call(
        { method: "GET", path: "/x" },
        { resource: "chat.FlowRun", credentialSetting: { name: "chat:apiToken", howToSet: "run `pulumi config set --secret chat:apiToken <chat API token>`" } },
      ),
      (error: Error) => {
        assert.match(error.message, /^chat\.FlowRun: the service answered 403: Invalid token; the service refused the key in chat:apiToken/);
        assert.ok(!error.message.includes(token));
        return true;
      },
    );
  });

  /** The error a call fails with. */
  const failureOf = (call: Promise<unknown>) =>
    call.then(
      () => assert.fail("the call succeeded"),
      (error: ServiceError) => error,
    );

  // How a failure reaches the CLI's output, piped or not: the SDK's provider host prints a
  // failed check, diff, read or delete as below (cmd/dynamic-provider/index.js), beside
  // returning its message to the engine; the program runner prints an unhandled error (a
  // lookup's) with defaultErrorMessage; anything else that inspects it, with colours on.
  const printers = () => {
    const host = readFileSync(require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"), "utf8");
    assert.ok(host.includes("console.error(`${e}: ${e.stack}`)"), "the provider host no longer prints a thrown error as below");
    const { defaultErrorMessage } = require("@pulumi/pulumi/cmd/run/error") as { defaultErrorMessage(error: unknown): string };
    return [(error: Error) => `${error}: ${error.stack}`, defaultErrorMessage, (error: Error) => inspect(error, { colors: true })];
  };

  /** A 403 and a 422 duplicate, as the transport fails them: the user's run printed both. */
  const refusedAndDuplicate = async () => {
    server = await startScriptedServer((req, res) =>
      req.method === "POST"
        ? sendJson(res, 422, { errors: [{ title: "Duplicate entry", code: "duplicate", source: { pointer: "/data/attributes/name" } }] })
        : sendJson(res, 403, { message: "Forbidden" }),
    );
    const transport = new Transport(endpoint(server));
    const context = {
      resource: 'crm.Account "acme"',
      credentialSetting: { name: "crm:apiToken", howToSet: "run `pulumi config set --secret crm:apiToken <CRM API token>`" },
    };
    const failures = [
      await failureOf(transport.call({ method: "GET", path: "/accounts/1" }, context)),
      await failureOf(transport.call({ method: "POST", path: "/accounts", body: { account: { name: "Acme" } } }, context)),
    ];
    assert.deepEqual(
      failures.map((error) => [error.status, error.code]),
      [
        [403, undefined],
        [422, "duplicate"],
      ],
    );
    return failures;
  };

  it("is printed once by the provider host and by the program runner", async () => {
    for (const error of await refusedAndDuplicate()) {
      for (const printed of printers().map((print) => print(error))) assert.equal(printed.split(error.message).length - 1, 1, `not printed once: ${printed}`);
    }
  });

  it("is printed without colour codes, however it is printed", async () => {
    for (const error of await refusedAndDuplicate()) {
      for (const printed of printers().map((print) => print(error)))
        assert.ok(!printed.includes("\x1b"), `printed with colour codes: ${JSON.stringify(printed)}`);
    }
  });

  it("redacts a key of 8 characters or more wherever it appears, even glued to other text", async () => {
    server = await startScriptedServer((req, res) =>
      sendJson(res, 403, { message: `Api-Token: ${req.headers["api-token"]} refused (sent as Api-Token%3A${req.headers["api-token"]})` }),
    );
    const error = await failureOf(new Transport(endpoint(server)).call({ method: "GET", path: "/accounts/1" }, { resource: "crm.Account" }));
    assert.match(error.message, /: Api-Token: \[redacted\] refused \(sent as Api-Token%3A\[redacted\]\)/);
    assert.ok(!error.message.includes(token) && !error.detail?.includes(token), error.message);
  });

  it("redacts a shorter key only where it stands alone, as a header's value does, and leaves addresses whole", async () => {
    const shortKey = "x";
    server = await startScriptedServer((req, res) =>
      sendJson(res, 403, { message: `Api-Token: ${req.headers["api-token"]} is not a key of https://nonexistent-host.invalid` }),
    );
    const refused = await failureOf(
      new Transport(endpoint(server, { headers: { "Api-Token": shortKey }, secret: shortKey })).call(
        { method: "GET", path: "/accounts/1" },
        { resource: "crm.Account" },
      ),
    );
    assert.match(refused.message, /: Api-Token: \[redacted\] is not a key of https:\/\/nonexistent-host\.invalid;/);
    assert.equal(refused.detail, "Api-Token: [redacted] is not a key of https://nonexistent-host.invalid");
    // The address in our own words, as the user's run had it.
    useStackConfig(configOf({ "crm:apiUrl": "https://nonexistent-host.invalid", "crm:apiToken": shortKey }));
    try {
      const unresolved = await failureOf(
        new Transport({ ...endpointFor(crmService, "crm.Account"), retry: fastRetries }).call(
          { method: "GET", path: "/accounts/1" },
          { resource: "crm.Account" },
        ),
      );
      assert.match(unresolved.message, /crm:apiUrl is https:\/\/nonexistent-host\.invalid, whose host nonexistent-host\.invalid/);
    } finally {
      useStackConfig({ get: () => undefined });
    }
  });

  // The default policy, counting its retries: each one draws its jitter once.
  const countedRetries = () => {
    const counted = {
      retries: 0,
      policy: {
        ...defaultRetryPolicy,
        random: () => {
          counted.retries++;
          return 0;
        },
      },
    };
    return counted;
  };

  it("retries a refused connection only briefly, naming the setting and the address", async () => {
    const closed = await startScriptedServer(() => undefined);
    await closed.close();
    const counted = countedRetries();
    await assert.rejects(
      new Transport(endpoint(closed, { retry: counted.policy })).call({ method: "GET", path: "/accounts/1" }, { resource: "crm.Account" }),
      new RegExp(
        `crm\\.Account: the request did not complete: crm:apiUrl is ${closed.url.replace(/\./g, "\\.")}, which refused the connection \\(ECONNREFUSED\\)`,
      ),
    );
    assert.equal(counted.retries, briefRetryAttempts - 1);
  });

  it("fails further requests to an address that refused the connection at once: no connection, no wait at the rate limit", async () => {
    const closed = await startScriptedServer(() => undefined);
    await closed.close();
    const account = endpoint(closed, { requestsPerSecond: 1, retry: { ...fastRetries, unreachableForMs: 60_000 } });
    const transport = new Transport(account);
    const get = (id: number) => failureOf(transport.call({ method: "GET", path: `/accounts/${id}` }, { resource: `crm.Account "${id}"` }));
    assert.match((await get(0)).message, /refused the connection \(ECONNREFUSED\); check the service address/);
    // Listening again at the address: a request that tried it would now be answered.
    server = await startScriptedServer((_req, res) => sendJson(res, 200, { account: {} }), Number(new URL(closed.url).port));
    // The account's one place at the rate limit, held: a request that waited for it would never be sent.
    const held = await limiterFor(account.accountKey, 1).acquire();
    const failures = await Promise.all(Array.from({ length: 20 }, (_, index) => get(index + 1)));
    held();
    assert.equal(server.requests.length, 0, "a request went to the address");
    for (const [index, error] of failures.entries()) {
      assert.ok(error instanceof ServiceError);
      assert.match(
        error.message,
        new RegExp(
          `^crm\\.Account "${index + 1}": not sent, as crm:apiUrl \\(${closed.url.replace(/\./g, "\\.")}\\) refused the connection (\\d+ ms|\\d+\\.\\d s) before; check the service address and network, then try again\\.$`,
        ),
      );
      assert.ok(!error.message.includes(token));
    }
  });

  it("tries an address that refused the connection again once RetryPolicy.unreachableForMs has passed", async () => {
    const closed = await startScriptedServer(() => undefined);
    await closed.close();
    const transport = new Transport(endpoint(closed, { retry: { ...fastRetries, unreachableForMs: 50 } }));
    const get = () => transport.call({ method: "GET", path: "/accounts/1" }, { resource: "crm.Account" });
    await failureOf(get());
    server = await startScriptedServer((_req, res) => sendJson(res, 200, { account: {} }), Number(new URL(closed.url).port));
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal((await get()).status, 200);
    assert.equal(server.requests.length, 1);
  });

  // The .invalid top-level domain never resolves (RFC 2606): a resolver answers ENOTFOUND at
  // once; one that cannot be reached, EAI_AGAIN, which is retried briefly.
  it("does not retry an address whose host does not resolve, and names the setting and the host, never the token", async () => {
    useStackConfig(configOf({ "chat:apiUrl": "https://no-such-host.invalid", "chat:apiToken": token }));
    const counted = countedRetries();
    try {
      const transport = new Transport({ ...endpointFor(chatService, "chat.FlowRun"), retry: counted.policy });
      await assert.rejects(transport.call({ method: "GET", path: "/flows" }, { resource: "chat.FlowRun" }), (error: Error) => {
        const code = /\((ENOTFOUND|EAI_AGAIN)\)/.exec(error.message)?.[1];
        assert.match(
          error.message,
          /^chat\.FlowRun: the request did not complete: chat:apiUrl is https:\/\/no-such-host\.invalid, whose host no-such-host\.invalid (does not resolve|could not be resolved) \((ENOTFOUND|EAI_AGAIN)\)/,
        );
        assert.ok(!error.message.includes(token));
        assert.equal(counted.retries, code === "ENOTFOUND" ? 0 : briefRetryAttempts - 1);
        return true;
      });
    } finally {
      useStackConfig({ get: () => undefined });
    }
  });

  it("describes error bodies that are empty, HTML or cut off mid-JSON, without a parse crash", async () => {
    const bodies: Array<[string, RegExp]> = [
      ["", /^crm\.Account: the service answered 500; the service failed; try again later\.$/],
      [
        "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>",
        /answered 500: an HTML page instead of JSON \("502 Bad Gateway"\);/,
      ],
      ['{"errors": [{"title": "The account na', /answered 500: a JSON body cut off before its end;/],
      ["Internal error\n\nat line 3", /answered 500: a body that is not JSON \("Internal error at line 3"\);/],
    ];
    for (const [text, expected] of bodies) {
      server = await startScriptedServer((_req, res) => {
        res.writeHead(500, { "content-type": "text/html" });
        res.end(text);
      });
      await assert.rejects(
        new Transport(endpoint(server, { retry: { ...fastRetries, maxAttempts: 1 } })).call(
          { method: "GET", path: "/accounts/1" },
          { resource: "crm.Account" },
        ),
        (error: Error) => {
          assert.match(error.message, expected);
          return true;
        },
      );
      await server.close();
      server = undefined;
    }
  });

  it("reads the chat service's REST framework bodies: detail, field lists, nested list members", () => {
    assert.deepEqual(parseFailureBody(404, { detail: "Not found." }), { status: 404, detail: "Not found." });
    assert.deepEqual(parseFailureBody(400, { execute_for: ['"ALL" is not a valid choice.'] }), {
      status: 400,
      field: "execute_for",
      detail: '"ALL" is not a valid choice.',
    });
    assert.deepEqual(parseFailureBody(400, { contact_list: [{}, { email: ["Enter a valid email address."] }] }), {
      status: 400,
      field: "contact_list.1.email",
      detail: "Enter a valid email address.",
    });
    assert.deepEqual(parseFailureBody(400, { non_field_errors: ["No data provided"] }), { status: 400, detail: "No data provided" });
  });
});

describe("retry decisions", () => {
  const network = (code: string, mayHaveReachedService = false): AttemptOutcome => ({ kind: "network", code, mayHaveReachedService });
  const decide = (outcome: AttemptOutcome, attempt: number) => decideRetry(outcome, attempt, 0, true, { ...defaultRetryPolicy, random: () => 0 }).action;

  it("stops at once where a retry cannot help: a host that does not exist, a refused certificate", () => {
    for (const code of [
      "ENOTFOUND",
      "CERT_HAS_EXPIRED",
      "DEPTH_ZERO_SELF_SIGNED_CERT",
      "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      "ERR_TLS_CERT_ALTNAME_INVALID",
      "ERR_SSL_WRONG_VERSION_NUMBER",
    ]) {
      assert.equal(decide(network(code), 1), "stop", code);
    }
  });

  it("retries a refused connection and an unanswered resolver briefly, other lost connections fully", () => {
    for (const code of ["ECONNREFUSED", "EAI_AGAIN"]) {
      assert.deepEqual(
        [1, 2, 3].map((attempt) => decide(network(code), attempt)),
        ["retry", "retry", "stop"],
        code,
      );
    }
    assert.equal(decide(network("ECONNRESET", true), briefRetryAttempts), "retry");
    assert.equal(decide(network("ECONNRESET", true), defaultRetryPolicy.maxAttempts), "stop");
    assert.equal(decide({ kind: "response", status: 503 }, briefRetryAttempts), "retry");
  });
});

describe("settings", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    useStackConfig({ get: () => undefined });
  });

  it("names the config key and the environment variable when the token is missing", () => {
    delete process.env.CRM_API_TOKEN;
    useStackConfig({ get: (key) => (key === "crm:apiUrl" ? "https://acme.api-us1.com" : undefined) });
    assert.throws(
      () => endpointFor(crmService, 'crm.Account "x"'),
      (error: SettingsError) => /crm:apiToken/.test(error.message) && /CRM_API_TOKEN/.test(error.message) && /--secret/.test(error.message),
    );
  });

  it("finds the keys of its namespaces it does not read, each with the known ones closest first, leaving a project's own namespace alone", () => {
    const config = ["crm:requestPerSecond", "crm:apiurl", "crm:apiUrl", "chat:chanel", "aws:region", "shop:crm", "crm:apiToken"];
    assert.deepEqual(unknownSettingWarnings(config, "shop"), [
      "pulumi-crm: crm:requestPerSecond is not a setting of pulumi-crm and is ignored; its settings of crm are, closest first: crm:requestsPerSecond, crm:apiToken, crm:apiUrl.",
      "pulumi-crm: crm:apiurl is not a setting of pulumi-crm and is ignored; its settings of crm are, closest first: crm:apiUrl, crm:apiToken, crm:requestsPerSecond.",
      "pulumi-crm: chat:chanel is not a setting of pulumi-crm and is ignored; its settings of chat are, closest first: chat:channel, chat:apiUrl, chat:apiToken, chat:requestsPerSecond.",
    ]);
    assert.deepEqual(unknownSettingWarnings(["crm:region"], "crm"), [], "a project named crm owns its crm:* keys");
  });

  it("prefers stack config over the environment, and adds /api/3 once", () => {
    process.env.CRM_API_URL = "https://env.api-us1.com";
    process.env.CRM_API_TOKEN = "env-token";
    useStackConfig({ get: (key) => (key === "crm:apiUrl" ? "https://config.api-us1.com/api/3/" : undefined) });
    const resolved = endpointFor(crmService, "r");
    assert.equal(resolved.rootUrl, "https://config.api-us1.com/api/3");
    assert.deepEqual(resolved.headers, { "Api-Token": "env-token" });
    assert.ok(!resolved.accountKey.includes("env-token"));
  });

  it("reads each service's rate from its own setting, with the same default and check", () => {
    process.env.CRM_API_TOKEN = process.env.CHAT_API_TOKEN = "t";
    process.env.CRM_API_URL = process.env.CHAT_API_URL = "https://acme.api-us1.com";
    delete process.env.CRM_REQUESTS_PER_SECOND;
    delete process.env.CHAT_REQUESTS_PER_SECOND;
    assert.deepEqual([endpointFor(crmService, "r").requestsPerSecond, endpointFor(chatService, "r").requestsPerSecond], [5, 5]);
    process.env.CHAT_REQUESTS_PER_SECOND = "2";
    useStackConfig({ get: (key) => (key === "crm:requestsPerSecond" ? "3" : undefined) });
    assert.deepEqual([endpointFor(crmService, "r").requestsPerSecond, endpointFor(chatService, "r").requestsPerSecond], [3, 2]);
    useStackConfig({ get: (key) => (key === "chat:requestsPerSecond" ? "fast" : undefined) });
    assert.throws(
      () => endpointFor(chatService, "chat.FlowRun"),
      /: chat\.FlowRun: chat:requestsPerSecond must be a number of requests per second \(0 turns limiting off\), got "fast"\.$/,
    );
    assert.equal(endpointFor(crmService, "r").requestsPerSecond, 5, "the chat service's setting is not the CRM's");
  });

  it("gives the CRM and chat services of one account separate limiters, even at one address with one key", async () => {
    process.env.CRM_API_TOKEN = process.env.CHAT_API_TOKEN = "t";
    process.env.CRM_API_URL = process.env.CHAT_API_URL = "https://acme.api-us1.com";
    process.env.CRM_REQUESTS_PER_SECOND = process.env.CHAT_REQUESTS_PER_SECOND = "1";
    const crm = endpointFor(crmService, "r");
    const chat = endpointFor(chatService, "r");
    assert.notEqual(crm.accountKey, chat.accountKey);
    // The CRM's one place is held by a request awaiting its answer; a shared limiter would never grant chat's.
    const crmAnswered = await limiterFor(crm.accountKey, 1).acquire();
    const chatAnswered = await limiterFor(chat.accountKey, 1).acquire();
    crmAnswered();
    chatAnswered();
  });

  it("names the rate setting of the service whose limit was still exceeded", async () => {
    // A Retry-After beyond the retry deadline: the call gives up after its first answer.
    const server = await startScriptedServer((_req, res) => sendJson(res, 429, { detail: "Request was throttled." }, { "retry-after": "600" }));
    try {
      useStackConfig({ get: (key) => ({ "crm:apiUrl": server.url, "chat:apiUrl": server.url })[key] });
      process.env.CRM_API_TOKEN = process.env.CHAT_API_TOKEN = token;
      const failureOf = (client: ServiceClient) =>
        client.call({ method: "GET", path: "/x" }).then(
          () => assert.fail("no 429"),
          (error: Error) => error.message,
        );
      assert.match(
        await failureOf(new ServiceClient(chatService, "chat.FlowRun")),
        /^chat\.FlowRun: the service answered 429: Request was throttled; .* lower chat:requestsPerSecond or try again later\.$/,
      );
      assert.match(
        await failureOf(new ServiceClient(crmService, "crm.Account")),
        /^crm\.Account: the service answered 429: Request was throttled; .* lower crm:requestsPerSecond or try again later\.$/,
      );
    } finally {
      await server.close();
    }
  });

  it("refuses plain http except on loopback", () => {
    process.env.CRM_API_TOKEN = "t";
    process.env.CRM_API_URL = "http://acme.api-us1.com";
    assert.throws(() => endpointFor(crmService, "r"), /must use https/);
    process.env.CRM_API_URL = "http://127.0.0.1:4000";
    assert.equal(endpointFor(crmService, "r").rootUrl, "http://127.0.0.1:4000/api/3");
  });
});
