// What the test engine keeps in the state and how it configures providers and programs, as the CLI
// does, run against the fixture program of test/support/engine-workspace.ts.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { runEngine } from "../engine/engine";
import type { ItemSpec } from "../engine/fixtures/store";
import { A, B, C, DEFAULT_PROVIDER_URN, fixtureProgram, ITEM_TYPE, itemLine, STACK, useWorkspace, wrapped } from "./support/engine-workspace";

// Previews are tested where they are what a test is about (the preview that stops an up, a delete
// before replace, a clean-up up that must count nothing, a refused replacement) and in
// test/engine.test.ts; the other ups run the update alone (`up --skip-preview`, `deploy`).
describe("test engine: state and configuration", function () {
    this.timeout(120_000);
    const workspace = useWorkspace();

    it("keeps the default provider in the state: refresh and destroy configure it from there, up from the configuration", async () => {
        await workspace().deploy([A, B], { secrets: { token: "t0" } });
        const provider = workspace().defaultProvider();
        assert.match(provider.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        assert.equal(workspace().item("a").provider, `${DEFAULT_PROVIDER_URN}::${provider.id}`);
        assert.equal(provider.inputs["engine-fixture:storeFile"], workspace().storeFile);
        assert.deepEqual(provider.inputs["engine-fixture:token"], wrapped("t0"));
        assert.deepEqual(provider.outputs, provider.inputs);

        // up takes a new configuration into the provider, in no step of its own.
        const rotated = await workspace().deploy([A, B], { secrets: { token: "t1" } });
        assert.deepEqual(rotated.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 4 });
        assert.deepEqual(workspace().defaultProvider().inputs["engine-fixture:token"], wrapped("t1"));

        // Refresh and destroy keep using the configuration in the state: the old store.
        const moved = { config: { storeFile: path.join(workspace().dir, "moved.json") }, secrets: { token: "t1" } };
        const refreshed = await workspace().succeed("refresh", [], moved);
        assert.equal(refreshed.changes, false);
        await workspace().succeed("destroy", [], moved);
        assert.deepEqual(workspace().store().objects, {});
        assert.deepEqual(workspace().resources(), []);
        assert.ok(!fs.existsSync(moved.config.storeFile));
    });

    it("refresh decides drift with the provider's diff, and keeps what it read either way", async () => {
        await workspace().deploy([A, B]);
        // The diff ignores `exclusive`, and compares `value`.
        workspace().editObject("a", (store, id) => (store.objects[id].exclusive = true));
        workspace().editObject("b", (store, id) => (store.objects[id].value = "drifted"));
        const refreshed = await workspace().succeed("refresh", []);
        assert.deepEqual(refreshed.steps, { create: 0, update: 1, replace: 0, delete: 0, same: 3 });
        assert.ok(refreshed.lines.includes(itemLine("=", "a")) && refreshed.lines.includes(`${itemLine("~", "b")} [diff: ~value]`), refreshed.lines.join("\n"));
        assert.equal(workspace().item("a").outputs.exclusive, true);
        assert.equal(workspace().item("a").inputs.exclusive, true);
    });

    it("marks outputs secret on same and refresh steps too, for secret inputs and additionalSecretOutputs", async () => {
        await workspace().deploy([A]);
        const same = await workspace().deploy([{ ...A, secretValue: true, secretOutputs: ["key"] }]);
        assert.equal(same.changes, false);
        const marked = () => [workspace().item("a").outputs.value, workspace().item("a").outputs.key];
        assert.deepEqual(marked(), [wrapped("1"), wrapped("k1")]);

        // Outputs stored unmarked (as an older engine left them) are marked again by refresh.
        workspace().editState((resources) => {
            const a = resources.find((r) => r.type === ITEM_TYPE)!;
            Object.assign(a.outputs, { value: "1", key: "k1" });
        });
        await workspace().succeed("refresh", []);
        assert.deepEqual(marked(), [wrapped("1"), wrapped("k1")]);
    });

    it("refuses to replace a resource protected before and after, but replaces one unprotected in the same run", async () => {
        await workspace().deploy([{ ...A, protect: true }]);
        const refused = await workspace().run("up", [{ ...A, key: "k1x", protect: true }]);
        assert.equal(refused.exitCode, 1);
        assert.ok(
            refused.diagnostics.includes(`error: ${ITEM_TYPE} a: the resource is protected; unprotect it before replacing it`),
            refused.diagnostics.join("\n"),
        );
        const replaced = await workspace().deploy([{ ...A, key: "k1x" }]);
        assert.equal(replaced.steps.replace, 1);
        assert.deepEqual(workspace().store().log, ["create a:k1", "create a:k1x", "delete a:k1"]);
    });

    it("delete before replace deletes first the dependents replaced with it, and checks replacements afresh", async () => {
        // d's key is a's id: replacing a replaces d.
        const d: ItemSpec = { name: "d", value: "4", key: "", keyFrom: "a" };
        await workspace().deploy([{ ...A, exclusive: true }, d]);
        const oldA = workspace().item("a").id;
        assert.equal(workspace().item("a").inputs.label, "a-k1");

        const replaced = await workspace().succeed("up", [{ ...A, key: "k1x", exclusive: true }, d]);
        assert.deepEqual(replaced.steps, { create: 0, update: 0, replace: 2, delete: 0, same: 2 });
        const newA = workspace().item("a").id;
        assert.deepEqual(workspace().store().log.slice(2), [`delete d:${oldA}`, "delete a:k1", "create a:k1x", `create d:${newA}`]);
        // Check ran without the old inputs, so the label was chosen anew rather than kept.
        assert.equal(workspace().item("a").inputs.label, "a-k1x");
        assert.ok(workspace().resources().every((r) => !r.pendingReplacement && !r.delete));
    });

    it("keeps the old inputs of an update that failed after the change, and updates again on the next up", async () => {
        await workspace().deploy([A]);
        const partial = { ...A, value: "partial" };
        const failed = await workspace().run("up", [partial], { skipPreview: true });
        assert.equal(failed.exitCode, 1);
        const a = workspace().item("a");
        assert.equal(a.inputs.value, "1");
        assert.equal(a.outputs.value, "partial");
        assert.deepEqual(a.initErrors, ["it did not start"]);

        assert.equal((await workspace().run("up", [partial], { skipPreview: true })).exitCode, 1);
        await workspace().deploy([{ ...A, value: "2" }]);
        assert.deepEqual(workspace().store().log, ["create a:k1", "update a:k1", "update a:k1", "update a:k1"]);
        assert.equal(workspace().item("a").inputs.value, "2");
        assert.equal(workspace().item("a").initErrors, undefined);
    });

    it("deletes objects replaced in an earlier run without counting them", async () => {
        await workspace().deploy([A]);
        workspace().editObject("a", (store, id) => (store.locked = [id]));
        const stuck = await workspace().run("up", [{ ...A, key: "k1x" }], { skipPreview: true });
        assert.equal(stuck.exitCode, 1);
        assert.ok(workspace().resources().some((r) => r.delete && r.urn.endsWith("::a")));

        workspace().editStore((store) => delete store.locked);
        const cleanup = await workspace().run("up", [{ ...A, key: "k1x" }], { expectNoChanges: true });
        assert.equal(cleanup.exitCode, 0, cleanup.diagnostics.join("\n"));
        assert.deepEqual(cleanup.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 3 });
        assert.deepEqual(workspace().store().log.slice(-1), ["delete a:k1"]);
        assert.ok(workspace().resources().every((r) => !r.delete));
    });

    it("refresh that drops a resource removes it from the dependencies and parents of the others", async () => {
        await workspace().deploy([A, { ...B, parentItem: "a" }]);
        const a = workspace().item("a");
        assert.equal(workspace().item("b").parent, a.urn);
        workspace().editObject("a", (store, id) => delete store.objects[id]);
        await workspace().succeed("refresh", []);
        const b = workspace().item("b");
        assert.deepEqual([b.parent, b.dependencies, b.propertyDependencies], ["", [], undefined]);
    });

    it("applies the project's configuration, which the stack configuration overrides", async () => {
        // No `items`: the project's default (none).
        const defaults = await runEngine({
            command: "up",
            cwd: fixtureProgram(),
            stack: STACK,
            stateFile: workspace().stateFile,
            config: { storeFile: workspace().storeFile },
            skipPreview: true,
        });
        assert.equal(defaults.exitCode, 0, defaults.diagnostics.join("\n"));
        assert.equal(defaults.steps.create, 2);
        assert.equal(workspace().stackOutputs().greeting, "hello");
        await workspace().deploy([A], { config: { greeting: "hi" } });
        assert.equal(workspace().stackOutputs().greeting, "hi");
    });

    it("takes the parallelism from PULUMI_PARALLEL, and gives the host and the program the CLI's environment", async () => {
        const saved = process.env.PULUMI_PARALLEL;
        process.env.PULUMI_PARALLEL = "3";
        try {
            await workspace().deploy([A], { config: { "pulumi-nodejs:mode": "m" } });
        } finally {
            if (saved === undefined) delete process.env.PULUMI_PARALLEL;
            else process.env.PULUMI_PARALLEL = saved;
        }
        assert.equal(workspace().stackOutputs().parallel, "3");
        assert.deepEqual(workspace().store().hostEnvironment, {
            PULUMI_PROJECT: "engine-fixture",
            PULUMI_NODEJS_PROJECT: "engine-fixture",
            PULUMI_CONFIG: JSON.stringify({ mode: "m" }),
        });
    });

    it("previews before it updates: a failure in the preview changes nothing", async () => {
        const result = await workspace().run("up", [A, { ...C, value: "" }]);
        assert.equal(result.exitCode, 1);
        assert.ok(result.diagnostics.includes(`error: ${ITEM_TYPE} c: invalid inputs: value: must not be empty`));
        assert.ok(!result.lines.includes("Updating:"));
        assert.deepEqual(workspace().store().objects, {});
        assert.ok(!fs.existsSync(workspace().stateFile));
    });

    it("with skipPreview, up is the update alone: the program runs once, and a failure comes after the steps before it", async () => {
        const first = await workspace().succeed("up", [A, B], { skipPreview: true });
        assert.deepEqual(first.steps, { create: 4, update: 0, replace: 0, delete: 0, same: 0 });
        assert.equal(first.lines[0], "Updating:");
        assert.ok(!first.lines.includes("Previewing update:"));
        // Each step is shown once: no preview showed it before.
        assert.equal(first.lines.filter((line) => line === itemLine("+", "a")).length, 1);
        assert.deepEqual(workspace().values(), { a: "1", b: "2" });

        // c waits for b (after), so the steps before it have all run when its check fails.
        const failed = await workspace().run("up", [{ ...A, value: "1b" }, B, { ...C, value: "", after: "b" }], { skipPreview: true });
        assert.equal(failed.exitCode, 1);
        assert.ok(failed.diagnostics.includes(`error: ${ITEM_TYPE} c: invalid inputs: value: must not be empty`));
        assert.ok(!failed.lines.includes("Previewing update:"));
        // No preview stopped it: the update ran the steps before the failure (a preview would have changed nothing).
        assert.deepEqual(failed.steps, { create: 0, update: 1, replace: 0, delete: 0, same: 3 });
        assert.deepEqual(workspace().values(), { a: "1b", b: "2" });
        assert.equal(workspace().item("a").inputs.value, "1b");

        const refused = await workspace().run("refresh", [], { skipPreview: true, previewOnly: true });
        assert.equal(refused.exitCode, 1);
        assert.ok(refused.diagnostics.includes("error: skipPreview and previewOnly cannot be used together"), refused.diagnostics.join("\n"));
        assert.equal((await workspace().run("preview", [A, B], { skipPreview: true })).exitCode, 1);
        assert.equal((await workspace().succeed("destroy", [], { skipPreview: true })).steps.delete, 4);
    });
});
