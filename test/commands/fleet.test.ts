// `pulumi-crm fleet` without the CLI: the clients file's checks, the runner's bounded concurrency
// and its outcomes, the table, the JSON, the exit codes, the command line, the CI workflows.
// test/fleet/fleet-cli.test.ts runs the fleet on the real CLI.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseClients, readClientsFile, selectClients, type Client, type ClientsFile } from "../../provider/commands/fleet/clients";
import { driftOf, otherSecretsProviders, shortLivedGoProcesses } from "../../provider/commands/fleet/automation";
import { fleetWorkflows, matrixOf, TESTED_PULUMI_CLI } from "../../provider/commands/fleet/ci";
import { defaultParallel, fleetMain, parseFleetArguments } from "../../provider/commands/fleet/command";
import { formatJson, formatTable } from "../../provider/commands/fleet/report";
import { type ClientOutcome, exitCodeOf, firstLine, runFleet, type RunResult } from "../../provider/commands/fleet/run";
import { lockedRow, pendingRow } from "../../provider/commands/fleet/backend";
import { programSettings } from "../../provider/commands/fleet/program";

const repoRoot = join(__dirname, "..", "..");

const file = "/agency/clients.json";
const client = (stack: string, extra: Record<string, unknown> = {}) => ({
  stack,
  apiUrl: `https://${stack}.api-us1.com`,
  apiToken: `env:${stack.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_CRM_TOKEN`,
  ...extra,
});
const fleetOf = (...stacks: string[]): Client[] => parseClients({ clients: stacks.map((stack) => client(stack)) }, file).clients;

const plain = (value: string) => ({ value, secret: false });

describe("pulumi-crm fleet", () => {
  it("runs its CLI calls with Go's collector held until a memory limit and no update check, unless the user's environment says otherwise", () => {
    assert.deepEqual(shortLivedGoProcesses({}), { GOGC: "off", GOMEMLIMIT: "384MiB", PULUMI_SKIP_UPDATE_CHECK: "true" });
    assert.deepEqual(shortLivedGoProcesses({ GOGC: "200", PULUMI_SKIP_UPDATE_CHECK: "false" }), {});
    assert.deepEqual(shortLivedGoProcesses({ GOMEMLIMIT: "1GiB" }), { PULUMI_SKIP_UPDATE_CHECK: "true" });
  });

  describe("the clients file", () => {
    it("reads each client's stack, address, key source and settings, the program relative to the file", () => {
      const parsed = parseClients(
        {
          program: "yaml",
          clients: [
            client("acme", { config: { clientName: "Acme", seats: 5, "crm:requestsPerSecond": 2 } }),
            { stack: "org/crm-agency/globex", apiUrl: " https://globex.api-us1.com ", apiToken: "stack" },
          ],
        },
        file,
      );
      assert.equal(parsed.program, "/agency/yaml");
      assert.deepEqual(parsed.clients, [
        {
          stack: "acme",
          apiUrl: "https://acme.api-us1.com",
          apiToken: { env: "ACME_CRM_TOKEN" },
          config: { clientName: plain("Acme"), seats: plain("5"), "crm:requestsPerSecond": plain("2") },
        },
        { stack: "org/crm-agency/globex", apiUrl: "https://globex.api-us1.com", apiToken: { stack: true }, config: {} },
      ]);
      assert.equal(parseClients({ clients: [client("acme")] }, file, "/elsewhere/ts").program, "/elsewhere/ts");
      assert.equal(parseClients({ clients: [client("acme")] }, file).program, "/agency");
    });

    it("takes the secrets provider of the stacks it makes, none unless the file names one", () => {
      const url = "awskms://alias/fleet?region=eu-west-1";
      assert.equal(parseClients({ secretsProvider: url, clients: [client("acme")] }, file).secretsProvider, url);
      assert.equal(parseClients({ secretsProvider: "passphrase", clients: [client("acme")] }, file).secretsProvider, "passphrase");
      assert.equal("secretsProvider" in parseClients({ clients: [client("acme")] }, file), false);
    });

    it("refuses a key written in the file, without repeating it", () => {
      assert.throws(
        () => parseClients({ clients: [client("acme", { apiToken: "0123456789abcdef-secret" })] }, file),
        (error: Error) => {
          assert.match(
            error.message,
            /^\/agency\/clients\.json: client 1 \("acme"\): "apiToken" must say where the key comes from: "env:<VARIABLE>".*or "stack".*never written in the clients file$/,
          );
          assert.ok(!error.message.includes("0123456789abcdef-secret"), error.message);
          return true;
        },
      );
    });

    const mistakes: Array<[string, unknown, RegExp]> = [
      ["a stack named twice", { clients: [client("acme"), client("acme")] }, /client 2: stack "acme" is named twice/],
      ["a stack name Pulumi refuses", { clients: [client("acme inc")] }, /client 1 \("acme inc"\): "stack" must be a stack name/],
      ["no address", { clients: [{ stack: "acme", apiToken: "stack" }] }, /client 1 \("acme"\): "apiUrl" must be the account's API address/],
      [
        "the address in config",
        { clients: [client("acme", { config: { "crm:apiUrl": "https://x" } })] },
        /config key "crm:apiUrl" is set from "apiUrl"; give it there/,
      ],
      [
        "a nested setting",
        { clients: [client("acme", { config: { tiers: ["a"] } })] },
        /"config" must be an object of the program's settings, each a string, number or boolean/,
      ],
      [
        "an unknown field",
        { clients: [client("acme", { token: "x" })] },
        /client 1 \("acme"\): unknown field "token"; the fields are "stack", "apiUrl", "apiToken", "config"/,
      ],
      ["no clients", { program: "." }, /"clients" must be a list of at least one client/],
      [
        "a secrets provider the CLI has none of",
        { secretsProvider: "base64key://c2VjcmV0", clients: [client("acme")] },
        /"secretsProvider" must be "passphrase" or a key service's URL the pulumi CLI takes: awskms:\/\/\.\.\., azurekeyvault/,
      ],
      ["a key service's scheme alone", { secretsProvider: "awskms://", clients: [client("acme")] }, /"secretsProvider" must be/],
      // The CLI takes "default" as no provider at all: the passphrase on a self-managed backend.
      ["the CLI's default named", { secretsProvider: "default", clients: [client("acme")] }, /"secretsProvider" must be .*\(left out: the backend's default\)/],
      ["a list", [client("acme")], /must hold a JSON object/],
    ];
    for (const [what, document, message] of mistakes) {
      it(`refuses ${what}, naming the file, the client and the field`, () => assert.throws(() => parseClients(document, file), message));
    }

    it("names a file that is not JSON, and --only's stacks that are no client's", () => {
      const dir = mkdtempSync(join(tmpdir(), "fleet-clients-"));
      try {
        writeFileSync(join(dir, "clients.json"), "{ clients: [] }");
        assert.throws(() => readClientsFile(join(dir, "clients.json")), /clients\.json is not JSON/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const clients = fleetOf("acme", "globex", "initech");
      assert.deepEqual(
        selectClients(clients, ["initech", "acme"]).map((c) => c.stack),
        ["acme", "initech"],
      );
      assert.throws(() => selectClients(clients, ["acme", "umbrella"]), /--only: umbrella is not a client's stack in the clients file/);
    });
  });

  describe("running a fleet", () => {
    it("runs every client, at most --parallel at once, and a client that throws fails alone", async () => {
      let running = 0;
      let most = 0;
      const ran: string[] = [];
      const outcomes = await runFleet(fleetOf("a", "b", "c", "d", "e"), "drift", {
        parallel: 2,
        runOne: async (client): Promise<RunResult> => {
          most = Math.max(most, ++running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running--;
          ran.push(client.stack);
          if (client.stack === "b") throw new Error("the pulumi CLI was not found\nmore");
          return client.stack === "d"
            ? { status: "drift", drift: [{ resource: "crm:index:Message newsletter", how: "changed", fields: ["fromname"] }] }
            : { status: "no change" };
        },
      });
      assert.equal(most, 2);
      assert.deepEqual(ran.sort(), ["a", "b", "c", "d", "e"]);
      assert.deepEqual(
        outcomes.map((o) => [o.stack, o.status, o.error]),
        [
          ["a", "no change", undefined],
          ["b", "failed", "the pulumi CLI was not found"],
          ["c", "no change", undefined],
          ["d", "drift", undefined],
          ["e", "no change", undefined],
        ],
      );
      assert.ok(outcomes.every((o) => o.seconds >= 0));
    });

    const outcome = (stack: string, result: RunResult): ClientOutcome => ({ stack, seconds: 1.25, ...result });
    it("exits 1 if any client failed, was unreachable or locked, else 7 on drift, else 0", () => {
      const calm = outcome("a", { status: "no change" });
      const drifted = outcome("b", { status: "drift", drift: [] });
      assert.equal(exitCodeOf([calm, outcome("c", { status: "changed", changes: 2 })]), 0);
      assert.equal(exitCodeOf([calm, drifted]), 7);
      for (const status of ["failed", "unreachable", "locked"] as const) assert.equal(exitCodeOf([drifted, outcome("z", { status, error: "x" })]), 1, status);
    });

    it("prints a row per client, what it found and its time, then the totals and why the exit code", () => {
      const outcomes = [
        outcome("acme", { status: "no change" }),
        outcome("globex", {
          status: "drift",
          drift: [
            { resource: "crm:index:Message newsletter", how: "changed", fields: ["fromname", "subject"] },
            { resource: "crm:index:Address address", how: "gone", fields: [] },
          ],
        }),
        outcome("initech", { status: "unreachable", error: "crm:apiUrl (http://127.0.0.1:9) refused the connection" }),
      ];
      assert.equal(
        formatTable(outcomes, "drift"),
        [
          "Client   Status        Time  Result",
          "acme     no change    1.3 s  no drift",
          "globex   drift        1.3 s  crm:index:Message newsletter (fromname, subject); crm:index:Address address (gone)",
          "initech  unreachable  1.3 s  crm:apiUrl (http://127.0.0.1:9) refused the connection",
          "",
          "3 clients: 1 no change, 1 drift, 1 unreachable; exit code 1: a client failed, was unreachable, locked or interrupted",
          "",
        ].join("\n"),
      );
      assert.match(
        formatTable([outcome("acme", { status: "changed", changes: 4 })], "up"),
        /acme +changed +1\.3 s +changed 4 resources\n\n1 client: 1 changed; exit code 0\n$/,
      );
      assert.deepEqual(JSON.parse(formatJson(outcomes, "drift")), { operation: "drift", exitCode: 1, interrupted: false, clients: outcomes });
    });

    it("names what a preview would change, creates apart from updates, and the interrupted clients with exit code 130", () => {
      const planned = [
        { resource: "crm:index:Address address", how: "create" as const, fields: [] },
        { resource: "crm:index:Message newsletter", how: "update" as const, fields: ["fromname", "subject"] },
      ];
      assert.match(
        formatTable([outcome("acme", { status: "changed", changes: 2, planned })], "preview"),
        /^acme +changed +1\.3 s +would change 2 resources: 1 to be created \(crm:index:Address address\); 1 to be updated \(crm:index:Message newsletter: fromname, subject\)$/m,
      );
      const stopped = [
        outcome("acme", { status: "changed", changes: 2, planned }),
        { stack: "globex", status: "interrupted" as const, error: "not started: interrupted (Ctrl-C)", seconds: 0 },
      ];
      assert.match(
        formatTable(stopped, "up", true),
        /^globex +interrupted +0\.0 s +not started: interrupted \(Ctrl-C\)\n\n2 clients: 1 changed, 1 interrupted; exit code 130: interrupted \(Ctrl-C\)$/m,
      );
      assert.equal(JSON.parse(formatJson(stopped, "up", true)).exitCode, 130);
    });
  });

  describe("what a drift check's engine events say", () => {
    const step = (op: string, type: string, name: string, extra: Record<string, unknown> = {}) => ({
      sequence: 0,
      timestamp: 0,
      resOutputsEvent: { metadata: { op, type, urn: `urn:pulumi:acme::crm-agency::${type}::${name}`, ...extra } },
    });
    it("names each changed resource with the fields its diff names, each gone one, and nothing for the stack, providers and unchanged ones", () => {
      const events = [
        step("same", "pulumi:pulumi:Stack", "crm-agency-acme"),
        step("same", "pulumi:providers:crm", "default"),
        step("same", "crm:index:AccountCustomField", "tier"),
        step("update", "crm:index:Message", "newsletter", {
          diffs: ["subject", "fromname"],
          detailedDiff: { fromname: { kind: "update" }, "subject[0]": { kind: "update" } },
        }),
        step("delete", "crm:index:Address", "address", { old: { outputs: { city: "Chicago" } } }),
      ];
      assert.deepEqual(driftOf(events as never), [
        { resource: "crm:index:Message newsletter", how: "changed", fields: ["fromname", "subject"] },
        { resource: "crm:index:Address address", how: "gone", fields: [] },
      ]);
    });

    it("reads the fields from the states where the provider sends no detailed diff (the dynamic provider host)", () => {
      const old = { outputs: { __provider: "exports.handler = a", fromname: "Acme", subject: "News", id: "1" } };
      const read = { outputs: { __provider: "exports.handler = b", fromname: "Changed", subject: "News", id: "1" } };
      assert.deepEqual(driftOf([step("update", "pulumi-nodejs:dynamic/crm:Message", "newsletter", { old, new: read })] as never), [
        { resource: "pulumi-nodejs:dynamic/crm:Message newsletter", how: "changed", fields: ["fromname"] },
      ]);
    });
  });

  describe("the stacks whose secrets another provider keeps than the clients file's", () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-secrets-"));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const settings: Record<string, string> = {
      acme: "encryptionsalt: v1:c2FsdA==:v1:bm9uY2U=:Y2lwaGVy\n",
      initech: "secretsprovider: awskms://alias/other?region=eu-west-1\nencryptedkey: a2V5\n",
      globex: "config:\n  crm:apiUrl: https://globex.api-us1.com\n",
      umbrella: "secretsprovider: awskms://alias/fleet?region=eu-west-1\nencryptedkey: a2V5\n",
      hooli: "encryptionsalt: v1:c2FsdA==:v1:bm9uY2U=:Y2lwaGVy\n",
    };
    for (const [stack, text] of Object.entries(settings)) writeFileSync(join(dir, `Pulumi.${stack}.yaml`), text);
    const stacks = ["acme", "initech", "globex", "umbrella", "org/agency/hooli", "missing"];

    it("names each by its settings file: a salt alone is the passphrase, no provider the backend's default; a stack with no file is left out", async () => {
      const { LocalWorkspace } = await import("@pulumi/pulumi/automation");
      // The settings files alone are read: no CLI is run.
      const workspace = await LocalWorkspace.create({ workDir: dir, pulumiCommand: { command: "pulumi-not-run" } as never });
      assert.deepEqual(await otherSecretsProviders(workspace, stacks, "awskms://alias/fleet?region=eu-west-1"), [
        { stack: "acme", provider: "passphrase" },
        { stack: "initech", provider: "awskms://alias/other?region=eu-west-1" },
        { stack: "globex", provider: "the backend's default" },
        { stack: "org/agency/hooli", provider: "passphrase" },
      ]);
      assert.deepEqual(
        (await otherSecretsProviders(workspace, stacks, "passphrase")).map(({ stack }) => stack),
        ["initech", "globex", "umbrella"],
      );
    });
  });

  describe("what the CLI says of a stack's locks and pending operations", () => {
    it("names each lock's holder from the CLI's own error (a DIY backend's words), else its line, with the command that deletes it", () => {
      const diy =
        "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n" +
        "  postgres://****:****@db:5432/pulumi/.pulumi/locks/organization/crm-agency/acme/3764e26a.json?sslmode=disable: created by ci@runner-7 (pid 4242) at 2026-12-02T05:43:50Z\n";
      assert.deepEqual(lockedRow(diy, "acme"), {
        status: "locked",
        error:
          "locked by ci@runner-7 (pid 4242) since 2026-12-02T05:43:50Z; not waited on. If that run has ended (killed, interrupted), `pulumi cancel --stack acme --yes` deletes its lock",
      });
      assert.match(
        lockedRow("error: [409] Conflict: Another update is currently in progress.\n", "acme").error!,
        /^another run holds the stack \(\[409\] Conflict: Another update is currently in progress\.\); not waited on/,
      );
    });

    it("names the operations `pulumi stack export` holds pending, with the commands that clear them, and nothing without", () => {
      const exported = (pending: unknown[] | undefined) =>
        JSON.stringify({ version: 3, deployment: { manifest: {}, resources: [], ...(pending ? { pending_operations: pending } : {}) } });
      const creating = { type: "creating", resource: { urn: "urn:pulumi:acme::crm-agency::crm:index:Message::newsletter", type: "crm:index:Message" } };
      assert.deepEqual(pendingRow(exported([creating]), "acme"), {
        status: "interrupted",
        error:
          "a run left 1 operation pending (creating crm:index:Message newsletter): if it has ended (killed, interrupted), `pulumi cancel --stack acme --yes` deletes any lock it left, " +
          "then `pulumi refresh --stack acme --clear-pending-creates --yes` settles them; then run the fleet again",
      });
      assert.equal(pendingRow(exported(undefined), "acme"), undefined);
      assert.equal(pendingRow(exported([]), "acme"), undefined);
    });

    it("never repeats a URL's password the CLI names in its error", () => {
      assert.equal(
        firstLine(
          'error: unable to open state database "postgres://fleet:s3cret-pass@127.0.0.1:5432/pulumi?sslmode=disable": failed to ping PostgreSQL: connection refused',
        ),
        'unable to open state database "postgres://fleet:****@127.0.0.1:5432/pulumi?sslmode=disable": failed to ping PostgreSQL: connection refused',
      );
    });
  });

  describe("the command line", () => {
    it("takes a command and its options in both spellings", () => {
      const parsed = parseFleetArguments(["drift", "--clients=c.json", "--only", "acme,globex", "--parallel", "3", "--json", "--timeout=60"]);
      assert.deepEqual(
        [parsed.command, parsed.clients, parsed.only, parsed.parallel, parsed.json, parsed.timeout],
        ["drift", "c.json", ["acme", "globex"], 3, true, 60],
      );
      assert.equal(parseFleetArguments(["up"]).clients, "clients.json");
    });

    const refused: Array<[string[], RegExp]> = [
      [[], /fleet needs a command/],
      [["deploy"], /unknown fleet command "deploy"; the commands are sync, preview, up, drift, destroy, offboard and ci/],
      [["up", "--parallel", "0"], /--parallel must be a whole number of at least 1, got "0"/],
      [["up", "--out", "x"], /--out is an option of fleet ci only/],
      [["ci", "--parallel", "2"], /--parallel is not an option of fleet ci/],
      [["drift", "--verbose"], /unknown argument "--verbose"/],
    ];
    for (const [argv, message] of refused) it(`refuses \`fleet ${argv.join(" ")}\``, () => assert.throws(() => parseFleetArguments(argv), message));

    it("runs two clients a core, as far as memory allows (640 MiB each)", () => {
      assert.equal(defaultParallel("up", 8, 64 * 2 ** 30), 16);
      assert.equal(defaultParallel("up", 2, 23 * 2 ** 30), 4);
      assert.equal(defaultParallel("up", 8, 2.5 * 2 ** 30), 4);
      assert.equal(defaultParallel("up", 2, 256 * 2 ** 20), 1);
      assert.equal(defaultParallel("drift", 2, 23 * 2 ** 30), 16);
      assert.equal(defaultParallel("drift", 2, 7 * 2 ** 30), 11);
    });
  });

  describe("fleet ci", () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-ci-"));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const fleet = (count: number, program = join(dir, "yaml")): ClientsFile => ({
      path: join(dir, "clients.json"),
      program,
      clients: fleetOf(...Array.from({ length: count }, (_, index) => `client-${index + 1}`)),
    });

    it("writes a drift check and a preview whose matrix is the clients, on Node.js 24, each job running the fleet on its stacks", () => {
      const workflows = fleetWorkflows(fleet(3), { root: dir, perJob: 1, maxParallel: 20, cron: "17 6 * * *" });
      assert.deepEqual(Object.keys(workflows), ["fleet-drift.yml", "fleet-preview.yml"]);
      const drift = workflows["fleet-drift.yml"];
      assert.match(drift, /\n {8}stacks:\n {10}- "client-1"\n {10}- "client-2"\n {10}- "client-3"\n {4}env:/);
      assert.match(drift, /cron: "17 6 \* \* \*"/);
      assert.match(drift, /node-version: 24\n {10}check-latest: true/);
      assert.match(drift, /npx pulumi-crm fleet drift --clients "clients.json" --only "\$STACKS"/);
      // The YAML program names no pluginDownloadURL here: the npm bin that npx puts on PATH, said so, nothing put on PATH for it.
      assert.match(drift, /names no pluginDownloadURL: its plugin is the npm package's bin/);
      assert.doesNotMatch(drift, /node_modules\/\.bin/);
      assert.match(workflows["fleet-preview.yml"], /on:\n {2}pull_request:[\s\S]*npx pulumi-crm fleet preview --clients "clients.json" --only "\$STACKS"/);
    });

    it("writes workflows GitHub can read: a cron drift job and a pull-request preview job, their matrix the stacks, Node.js 24 set up", () => {
      const yaml = require(require.resolve("js-yaml", { paths: [require.resolve("@pulumi/pulumi")] })) as { load(text: string): any };
      const workflows = fleetWorkflows(fleet(2), { root: dir, perJob: 1, maxParallel: 7, cron: "0 5 * * 1" });
      const drift = yaml.load(workflows["fleet-drift.yml"]);
      const preview = yaml.load(workflows["fleet-preview.yml"]);
      assert.deepEqual(drift.on, { schedule: [{ cron: "0 5 * * 1" }], workflow_dispatch: {} });
      assert.deepEqual(preview.on, { pull_request: { branches: ["main"] } });
      for (const job of [drift.jobs.drift, preview.jobs.preview]) {
        assert.deepEqual(job.strategy, { "fail-fast": false, "max-parallel": 7, matrix: { stacks: ["client-1", "client-2"] } });
        assert.equal(job.env.STACKS, "${{ matrix.stacks }}");
        // A self-managed backend's URL holds its credentials (a PostgreSQL password): a secret, like the passphrase.
        assert.equal(job.env.PULUMI_BACKEND_URL, "${{ secrets.PULUMI_BACKEND_URL }}");
        assert.equal(job.env.PULUMI_CONFIG_PASSPHRASE, "${{ secrets.PULUMI_CONFIG_PASSPHRASE }}");
        assert.deepEqual(job.steps.find((step: { uses?: string }) => step.uses?.startsWith("actions/setup-node@")).with, {
          "node-version": 24,
          "check-latest": true,
          cache: "npm",
        });
        // Every action pinned by a commit, not a tag that can be moved.
        for (const step of job.steps.filter((each: { uses?: string }) => each.uses)) assert.match(step.uses, /^actions\/[a-z-]+@[0-9a-f]{40}$/, step.uses);
        // The CLI and its plugins kept between runs, installed only when the cache has none: the release the tests run on.
        const cache = job.steps.find((step: { uses?: string }) => step.uses?.startsWith("actions/cache@"));
        assert.deepEqual(cache.with.path.trim().split("\n"), ["~/.pulumi/bin", "~/.pulumi/plugins"]);
        assert.equal(cache.with.key, `pulumi-\${{ runner.os }}-${TESTED_PULUMI_CLI}-\${{ hashFiles('yaml/Pulumi.yaml') }}`);
        const install = job.steps.find((step: { name?: string }) => step.name === "Install the Pulumi CLI");
        assert.equal(install.if, `steps.${cache.id}.outputs.cache-hit != 'true'`);
        assert.equal(install.run, `curl -fsSL https://get.pulumi.com | sh -s -- --version ${TESTED_PULUMI_CLI}`);
      }
      assert.match(
        drift.jobs.drift.steps.at(-1).run,
        /^set \+e\nnpx pulumi-crm fleet drift .*\ncode=\$\{PIPESTATUS\[0\]\}\n.*>> "\$GITHUB_STEP_SUMMARY"\nexit "\$code"\n$/s,
      );
    });

    it("gives the jobs the clients file's env: variables from the repository's secrets", () => {
      const file = parseClients(
        {
          clients: [client("acme", { config: { street: "env:ACME_STREET" } }), { stack: "initech", apiUrl: "https://initech.api-eu1.com", apiToken: "stack" }],
        },
        join(dir, "clients.json"),
      );
      const preview = fleetWorkflows(file, { root: dir, perJob: 1, maxParallel: 20, cron: "17 6 * * *" })["fleet-preview.yml"];
      assert.match(preview, /\n {6}ACME_CRM_TOKEN: \$\{\{ secrets\.ACME_CRM_TOKEN \}\}\n {6}ACME_STREET: \$\{\{ secrets\.ACME_STREET \}\}\n {4}steps:/);
    });

    it("gives the jobs the passphrase, or the credentials of the key service the clients file's secretsProvider names, from the repository's secrets", () => {
      const yaml = require(require.resolve("js-yaml", { paths: [require.resolve("@pulumi/pulumi")] })) as { load(text: string): any };
      const envOf = (secretsProvider?: string) =>
        yaml.load(
          fleetWorkflows({ ...fleet(1), ...(secretsProvider && { secretsProvider }) }, { root: dir, perJob: 1, maxParallel: 1, cron: "0 5 * * *" })[
            "fleet-drift.yml"
          ],
        ).jobs.drift.env as Record<string, string>;
      const secretsOf = (env: Record<string, string>) =>
        Object.keys(env).filter((name) => !["STACKS", "PULUMI_ACCESS_TOKEN", "PULUMI_BACKEND_URL"].includes(name) && !name.endsWith("_CRM_TOKEN"));
      assert.deepEqual(secretsOf(envOf()), ["PULUMI_CONFIG_PASSPHRASE"]);
      assert.deepEqual(secretsOf(envOf("passphrase")), ["PULUMI_CONFIG_PASSPHRASE"]);
      assert.deepEqual(secretsOf(envOf("awskms://alias/fleet?region=eu-west-1")), ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]);
      assert.deepEqual(secretsOf(envOf("hashivault://fleet")), ["VAULT_SERVER_URL", "VAULT_SERVER_TOKEN"]);
      assert.deepEqual(secretsOf(envOf("azurekeyvault://fleet.vault.azure.net/keys/fleet")), ["AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "AZURE_TENANT_ID"]);
      assert.deepEqual(secretsOf(envOf("gcpkms://projects/p/locations/global/keyRings/r/cryptoKeys/fleet")), []);
      assert.equal(envOf("awskms://alias/fleet").AWS_ACCESS_KEY_ID, "${{ secrets.AWS_ACCESS_KEY_ID }}");
    });

    it("installs the pulumi CLI the package's tests run on (tools/pulumi-cli/go.mod)", () => {
      const built = /github\.com\/pulumi\/pulumi\/pkg\/v3 v(\S+)/.exec(readFileSync(join(repoRoot, "tools", "pulumi-cli", "go.mod"), "utf8"))?.[1];
      assert.equal(TESTED_PULUMI_CLI, built);
    });

    it("runs a YAML program that names its plugin's release on that release, downloaded into the cached plugins", () => {
      const drift = fleetWorkflows(
        { ...fleet(1), program: join(repoRoot, "examples", "agency", "yaml") },
        { root: repoRoot, perJob: 1, maxParallel: 20, cron: "0 5 * * 1" },
      )["fleet-drift.yml"];
      assert.match(drift, /the release's single executable, which the CLI\n *# downloads where the program's pluginDownloadURL says/);
      assert.doesNotMatch(drift, /npm package's bin|node_modules/);
      assert.match(drift, /hashFiles\('examples\/agency\/yaml\/Pulumi\.yaml'\)/);
    });

    it("installs a TypeScript program's own dependencies instead of putting the plugin on PATH", () => {
      mkdirSync(join(dir, "typescript"), { recursive: true });
      writeFileSync(join(dir, "typescript", "package.json"), "{}");
      const drift = fleetWorkflows(fleet(1, join(dir, "typescript")), { root: dir, perJob: 1, maxParallel: 20, cron: "0 5 * * 1" })["fleet-drift.yml"];
      assert.match(drift, /run: npm ci --prefix "typescript"/);
      assert.doesNotMatch(drift, /crm plugin on PATH/);
    });

    it("writes the workflows of examples/agency/clients.json where --out says, paths from where it runs", async () => {
      const out = join(dir, "workflows");
      const written: string[] = [];
      const write = process.stdout.write;
      process.stdout.write = ((text: string) => written.push(text) > 0) as typeof process.stdout.write;
      let code: number;
      try {
        code = await fleetMain(["ci", "--clients", join("examples", "agency", "clients.json"), "--out", out]);
      } finally {
        process.stdout.write = write;
      }
      assert.equal(code, 0);
      assert.match(written.join(""), /^Wrote .*fleet-drift\.yml and .*fleet-preview\.yml: 3 clients, 3 jobs each\.\n$/);
      const drift = readFileSync(join(out, "fleet-drift.yml"), "utf8");
      assert.match(drift, /stacks:\n {10}- "acme"\n {10}- "globex"\n {10}- "initech"\n/);
      assert.match(drift, /npx pulumi-crm fleet drift --clients "examples\/agency\/clients.json" --only "\$STACKS"/);
    });

    it("writes the workflows into the repository root's .github/workflows when run from a subfolder, paths from the root", async () => {
      const repository = join(dir, "repository");
      mkdirSync(join(repository, ".git"), { recursive: true });
      mkdirSync(join(repository, "fleet", "yaml"), { recursive: true });
      writeFileSync(
        join(repository, "fleet", "clients.json"),
        JSON.stringify({ program: "yaml", clients: [{ stack: "acme", apiUrl: "https://acme.api-us1.com", apiToken: "env:ACME_CRM_TOKEN" }] }),
      );
      const cwd = process.cwd();
      const write = process.stdout.write;
      process.stdout.write = (() => true) as typeof process.stdout.write;
      let code: number;
      try {
        process.chdir(join(repository, "fleet"));
        code = await fleetMain(["ci", "--clients", "clients.json"]);
      } finally {
        process.chdir(cwd);
        process.stdout.write = write;
      }
      assert.equal(code, 0);
      assert.ok(!existsSync(join(repository, "fleet", ".github")));
      assert.match(
        readFileSync(join(repository, ".github", "workflows", "fleet-drift.yml"), "utf8"),
        /npx pulumi-crm fleet drift --clients "fleet\/clients.json" --only "\$STACKS"/,
      );
    });

    it("sets up Node.js as examples/ci-drift's workflows do: the newest 24, not an older one the runner has", () => {
      const setupNode = (workflow: string) =>
        /- uses: actions\/setup-node@[0-9a-f]{40} # v4\.4\.0\n\s+with:\n((?:\s+[a-z-]+: .*\n)+)/.exec(workflow)?.[1].replace(/\s+/g, " ").trim();
      const written = setupNode(fleetWorkflows(fleet(1), { root: dir, perJob: 1, maxParallel: 20, cron: "17 6 * * *" })["fleet-drift.yml"]);
      assert.equal(written, "node-version: 24 check-latest: true cache: npm");
      for (const example of ["drift.yml", "preview.yml"]) {
        assert.equal(setupNode(readFileSync(join(repoRoot, "examples", "ci-drift", ".github", "workflows", example), "utf8")), written, example);
      }
    });

    it("puts several stacks in a job where a matrix's 256 jobs are too few, and says so", () => {
      assert.deepEqual(matrixOf(fleet(5), 2), ["client-1,client-2", "client-3,client-4", "client-5"]);
      assert.equal(matrixOf(fleet(300), 2).length, 150);
      assert.throws(() => matrixOf(fleet(300), 1), /300 clients at 1 a job make 300 jobs, more than the 256 a GitHub matrix allows: give --per-job 2 or more/);
    });
  });
});

describe("pulumi-crm fleet: the plugin release a program names, which the fleet shares among its stacks", () => {
  const programOf = (yaml: string) => {
    const folder = mkdtempSync(join(tmpdir(), "fleet-program-"));
    writeFileSync(join(folder, "Pulumi.yaml"), yaml);
    try {
      return programSettings(folder).pluginVersion;
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };
  const resource = (version: string) =>
    `  tag${version.replace(/\W/g, "")}:\n    type: crm:Tag\n    options: { version: ${version}, pluginDownloadURL: "github://api.github.com/pulumi-crm/pulumi-crm" }\n`;

  it("is the one version named beside pluginDownloadURL, as examples/agency names it", () => {
    assert.equal(programSettings(join(__dirname, "..", "..", "examples", "agency", "yaml")).pluginVersion, "0.1.0");
    assert.equal(programOf(`name: p\nruntime: yaml\nresources:\n${resource("0.1.0")}${resource("0.1.0")}`), "0.1.0");
  });

  it("is none where the program names two versions, none, or a plugin's folder, which the CLI runs instead", () => {
    assert.equal(programOf(`name: p\nruntime: yaml\nresources:\n${resource("0.1.0")}${resource("0.2.0")}`), undefined);
    assert.equal(programOf("name: p\nruntime: yaml\nresources:\n  tag:\n    type: crm:Tag\n"), undefined);
    assert.equal(programOf(`name: p\nruntime: yaml\nplugins:\n  providers:\n    - name: crm\n      path: ./crm\nresources:\n${resource("0.1.0")}`), undefined);
  });
});
