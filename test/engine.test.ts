// The test engine's steps (create, update, replace, delete, refresh, preview) and its errors, run
// against the fixture program of test/support/engine-workspace.ts.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { CHANGES_NOT_EXPECTED, runEngine } from "../engine/engine";
import type { ItemSpec } from "../engine/fixtures/store";
import { A, B, C, fixtureProgram, ITEM_TYPE, itemLine, STACK, useWorkspace, wrapped } from "./support/engine-workspace";

// The preview of each kind of step is tested once: a create and an update in the first test, a
// replace and a delete in the preview's own test, an explicit provider's, and a check failure and
// a foreign resource where they stop the up. The other ups run the update alone
// (`up --skip-preview`, `deploy`): their previews would test nothing more.
describe("test engine: steps", function () {
    this.timeout(120_000);
    const workspace = useWorkspace();

    it("creates on the first up, finds everything the same on the second, updates a changed input", async () => {
        const first = await workspace().succeed("up", [A, B]);
        assert.deepEqual(first.steps, { create: 4, update: 0, replace: 0, delete: 0, same: 0 });
        assert.ok(first.lines.includes(itemLine("+", "a")) && first.lines.includes(itemLine("+", "b")));
        assert.equal(first.lines[0], "Previewing update:");
        assert.ok(first.lines.includes("Updating:"));
        assert.deepEqual(workspace().values(), { a: "1", b: "2" });
        const a = workspace().item("a");
        assert.equal(
            a.urn,
            `urn:pulumi:${STACK}::engine-fixture::engine-fixture:index:Group$${ITEM_TYPE}::a`,
        );
        assert.equal(workspace().item("b").inputs.after, a.id);
        assert.deepEqual(workspace().item("b").propertyDependencies?.after, [a.urn]);
        const stack = workspace().resources().find((r) => r.type === "pulumi:pulumi:Stack");
        assert.deepEqual(stack?.outputs.ids, { a: a.id, b: workspace().item("b").id });

        const second = await workspace().deploy([A, B]);
        assert.deepEqual(second.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 4 });
        assert.equal(second.changes, false);

        const third = await workspace().succeed("up", [{ ...A, value: "1b" }, B]);
        assert.deepEqual(third.steps, { create: 0, update: 1, replace: 0, delete: 0, same: 3 });
        assert.ok(third.lines.includes(`${itemLine("~", "a")} [diff: ~value]`), third.lines.join("\n"));
        assert.equal(workspace().item("a").id, a.id);
        assert.deepEqual(workspace().values(), { a: "1b", b: "2" });
        assert.deepEqual(workspace().store().log, ["create a:k1", "create b:k2", "update a:k1"]);
    });

    it("replaces create-before-delete, or delete-before-replace when the diff asks for it", async () => {
        await workspace().deploy([A, B]);
        const replaced = await workspace().deploy([{ ...A, key: "k1x" }, B]);
        assert.deepEqual(replaced.steps, { create: 0, update: 1, replace: 1, delete: 0, same: 2 });
        assert.ok(replaced.lines.includes(`${itemLine("+-", "a")} [diff: ~key,label]`), replaced.lines.join("\n"));
        // The dependent moves to the new object before the old one goes.
        assert.deepEqual(workspace().store().log.slice(2), ["create a:k1x", "update b:k2", "delete a:k1"]);
        assert.ok(workspace().resources().every((r) => !r.delete));
        assert.equal(workspace().item("b").inputs.after, workspace().item("a").id);

        // An exclusive object cannot coexist with its replacement: the provider asks to delete first.
        await workspace().deploy([{ ...A, key: "k1y", exclusive: true }, B]);
        assert.deepEqual(workspace().store().log.slice(5, 7), ["delete a:k1x", "create a:k1y"]);
        assert.equal(Object.keys(workspace().store().objects).length, 2);
    });

    it("deletes what the program no longer declares, and destroy deletes dependents first", async () => {
        await workspace().deploy([A, B, C]);
        const removed = await workspace().deploy([A, B]);
        assert.deepEqual(removed.steps, { create: 0, update: 0, replace: 0, delete: 1, same: 4 });
        assert.ok(removed.lines.includes(itemLine("-", "c")));
        assert.deepEqual(workspace().values(), { a: "1", b: "2" });

        const destroyed = await workspace().succeed("destroy", []);
        assert.equal(destroyed.steps.delete, 4);
        assert.deepEqual(workspace().store().log.slice(-2), ["delete b:k2", "delete a:k1"]);
        assert.deepEqual(workspace().store().objects, {});
        assert.deepEqual(workspace().resources(), []);
    });

    it("refresh drops objects gone out of band and takes in drift; --preview-only only reads, --expect-no-changes applies first", async () => {
        await workspace().deploy([A, B, C]);
        workspace().editObject("c", (store, id) => delete store.objects[id]);
        workspace().editObject("b", (store, id) => (store.objects[id].value = "drifted"));
        const before = workspace().stateText();

        const check = await workspace().run("refresh", [], { previewOnly: true, expectNoChanges: true });
        assert.equal(check.exitCode, CHANGES_NOT_EXPECTED);
        assert.deepEqual(check.steps, { create: 0, update: 1, replace: 0, delete: 1, same: 3 });
        assert.equal(workspace().stateText(), before);

        const refreshed = await workspace().run("refresh", [], { expectNoChanges: true });
        assert.equal(refreshed.exitCode, CHANGES_NOT_EXPECTED);
        assert.ok(refreshed.lines.includes(itemLine("-", "c")) && refreshed.lines.includes(`${itemLine("~", "b")} [diff: ~value]`), refreshed.lines.join("\n"));
        assert.equal(workspace().item("b").outputs.value, "drifted");
        assert.equal(workspace().item("b").inputs.value, "drifted");
        assert.ok(!workspace().resources().some((r) => r.urn.endsWith("::c")));

        const clean = await workspace().run("refresh", [], { previewOnly: true, expectNoChanges: true });
        assert.equal(clean.exitCode, 0);
        assert.equal(clean.changes, false);
    });

    it("preview reports what up would do and changes neither the objects nor the state", async () => {
        await workspace().deploy([A, B]);
        const state = workspace().stateText();
        const store = JSON.stringify(workspace().store());

        const preview = await workspace().run("preview", [{ ...A, key: "k1x" }, C], { expectNoChanges: true });
        assert.equal(preview.exitCode, CHANGES_NOT_EXPECTED);
        assert.deepEqual(preview.steps, { create: 1, update: 0, replace: 1, delete: 1, same: 2 });
        assert.ok(preview.lines.includes(itemLine("-", "b")));
        assert.equal(workspace().stateText(), state);
        assert.equal(JSON.stringify(workspace().store()), store);

        const unchanged = await workspace().run("preview", [A, B], { expectNoChanges: true });
        assert.equal(unchanged.exitCode, 0);
        assert.equal(unchanged.steps.same, 4);
    });

    it("keeps a secret input wrapped in the state file and hands it revealed to the provider", async () => {
        const items = [A, { ...B, useToken: true }];
        await workspace().deploy(items, { secrets: { token: "s3cret" } });
        const b = workspace().item("b");
        assert.deepEqual(b.inputs.token, wrapped("s3cret"));
        // The provider answered in plain text; the output is secret because its input was.
        assert.deepEqual(b.outputs.token, wrapped("s3cret"));
        assert.equal(Object.values(workspace().store().objects).find((o) => o.name === "b")?.token, "s3cret");
        // The item's input and output, and the default provider's (the configuration): all wrapped.
        const text = workspace().stateText();
        assert.equal(text.split("s3cret").length - 1, 4);
        assert.ok(!text.replace(/"plaintext": "(?:[^"\\]|\\.)*"/g, "").includes("s3cret"));

        const again = await workspace().deploy(items, { secrets: { token: "s3cret" } });
        assert.equal(again.changes, false);
    });

    it("reports a provider error with its message, keeps what succeeded and leaves no process behind", async () => {
        const failing: ItemSpec = { name: "d", value: "fail", key: "k4", after: "a" };
        const result = await workspace().run("up", [A, failing], { skipPreview: true });
        assert.equal(result.exitCode, 1);
        assert.ok(
            result.diagnostics.includes(`error: ${ITEM_TYPE} d: the store refuses to create d`),
            result.diagnostics.join("\n"),
        );
        assert.deepEqual(workspace().values(), { a: "1" });
        assert.ok(workspace().item("a").id);
        assert.ok(!workspace().resources().some((r) => r.urn.endsWith("::d")));
        const children = spawnSync("ps", ["-o", "args=", "--ppid", String(process.pid)], { encoding: "utf8" });
        const engineChildren = children.stdout.split("\n").filter((args) => args.includes("@pulumi/pulumi/cmd"));
        assert.deepEqual(engineChildren, []);
    });

    it("records an object the provider created but failed to initialize, and fails the run", async () => {
        const result = await workspace().run("up", [{ ...A, value: "partial" }], { skipPreview: true });
        assert.equal(result.exitCode, 1);
        assert.ok(result.diagnostics.includes(`error: ${ITEM_TYPE} a: a was created but did not start`));
        const [id] = Object.keys(workspace().store().objects);
        assert.equal(workspace().item("a").id, id);
        assert.equal(workspace().item("a").outputs.value, "partial");
    });

    it("rejects invalid inputs with the provider's check failures", async () => {
        const result = await workspace().run("up", [{ ...A, value: "" }]);
        assert.equal(result.exitCode, 1);
        assert.ok(result.diagnostics.includes(`error: ${ITEM_TYPE} a: invalid inputs: value: must not be empty`));
    });

    it("serves resources through an explicit pulumi-nodejs provider configured by its own arguments", async () => {
        const explicit = { config: { explicitProvider: "true" } };
        await workspace().succeed("up", [A, B], explicit);
        const provider = workspace().resources().find((r) => r.urn.endsWith("::pulumi:providers:pulumi-nodejs::explicit"));
        assert.ok(provider?.id);
        assert.equal(workspace().item("a").provider, `${provider.urn}::${provider.id}`);
        assert.deepEqual(workspace().values(), { a: "1", b: "2" });

        await workspace().succeed("destroy", [], explicit);
        assert.deepEqual(workspace().store().objects, {});
        assert.deepEqual(workspace().resources(), []);
    });

    it("refuses resources that no dynamic provider serves", async () => {
        const result = await workspace().run("up", [A], { config: { foreignResource: "true" } });
        assert.equal(result.exitCode, 1);
        assert.ok(
            result.diagnostics.some((line) => line.includes("other:index:Thing is unsupported by the test engine")),
            result.diagnostics.join("\n"),
        );
    });

    it("reads the stack configuration file, structured values as JSON", async () => {
        const result = await runEngine({
            command: "up",
            cwd: fixtureProgram(),
            stack: "from-file",
            stateFile: workspace().stateFile,
            config: { "engine-fixture:storeFile": workspace().storeFile },
            skipPreview: true,
        });
        assert.equal(result.exitCode, 0, result.diagnostics.join("\n"));
        assert.deepEqual(workspace().values(), { filed: "from the stack file" });
    });
});
