// Pending operations of an interrupted run, and the engine as a command, run against the fixture
// program of test/support/engine-workspace.ts.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { CHANGES_NOT_EXPECTED } from "../engine/engine";
import { annotateSecrets, applyIgnoreChanges, fromCheckpoint, makeSecret, PropertyMap, SECRET_SIG, SIG_KEY, toCheckpoint } from "../engine/properties";
import type { PendingOperation } from "../engine/state";
import { urnName } from "../engine/urn";
import { A, B, C, fixtureProgram, itemLine, STACK, useWorkspace } from "./support/engine-workspace";
import { engineCli } from "./support/packed-program";

describe("test engine: pending operations and the command line", function () {
    this.timeout(120_000);
    const workspace = useWorkspace();

    it("records each create, update and delete as a pending operation in the state while the provider runs it", async () => {
        const observed = { ...C, value: "observe" };
        // The updates alone (`up --skip-preview`): a preview calls no create, update or delete.
        await workspace().deploy([A, observed]);
        await workspace().deploy([{ ...A, value: "observe" }, observed]);
        const c = workspace().item("c");
        await workspace().deploy([{ ...A, value: "observe" }]);
        const seen = (workspace().store().observed ?? []).map(({ call, pendingOperations }) => ({
            call,
            pending: (pendingOperations as PendingOperation[]).map((op) => [op.type, urnName(op.resource.urn), op.resource.id]),
        }));
        // A create is pending before the object has an id; an update and a delete name it.
        assert.deepEqual(seen, [
            { call: "create c", pending: [["creating", "c", ""]] },
            { call: "update a", pending: [["updating", "a", workspace().item("a").id]] },
            { call: "delete c", pending: [["deleting", "c", c.id]] },
        ]);
        assert.deepEqual(workspace().pendingOperations(), [], "each operation ends with its step");
    });

    it("warns of the operations an interrupted run left pending, as the CLI; refresh clears pending creates or imports them only when told", async () => {
        await workspace().deploy([A, B]);
        const urnOf = (name: string) => workspace().item("a").urn.replace(/::a$/, `::${name}`);
        // What a kill during the update of a and the creates of c and d leaves.
        workspace().editPendingOperations((resources, pending) => {
            const a = resources.find((r) => r.urn === urnOf("a"))!;
            pending.push({ type: "updating", resource: a });
            for (const name of ["c", "d"]) pending.push({ type: "creating", resource: { ...a, urn: urnOf(name), id: "", outputs: {} } });
        });
        const warning = (count: number) => `warning: Attempting to deploy or update resources with ${count} pending operations from previous deployment.`;
        const up = await workspace().succeed("up", [A, B]);
        const warned = up.diagnostics.filter((line) => line.startsWith("warning: Attempting"));
        assert.equal(warned.length, 1, "the update warns, its preview does not");
        assert.ok(warned[0].startsWith(`${warning(3)}\n  * ${urnOf("a")}, interrupted while updating\n  * ${urnOf("c")}, interrupted while creating\n`));
        assert.match(warned[0], /Note that `pulumi refresh` will need to be run interactively to clear pending CREATE operations\.$/);
        // The snapshot keeps the pending creates, which need the user, and drops the rest.
        assert.deepEqual(workspace().pendingOperations().map((op) => [op.type, urnName(op.resource.urn)]), [["creating", "c"], ["creating", "d"]]);

        const refresh = await workspace().succeed("refresh", [A, B]);
        assert.ok(!refresh.diagnostics.some((line) => line.startsWith("warning: Attempting")));
        assert.equal(workspace().pendingOperations().length, 2, "a refresh that cannot prompt keeps pending creates");
        const again = await workspace().succeed("up", [A, B], { skipPreview: true });
        assert.ok(again.diagnostics.some((line) => line.startsWith(warning(2))), "pending creates are reported until resolved");

        const imported = await workspace().succeed("refresh", [A, B], { importPendingCreates: { [urnOf("c")]: "77", [urnOf("x")]: "1" } });
        assert.ok(imported.diagnostics.includes(`warning: "${urnOf("x")}" did not correspond to a pending create`));
        // The refresh's snapshot carries over pending creates only: the imported one is gone with it.
        assert.deepEqual(workspace().pendingOperations().map((op) => [op.type, urnName(op.resource.urn)]), [["creating", "d"]]);
        await workspace().succeed("refresh", [A, B], { clearPendingCreates: true });
        assert.deepEqual(workspace().pendingOperations(), []);
        const clean = await workspace().succeed("up", [A, B], { skipPreview: true });
        assert.ok(!clean.diagnostics.some((line) => line.startsWith("warning: Attempting")));
        assert.deepEqual(workspace().values(), { a: "1", b: "2" });
    });

    it("runs as a command (built, and as `npm run engine`) with a JSON summary and exit code 7 for unexpected changes", () => {
        const engine = (command: string, ...flags: string[]) =>
            spawnSync(
                process.execPath,
                [
                    ...[engineCli(), command, "--cwd", fixtureProgram(), "--stack", STACK],
                    ...["--state", workspace().stateFile],
                    ...["--config", `storeFile=${workspace().storeFile}`, "--config", `items=${JSON.stringify([A])}`],
                    ...flags,
                ],
                { cwd: path.join(__dirname, ".."), encoding: "utf8" },
            );
        const run = engine("preview", "--expect-no-changes", "--json");
        assert.equal(run.status, CHANGES_NOT_EXPECTED, run.stderr);
        const lines = run.stdout.trim().split("\n");
        assert.deepEqual(JSON.parse(lines[lines.length - 1]), {
            steps: { create: 3, update: 0, replace: 0, delete: 0, same: 0 },
            changes: true,
        });
        assert.ok(lines.includes(itemLine("+", "a")));
        assert.ok(!fs.existsSync(workspace().stateFile));

        const refresh = engine("refresh", "--preview-only", "--yes", "--expect-no-changes");
        assert.equal(refresh.status, 0, refresh.stderr);
        assert.ok(!fs.existsSync(workspace().stateFile));
        assert.equal(engine("up", "--preview-only").status, 2);
        // -f is --skip-preview: the update alone; refused with --preview-only.
        const skipped = engine("up", "-f");
        assert.equal(skipped.status, 0, skipped.stderr);
        assert.ok(skipped.stdout.includes("Updating:") && !skipped.stdout.includes("Previewing update:"), skipped.stdout);
        assert.deepEqual(workspace().values(), { a: "1" });
        assert.match(engine("refresh", "--preview-only", "--skip-preview").stderr, /--skip-preview and --preview-only cannot be used together/);
        assert.equal(engine("up", "--clear-pending-creates").status, 2);
        const odd = engine("refresh", "--import-pending-creates", "urn:pulumi:test::engine-fixture::x::y");
        assert.equal(odd.status, 2);
        assert.match(odd.stderr, /each URN must be followed by an ID: found an odd number of entries/);
        // `npm run engine` (ts-node on engine/cli.ts) is the same command.
        const unknown = spawnSync("npm", ["run", "--silent", "engine", "--", "apply"], { cwd: path.join(__dirname, ".."), encoding: "utf8" });
        assert.equal(unknown.status, 2);
        assert.match(unknown.stderr, /^error: unknown command "apply"\nusage: engine <preview\|up\|refresh\|destroy>/);
    });
});

describe("test engine properties", () => {
    it("marks outputs secret where the inputs were, following plain objects key by key", () => {
        const ins: PropertyMap = { token: makeSecret("t"), nested: { key: makeSecret("k"), plain: "p" }, list: [makeSecret(1)] };
        const outs: PropertyMap = { token: "t", nested: { key: "k", plain: "p" }, list: [1], extra: "e" };
        assert.deepEqual(annotateSecrets(outs, ins), {
            token: makeSecret("t"),
            nested: { key: makeSecret("k"), plain: "p" },
            list: makeSecret([1]),
            extra: "e",
        });
    });

    it("writes secrets in the checkpoint form and reads them back", () => {
        const value: PropertyMap = { a: makeSecret({ b: "c" }), d: [makeSecret("e")] };
        const checkpoint = toCheckpoint(value) as PropertyMap;
        assert.deepEqual(checkpoint.a, { [SIG_KEY]: SECRET_SIG, plaintext: '{"b":"c"}' });
        assert.deepEqual(fromCheckpoint(checkpoint), value);
    });

    it("keeps old values, or their absence, under ignoreChanges paths", () => {
        const olds: PropertyMap = { a: 1, nested: { b: 2 } };
        const news: PropertyMap = { a: 10, c: 30, nested: { b: 20, d: 40 } };
        assert.deepEqual(applyIgnoreChanges(news, olds, ["a", "c", "nested.b"]), { a: 1, nested: { b: 2, d: 40 } });
        assert.throws(() => applyIgnoreChanges(news, olds, ["list[0]"]), /unsupported/);
    });
});

