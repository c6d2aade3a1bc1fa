// `pulumi-crm compare`: two accounts (two emulators in this process, over HTTP) set up alike
// through the API, their ids apart on purpose, then made to differ one way at a time.

import assert from "node:assert/strict";
import { startEmulator } from "../../emulator";
import { compareMain } from "../../provider/commands/compare";
import { exportedResources, setupKinds } from "../../provider/commands/export/read-account";
import { emulatorCall, emulatorStats, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe("pulumi-crm compare", function () {
  this.timeout(120_000);
  let from: RunningEmulator;
  let to: RunningEmulator;
  let pacing: string | undefined;
  /** A key neither account knows. */
  const wrongKey = "not-the-key-4f1c";

  /** A call of the test's own to one account; the emulators' limit is off. */
  const call = async (account: RunningEmulator, method: string, path: string, body?: unknown): Promise<any> => {
    const reply = await emulatorCall(account, method, `/api/3${path}`, body);
    assert.ok(reply.status < 300, `${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  };

  /** The one setup: objects referring to others (a webhook and a field of a list, an address with a group and a list, a pipeline of users and groups, its stages), and ids to find them by. */
  async function setUp(account: RunningEmulator) {
    const made = async (path: string, member: string, object: Record<string, unknown>) =>
      String((await call(account, "POST", path, { [member]: object }))[member].id);
    const list = await made("/lists", "list", {
      name: "Acme news",
      stringid: "acme-news",
      sender_url: "https://acme.example",
      sender_reminder: "You signed up.",
    });
    const tag = await made("/tags", "tag", { tag: "Customer", tagType: "contact", description: "Bought once" });
    // Unique within its type only: another tag of the name.
    await made("/tags", "tag", { tag: "Customer", tagType: "template" });
    const field = await made("/fields", "field", { title: "Interest", type: "dropdown" });
    const options = ["Products", "Events"].map((value, index) => ({ field: Number(field), value, label: value, orderid: index + 1, isdefault: false }));
    await call(account, "POST", "/fieldOption/bulk", { fieldOptions: options });
    await call(account, "POST", "/fieldRels", { fieldRel: { field: Number(field), relid: Number(list) } });
    await made("/webhooks", "webhook", {
      name: "Subscriptions",
      url: "https://hooks.acme.example/crm",
      events: ["subscribe"],
      sources: ["public"],
      listid: Number(list),
    });
    const reps = await made("/groups", "group", { title: "Reps", pgDeal: true });
    await made("/addresses", "address", { company_name: "Acme Corp", address_1: "1 Main St", country: "DE", groupid: Number(reps), listid: Number(list) });
    // The users made in another order in each account: the pipeline's list of them, kept by id, is in another order too.
    const users: Record<string, string> = {};
    for (const name of account === from ? ["ada", "bob"] : ["bob", "ada"]) {
      users[name] = await made("/users", "user", {
        username: name,
        email: `${name}@acme.example`,
        firstName: name,
        lastName: "Acme",
        group: Number(reps),
        password: "s3cret-pass",
      });
    }
    // Two pipelines, each made with the same three default stages: titles repeated in the account.
    const sales = await made("/dealGroups", "dealGroup", {
      title: "Sales",
      currency: "eur",
      autoassign: 0,
      allgroups: 0,
      users: [users.ada, users.bob],
      groups: [reps],
    });
    await made("/dealStages", "dealStage", { title: "Won", group: sales, color: "18D499" });
    await made("/dealGroups", "dealGroup", { title: "Support", currency: "usd", autoassign: 0 });
    return { list, tag };
  }
  let ids: { from: Awaited<ReturnType<typeof setUp>>; to: Awaited<ReturnType<typeof setUp>> };

  before(async () => {
    // The provider's pace off: these accounts' emulators do not limit, and the test counts requests, not seconds.
    pacing = process.env.CRM_REQUESTS_PER_SECOND;
    process.env.CRM_REQUESTS_PER_SECOND = "0";
    [from, to] = [await startEmulator({ port: 0, rateLimit: 0 }), await startEmulator({ port: 0, rateLimit: 0 })];
  });
  after(async () => {
    await from?.close();
    await to?.close();
    if (pacing === undefined) delete process.env.CRM_REQUESTS_PER_SECOND;
    else process.env.CRM_REQUESTS_PER_SECOND = pacing;
  });
  beforeEach(async () => {
    for (const account of [from, to]) await fetch(`${account.crmUrl}/__emulator/reset`, { method: "POST" });
    // Ids apart: `to` made and deleted one object of each kind referred to first.
    const list = (await call(to, "POST", "/lists", { list: { name: "Draft", stringid: "draft", sender_url: "https://acme.example", sender_reminder: "x" } }))
      .list.id;
    await call(to, "DELETE", `/lists/${list}`);
    const group = (await call(to, "POST", "/groups", { group: { title: "Draft" } })).group.id;
    const user = (
      await call(to, "POST", "/users", {
        user: { username: "draft", email: "draft@acme.example", firstName: "D", lastName: "D", group: 3, password: "draft-pass" },
      })
    ).user.id;
    await call(to, "DELETE", `/users/${user}`);
    await call(to, "DELETE", `/groups/${group}`);
    const pipeline = (await call(to, "POST", "/dealGroups", { dealGroup: { title: "Draft", currency: "usd" } })).dealGroup.id;
    await call(to, "DELETE", `/dealGroups/${pipeline}`);
    ids = { from: await setUp(from), to: await setUp(to) };
    for (const account of [from, to]) await fetch(`${account.crmUrl}/__emulator/reset-counters`, { method: "POST" });
  });

  /** The command in this process, its output captured; neither account's key may appear in it. */
  async function compare(
    args: string[],
    env: Record<string, string | undefined> = { CRM_FROM_API_TOKEN: from.apiToken, CRM_TO_API_TOKEN: to.apiToken },
  ): Promise<Run> {
    const output = { stdout: "", stderr: "" };
    const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
    const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
    const set = (values: Record<string, string | undefined>) => {
      for (const [name, value] of Object.entries(values)) value === undefined ? delete process.env[name] : (process.env[name] = value);
    };
    set(env);
    process.stdout.write = ((text: string) => (output.stdout += text).length > 0) as typeof process.stdout.write;
    process.stderr.write = ((text: string) => (output.stderr += text).length > 0) as typeof process.stderr.write;
    let code: number;
    try {
      code = await compareMain(["--from", from.crmUrl, "--to", to.crmUrl, ...args]);
    } finally {
      process.stdout.write = writes.stdout;
      process.stderr.write = writes.stderr;
      set(saved);
    }
    for (const key of [from.apiToken, to.apiToken, wrongKey]) assert.ok(!output.stdout.includes(key) && !output.stderr.includes(key), "a key was printed");
    return { code, ...output };
  }
  /** The table's row of an object's field: kind, object, field, from, to, as printed. */
  const row = (...cells: string[]) => new RegExp(`^${cells.map((cell) => cell.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(" +")}$`, "m");

  it("finds two accounts set up alike to be alike although their ids differ, reading each collection once per account", async () => {
    assert.notEqual(ids.from.list, ids.to.list);
    const result = await compare([]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^from http:\S+, to http:\S+: alike \(\d+ objects in both, 0 only in from, 0 only in to, 0 fields differ\); exit code 0$/m);
    // A page per collection of the setup; an address's group and list, each user's group, each pipeline's users and groups: calls of their own.
    const collections = exportedResources.filter((resource) => setupKinds.includes(resource.name)).length;
    for (const account of [from, to]) assert.equal(await requestCount(account), collections + 2 + 3 * 1 + 2 * 2);
    for (const flag of ["--from", "--to"]) assert.match(result.stderr, new RegExp(`^pulumi-crm compare: ${flag} lists: 1 read, 1 exported$`, "m"));
  });

  it("names an object only in one account, and a tag renamed in one by its field", async () => {
    await call(to, "PUT", `/tags/${ids.to.tag}`, { tag: { tag: "Client" } });
    await call(from, "POST", "/tags", { tag: { tag: "Partner", tagType: "template" } });
    await call(to, "POST", "/lists", { list: { name: "Promo", stringid: "promo", sender_url: "https://acme.example", sender_reminder: "You signed up." } });
    const result = await compare([]);
    assert.equal(result.code, 7, result.stdout + result.stderr);
    assert.match(result.stdout, row("tag", "Customer tag (contact)", "tag", '"Customer"', '"Client"'));
    assert.match(result.stdout, row("tag", "Partner tag (template)", "only in from"));
    assert.match(result.stdout, row("list", "Promo list", "only in to"));
    assert.match(result.stdout, /they differ \(\d+ objects in both, 1 only in from, 1 only in to, 1 field differs\); exit code 7$/m);
  });

  it("matches names regardless of case where the service's names are unique, and built-ins by their names", async () => {
    // Its description changed too: the same tag by its name, not one renamed (see the test above).
    await call(to, "PUT", `/tags/${ids.to.tag}`, { tag: { tag: "CUSTOMER", description: "Bought twice" } });
    const [field] = (await call(to, "GET", "/fields")).fields as Array<{ id: string }>;
    await call(to, "PUT", `/fields/${field.id}`, { field: { title: "interest", descript: "What they read" } });
    const taskTypes = (await call(to, "GET", "/dealTasktypes")).dealTasktypes as Array<{ id: string; title: string }>;
    await call(to, "PUT", `/dealTasktypes/${taskTypes.find((type) => type.title === "Call")!.id}`, { dealTasktype: { status: "1" } });
    const result = await compare([]);
    assert.equal(result.code, 7);
    assert.match(result.stdout, row("tag", "Customer tag (contact)", "tag", '"Customer"', '"CUSTOMER"'));
    assert.match(result.stdout, row("tag", "Customer tag (contact)", "description", '"Bought once"', '"Bought twice"'));
    assert.match(result.stdout, row("contact-custom-field", "Interest contact custom field", "title", '"Interest"', '"interest"'));
    assert.match(result.stdout, row("contact-custom-field", "Interest contact custom field", "description", "(unset)", '"What they read"'));
    assert.match(result.stdout, row("task-type", "Call task type", "disabled", "false", "true"));
    assert.doesNotMatch(result.stdout, /only in (from|to)$/m);
  });

  it("compares references by the object they name, and shows an id naming no object as it is", async () => {
    // The webhook's list deleted in `to` (the service keeps its id); the address's group changed to the admins'.
    await call(to, "DELETE", `/lists/${ids.to.list}`);
    const result = await compare(["--json"]);
    assert.equal(result.code, 7);
    const comparison = JSON.parse(result.stdout);
    const webhook = comparison.differences.find((difference: { kind: string }) => difference.kind === "webhook");
    assert.deepEqual(webhook, { kind: "webhook", object: "Subscriptions webhook", field: "listId", from: "Acme news list", to: ids.to.list });
    // A field unset in one account (the address's list, gone with it) has no value of that account.
    assert.deepEqual(
      comparison.differences.find((difference: { kind: string }) => difference.kind === "address"),
      { kind: "address", object: "Acme Corp address", field: "listId", from: "Acme news list" },
    );
    assert.deepEqual(comparison.onlyInFrom, [{ kind: "list", object: "Acme news list" }]);
  });

  it("tells repeated titles apart by order, and prints the comparison as JSON with --json", async () => {
    const stages = (await call(to, "GET", "/dealStages")).dealStages as Array<{ id: string; title: string }>;
    // The Support pipeline's "To Contact": the second of the title.
    const second = stages.filter((stage) => stage.title === "To Contact")[1];
    await call(to, "PUT", `/dealStages/${second.id}`, { dealStage: { color: "000000" } });
    const result = await compare(["--json"]);
    assert.equal(result.code, 7);
    assert.deepEqual(JSON.parse(result.stdout), {
      from: from.crmUrl,
      to: to.crmUrl,
      kinds: setupKinds,
      alike: false,
      matched: JSON.parse(result.stdout).matched,
      onlyInFrom: [],
      onlyInTo: [],
      differences: [{ kind: "pipeline-stage", object: "To Contact pipeline stage #2", field: "color", from: "18D499", to: "000000" }],
    });
    assert.ok(JSON.parse(result.stdout).matched > 10);
  });

  it("compares only the kinds --kinds names, reading the kinds they refer to as well; a long value shortened in the table, not in JSON", async () => {
    const description = `Bought twice: ${"and more ".repeat(10)}`;
    await call(to, "PUT", `/tags/${ids.to.tag}`, { tag: { description } });
    // A list only in `to`: read, for the webhooks' references, but not compared.
    await call(to, "POST", "/lists", { list: { name: "Promo", stringid: "promo", sender_url: "https://acme.example", sender_reminder: "You signed up." } });
    const result = await compare(["--kinds", "webhook"]);
    assert.equal(result.code, 0, result.stdout);
    // The webhooks' and the lists' pages: nothing else.
    for (const account of [from, to])
      assert.deepEqual(
        Object.keys((await emulatorStats(account)).byRoute)
          .filter((route) => route.startsWith("GET"))
          .sort(),
        ["GET /api/3/lists", "GET /api/3/webhooks"],
      );
    const tags = await compare(["--kinds=tag"]);
    assert.equal(tags.code, 7);
    assert.match(tags.stdout, row("tag", "Customer tag (contact)", "description", '"Bought once"', `${JSON.stringify(description).slice(0, 59)}…`));
    const json = await compare(["--kinds=tag", "--json"]);
    assert.equal(JSON.parse(json.stdout).differences[0].to, description);
    // The account's data, compared only when asked for: a company's note that differs.
    for (const [account, note] of [
      [from, "Renewal in January"],
      [to, "Renewal in March"],
    ] as const) {
      const company = (await call(account, "POST", "/accounts", { account: { name: "Acme Corp" } })).account.id;
      await call(account, "POST", `/accounts/${company}/notes`, { note: { note } });
    }
    const data = await compare(["--kinds", "data"]);
    assert.equal(data.code, 7);
    assert.match(data.stdout, row("account-note", "Acme Corp note", "note", '"Renewal in January"', '"Renewal in March"'));
    assert.doesNotMatch(data.stdout, /^tag /m);
  });

  it("refuses an unknown kind, listing the kinds, before any request (exit 2)", async () => {
    const result = await compare(["--kinds", "tag,tags"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^pulumi-crm compare: --kinds: tags is not a kind; give setup, data, all, or kinds: account, account-custom-field, .*, tag, /m);
    for (const account of [from, to]) assert.equal(await requestCount(account), 0);
  });

  it("says which account refused its key, by its URL, never the key (exit 1)", async () => {
    const result = await compare(["--to-token", wrongKey]);
    assert.equal(result.code, 1);
    assert.ok(
      result.stderr.includes(
        `pulumi-crm compare: the --to account (${to.crmUrl}) refused its key (the service answered 403): check that --to-token (or CRM_TO_API_TOKEN) holds`,
      ),
      result.stderr,
    );
    assert.doesNotMatch(result.stderr, /the --from account/);
    assert.equal(result.stdout, "");
  });

  it("says which account could not be read, and why (exit 1)", async () => {
    // Nothing listens on port 1 of the loopback: the connection is refused.
    const result = await compare(["--from", "http://127.0.0.1:1"]);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^pulumi-crm compare: the --from account \(http:\/\/127\.0\.0\.1:1\) could not be read: .*refused the connection \(ECONNREFUSED\); check the service address and network, then try again\.$/m,
    );
    assert.doesNotMatch(result.stderr, /the --to account/);
  });

  it("asks for each account's address and key, before any request (exit 2)", async () => {
    const result = await compare([], { CRM_FROM_API_TOKEN: from.apiToken, CRM_TO_API_TOKEN: undefined });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^pulumi-crm compare: give --to-token \(or CRM_TO_API_TOKEN\)$/m);
    const plain = await compare(["--from", "http://crm.example.com"]);
    assert.equal(plain.code, 2);
    assert.match(plain.stderr, /^pulumi-crm compare: --from: crm:apiUrl must use https \(plain http is allowed only for loopback addresses\)/m);
    for (const account of [from, to]) assert.equal(await requestCount(account), 0);
  });
});
