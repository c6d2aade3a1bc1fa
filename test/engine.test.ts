// The test engine against a real program (test/engine/fixtures/store) whose dynamic provider keeps
// its objects in a JSON file: each test gets its own store and state file, declares items through
// stack configuration, and checks the steps, the state file and the objects in the store.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { CHANGES_NOT_EXPECTED, Command, EngineResult, runEngine } from "./engine/engine";
import {
    annotateSecrets,
    applyIgnoreChanges,
    fromCheckpoint,
    makeSecret,
    PropertyMap,
    SECRET_SIG,
    SIG_KEY,
    toCheckpoint,
} from "./engine/properties";
import type { ItemSpec, Store } from "./engine/fixtures/store";
import type { PendingOperation, ResourceState } from "./engine/state";
import { urnName } from "./engine/urn";

const FIXTURE = path.join(__dirname, "engine", "fixtures", "store");
const STACK = "test";
const ITEM_TYPE = "pulumi-nodejs:dynamic/fixture:Item";
const DEFAULT_PROVIDER_URN = `urn:pulumi:${STACK}::engine-fixture::pulumi:providers:pulumi-nodejs::default`;

interface RunOptions {
    config?: Record<string, string>;
    secrets?: Record<string, string>;
    expectNoChanges?: boolean;
    previewOnly?: boolean;
    clearPendingCreates?: boolean;
    importPendingCreates?: Record<string, string>;
}

/** A secret as the state file keeps it. */
const wrapped = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(value) });

/** A store, a state file and the engine runs against them. */
class Workspace {
    readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-test-"));
    readonly stateFile = path.join(this.dir, "state.json");
    readonly storeFile = path.join(this.dir, "store.json");

    run(command: Command, items: ItemSpec[], options: RunOptions = {}): Promise<EngineResult> {
        return runEngine({
            command,
            cwd: FIXTURE,
            stack: STACK,
            stateFile: this.stateFile,
            config: { storeFile: this.storeFile, stateFile: this.stateFile, items: JSON.stringify(items), ...options.config },
            secrets: options.secrets,
            expectNoChanges: options.expectNoChanges,
            previewOnly: options.previewOnly,
            clearPendingCreates: options.clearPendingCreates,
            importPendingCreates: options.importPendingCreates,
        });
    }

    async succeed(command: Command, items: ItemSpec[], options: RunOptions = {}): Promise<EngineResult> {
        const result = await this.run(command, items, options);
        assert.equal(result.exitCode, 0, result.diagnostics.join("\n"));
        return result;
    }

    store(): Store {
        return JSON.parse(fs.readFileSync(this.storeFile, "utf8")) as Store;
    }

    /** The store's objects as name -> value. */
    values(): Record<string, string> {
        return Object.fromEntries(Object.values(this.store().objects).map((o) => [o.name, o.value]));
    }

    editStore(edit: (store: Store) => void): void {
        const store = this.store();
        edit(store);
        fs.writeFileSync(this.storeFile, JSON.stringify(store));
    }

    stateText(): string {
        return fs.readFileSync(this.stateFile, "utf8");
    }

    resources(): ResourceState[] {
        return (JSON.parse(this.stateText()) as { resources: ResourceState[] }).resources;
    }

    editState(edit: (resources: ResourceState[]) => void): void {
        this.editPendingOperations((resources) => edit(resources));
    }

    pendingOperations(): PendingOperation[] {
        return (JSON.parse(this.stateText()) as { pending_operations?: PendingOperation[] }).pending_operations ?? [];
    }

    /** Edits the resources and the pending operations, as an interrupted run may leave them. */
    editPendingOperations(edit: (resources: ResourceState[], pending: PendingOperation[]) => void): void {
        const state = JSON.parse(this.stateText()) as { resources: ResourceState[]; pending_operations?: PendingOperation[] };
        state.pending_operations ??= [];
        edit(state.resources, state.pending_operations);
        fs.writeFileSync(this.stateFile, JSON.stringify(state));
    }

    item(name: string): ResourceState {
        const item = this.resources().find((r) => r.type === ITEM_TYPE && r.urn.endsWith(`::${name}`));
        assert.ok(item, `no item ${name} in the state`);
        return item;
    }

    defaultProvider(): ResourceState {
        const provider = this.resources().find((r) => r.urn === DEFAULT_PROVIDER_URN);
        assert.ok(provider, "no default provider in the state");
        return provider;
    }

    stackOutputs(): PropertyMap {
        const stack = this.resources().find((r) => r.type === "pulumi:pulumi:Stack");
        assert.ok(stack, "no stack in the state");
        return stack.outputs;
    }

    /** Edits the object named `name` in the store. */
    editObject(name: string, edit: (store: Store, id: string) => void): void {
        this.editStore((store) => {
            const id = Object.keys(store.objects).find((key) => store.objects[key].name === name);
            assert.ok(id, `no object ${name} in the store`);
            edit(store, id);
        });
    }

    remove(): void {
        fs.rmSync(this.dir, { recursive: true, force: true });
    }
}

const itemLine = (symbol: string, name: string) => `${symbol} ${ITEM_TYPE} ${name}`;
const A: ItemSpec = { name: "a", value: "1", key: "k1" };
const B: ItemSpec = { name: "b", value: "2", key: "k2", after: "a" };
const C: ItemSpec = { name: "c", value: "3", key: "k3" };

describe("test engine", function () {
    this.timeout(120_000);
    let workspace: Workspace;
    beforeEach(() => (workspace = new Workspace()));
    afterEach(() => workspace.remove());

    it("creates on the first up, finds everything the same on the second, updates a changed input", async () => {
        const first = await workspace.succeed("up", [A, B]);
        assert.deepEqual(first.steps, { create: 4, update: 0, replace: 0, delete: 0, same: 0 });
        assert.ok(first.lines.includes(itemLine("+", "a")) && first.lines.includes(itemLine("+", "b")));
        assert.equal(first.lines[0], "Previewing update:");
        assert.ok(first.lines.includes("Updating:"));
        assert.deepEqual(workspace.values(), { a: "1", b: "2" });
        const a = workspace.item("a");
        assert.equal(
            a.urn,
            `urn:pulumi:${STACK}::engine-fixture::engine-fixture:index:Group$${ITEM_TYPE}::a`,
        );
        assert.equal(workspace.item("b").inputs.after, a.id);
        assert.deepEqual(workspace.item("b").propertyDependencies?.after, [a.urn]);
        const stack = workspace.resources().find((r) => r.type === "pulumi:pulumi:Stack");
        assert.deepEqual(stack?.outputs.ids, { a: a.id, b: workspace.item("b").id });

        const second = await workspace.succeed("up", [A, B]);
        assert.deepEqual(second.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 4 });
        assert.equal(second.changes, false);

        const third = await workspace.succeed("up", [{ ...A, value: "1b" }, B]);
        assert.deepEqual(third.steps, { create: 0, update: 1, replace: 0, delete: 0, same: 3 });
        assert.ok(third.lines.includes(itemLine("~", "a")));
        assert.equal(workspace.item("a").id, a.id);
        assert.deepEqual(workspace.values(), { a: "1b", b: "2" });
        assert.deepEqual(workspace.store().log, ["create a:k1", "create b:k2", "update a:k1"]);
    });

    it("replaces create-before-delete, or delete-before-replace when the diff asks for it", async () => {
        await workspace.succeed("up", [A, B]);
        const replaced = await workspace.succeed("up", [{ ...A, key: "k1x" }, B]);
        assert.deepEqual(replaced.steps, { create: 0, update: 1, replace: 1, delete: 0, same: 2 });
        assert.ok(replaced.lines.includes(itemLine("+-", "a")));
        // The dependent moves to the new object before the old one goes.
        assert.deepEqual(workspace.store().log.slice(2), ["create a:k1x", "update b:k2", "delete a:k1"]);
        assert.ok(workspace.resources().every((r) => !r.delete));
        assert.equal(workspace.item("b").inputs.after, workspace.item("a").id);

        // An exclusive object cannot coexist with its replacement: the provider asks to delete first.
        await workspace.succeed("up", [{ ...A, key: "k1y", exclusive: true }, B]);
        assert.deepEqual(workspace.store().log.slice(5, 7), ["delete a:k1x", "create a:k1y"]);
        assert.equal(Object.keys(workspace.store().objects).length, 2);
    });

    it("deletes what the program no longer declares, and destroy deletes dependents first", async () => {
        await workspace.succeed("up", [A, B, C]);
        const removed = await workspace.succeed("up", [A, B]);
        assert.deepEqual(removed.steps, { create: 0, update: 0, replace: 0, delete: 1, same: 4 });
        assert.ok(removed.lines.includes(itemLine("-", "c")));
        assert.deepEqual(workspace.values(), { a: "1", b: "2" });

        const destroyed = await workspace.succeed("destroy", []);
        assert.equal(destroyed.steps.delete, 4);
        assert.deepEqual(workspace.store().log.slice(-2), ["delete b:k2", "delete a:k1"]);
        assert.deepEqual(workspace.store().objects, {});
        assert.deepEqual(workspace.resources(), []);
    });

    it("refresh drops objects gone out of band and takes in drift; --preview-only only reads, --expect-no-changes applies first", async () => {
        await workspace.succeed("up", [A, B, C]);
        workspace.editObject("c", (store, id) => delete store.objects[id]);
        workspace.editObject("b", (store, id) => (store.objects[id].value = "drifted"));
        const before = workspace.stateText();

        const check = await workspace.run("refresh", [], { previewOnly: true, expectNoChanges: true });
        assert.equal(check.exitCode, CHANGES_NOT_EXPECTED);
        assert.deepEqual(check.steps, { create: 0, update: 1, replace: 0, delete: 1, same: 3 });
        assert.equal(workspace.stateText(), before);

        const refreshed = await workspace.run("refresh", [], { expectNoChanges: true });
        assert.equal(refreshed.exitCode, CHANGES_NOT_EXPECTED);
        assert.ok(refreshed.lines.includes(itemLine("-", "c")) && refreshed.lines.includes(itemLine("~", "b")));
        assert.equal(workspace.item("b").outputs.value, "drifted");
        assert.equal(workspace.item("b").inputs.value, "drifted");
        assert.ok(!workspace.resources().some((r) => r.urn.endsWith("::c")));

        const clean = await workspace.run("refresh", [], { previewOnly: true, expectNoChanges: true });
        assert.equal(clean.exitCode, 0);
        assert.equal(clean.changes, false);
    });

    it("preview reports what up would do and changes neither the objects nor the state", async () => {
        await workspace.succeed("up", [A, B]);
        const state = workspace.stateText();
        const store = JSON.stringify(workspace.store());

        const preview = await workspace.run("preview", [{ ...A, key: "k1x" }, C], { expectNoChanges: true });
        assert.equal(preview.exitCode, CHANGES_NOT_EXPECTED);
        assert.deepEqual(preview.steps, { create: 1, update: 0, replace: 1, delete: 1, same: 2 });
        assert.ok(preview.lines.includes(itemLine("-", "b")));
        assert.equal(workspace.stateText(), state);
        assert.equal(JSON.stringify(workspace.store()), store);

        const unchanged = await workspace.run("preview", [A, B], { expectNoChanges: true });
        assert.equal(unchanged.exitCode, 0);
        assert.equal(unchanged.steps.same, 4);
    });

    it("keeps a secret input wrapped in the state file and hands it revealed to the provider", async () => {
        const items = [A, { ...B, useToken: true }];
        await workspace.succeed("up", items, { secrets: { token: "s3cret" } });
        const b = workspace.item("b");
        assert.deepEqual(b.inputs.token, wrapped("s3cret"));
        // The provider answered in plain text; the output is secret because its input was.
        assert.deepEqual(b.outputs.token, wrapped("s3cret"));
        assert.equal(Object.values(workspace.store().objects).find((o) => o.name === "b")?.token, "s3cret");
        // The item's input and output, and the default provider's (the configuration): all wrapped.
        const text = workspace.stateText();
        assert.equal(text.split("s3cret").length - 1, 4);
        assert.ok(!text.replace(/"plaintext": "(?:[^"\\]|\\.)*"/g, "").includes("s3cret"));

        const again = await workspace.succeed("up", items, { secrets: { token: "s3cret" } });
        assert.equal(again.changes, false);
    });

    it("reports a provider error with its message, keeps what succeeded and leaves no process behind", async () => {
        const failing: ItemSpec = { name: "d", value: "fail", key: "k4", after: "a" };
        const result = await workspace.run("up", [A, failing]);
        assert.equal(result.exitCode, 1);
        assert.ok(
            result.diagnostics.includes(`error: ${ITEM_TYPE} d: the store refuses to create d`),
            result.diagnostics.join("\n"),
        );
        assert.deepEqual(workspace.values(), { a: "1" });
        assert.ok(workspace.item("a").id);
        assert.ok(!workspace.resources().some((r) => r.urn.endsWith("::d")));
        const children = spawnSync("ps", ["-o", "args=", "--ppid", String(process.pid)], { encoding: "utf8" });
        const engineChildren = children.stdout.split("\n").filter((args) => args.includes("@pulumi/pulumi/cmd"));
        assert.deepEqual(engineChildren, []);
    });

    it("records an object the provider created but failed to initialize, and fails the run", async () => {
        const result = await workspace.run("up", [{ ...A, value: "partial" }]);
        assert.equal(result.exitCode, 1);
        assert.ok(result.diagnostics.includes(`error: ${ITEM_TYPE} a: a was created but did not start`));
        const [id] = Object.keys(workspace.store().objects);
        assert.equal(workspace.item("a").id, id);
        assert.equal(workspace.item("a").outputs.value, "partial");
    });

    it("rejects invalid inputs with the provider's check failures", async () => {
        const result = await workspace.run("up", [{ ...A, value: "" }]);
        assert.equal(result.exitCode, 1);
        assert.ok(result.diagnostics.includes(`error: ${ITEM_TYPE} a: invalid inputs: value: must not be empty`));
    });

    it("serves resources through an explicit pulumi-nodejs provider configured by its own arguments", async () => {
        const explicit = { config: { explicitProvider: "true" } };
        await workspace.succeed("up", [A, B], explicit);
        const provider = workspace.resources().find((r) => r.urn.endsWith("::pulumi:providers:pulumi-nodejs::explicit"));
        assert.ok(provider?.id);
        assert.equal(workspace.item("a").provider, `${provider.urn}::${provider.id}`);
        assert.deepEqual(workspace.values(), { a: "1", b: "2" });

        await workspace.succeed("destroy", [], explicit);
        assert.deepEqual(workspace.store().objects, {});
        assert.deepEqual(workspace.resources(), []);
    });

    it("refuses resources that no dynamic provider serves", async () => {
        const result = await workspace.run("up", [A], { config: { foreignResource: "true" } });
        assert.equal(result.exitCode, 1);
        assert.ok(
            result.diagnostics.some((line) => line.includes("other:index:Thing is unsupported by the test engine")),
            result.diagnostics.join("\n"),
        );
    });

    it("reads the stack configuration file, structured values as JSON", async () => {
        const result = await runEngine({
            command: "up",
            cwd: FIXTURE,
            stack: "from-file",
            stateFile: workspace.stateFile,
            config: { "engine-fixture:storeFile": workspace.storeFile },
        });
        assert.equal(result.exitCode, 0, result.diagnostics.join("\n"));
        assert.deepEqual(workspace.values(), { filed: "from the stack file" });
    });

    it("keeps the default provider in the state: refresh and destroy configure it from there, up from the configuration", async () => {
        await workspace.succeed("up", [A, B], { secrets: { token: "t0" } });
        const provider = workspace.defaultProvider();
        assert.match(provider.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        assert.equal(workspace.item("a").provider, `${DEFAULT_PROVIDER_URN}::${provider.id}`);
        assert.equal(provider.inputs["engine-fixture:storeFile"], workspace.storeFile);
        assert.deepEqual(provider.inputs["engine-fixture:token"], wrapped("t0"));
        assert.deepEqual(provider.outputs, provider.inputs);

        // up takes a new configuration into the provider, in no step of its own.
        const rotated = await workspace.succeed("up", [A, B], { secrets: { token: "t1" } });
        assert.deepEqual(rotated.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 4 });
        assert.deepEqual(workspace.defaultProvider().inputs["engine-fixture:token"], wrapped("t1"));

        // Refresh and destroy keep using the configuration in the state: the old store.
        const moved = { config: { storeFile: path.join(workspace.dir, "moved.json") }, secrets: { token: "t1" } };
        const refreshed = await workspace.succeed("refresh", [], moved);
        assert.equal(refreshed.changes, false);
        await workspace.succeed("destroy", [], moved);
        assert.deepEqual(workspace.store().objects, {});
        assert.deepEqual(workspace.resources(), []);
        assert.ok(!fs.existsSync(moved.config.storeFile));
    });

    it("refresh decides drift with the provider's diff, and keeps what it read either way", async () => {
        await workspace.succeed("up", [A, B]);
        // The diff ignores `exclusive`, and compares `value`.
        workspace.editObject("a", (store, id) => (store.objects[id].exclusive = true));
        workspace.editObject("b", (store, id) => (store.objects[id].value = "drifted"));
        const refreshed = await workspace.succeed("refresh", []);
        assert.deepEqual(refreshed.steps, { create: 0, update: 1, replace: 0, delete: 0, same: 3 });
        assert.ok(refreshed.lines.includes(itemLine("=", "a")) && refreshed.lines.includes(itemLine("~", "b")));
        assert.equal(workspace.item("a").outputs.exclusive, true);
        assert.equal(workspace.item("a").inputs.exclusive, true);
    });

    it("marks outputs secret on same and refresh steps too, for secret inputs and additionalSecretOutputs", async () => {
        await workspace.succeed("up", [A]);
        const same = await workspace.succeed("up", [{ ...A, secretValue: true, secretOutputs: ["key"] }]);
        assert.equal(same.changes, false);
        const marked = () => [workspace.item("a").outputs.value, workspace.item("a").outputs.key];
        assert.deepEqual(marked(), [wrapped("1"), wrapped("k1")]);

        // Outputs stored unmarked (as an older engine left them) are marked again by refresh.
        workspace.editState((resources) => {
            const a = resources.find((r) => r.type === ITEM_TYPE)!;
            Object.assign(a.outputs, { value: "1", key: "k1" });
        });
        await workspace.succeed("refresh", []);
        assert.deepEqual(marked(), [wrapped("1"), wrapped("k1")]);
    });

    it("refuses to replace a resource protected before and after, but replaces one unprotected in the same run", async () => {
        await workspace.succeed("up", [{ ...A, protect: true }]);
        const refused = await workspace.run("up", [{ ...A, key: "k1x", protect: true }]);
        assert.equal(refused.exitCode, 1);
        assert.ok(
            refused.diagnostics.includes(`error: ${ITEM_TYPE} a: the resource is protected; unprotect it before replacing it`),
            refused.diagnostics.join("\n"),
        );
        const replaced = await workspace.succeed("up", [{ ...A, key: "k1x" }]);
        assert.equal(replaced.steps.replace, 1);
        assert.deepEqual(workspace.store().log, ["create a:k1", "create a:k1x", "delete a:k1"]);
    });

    it("delete before replace deletes first the dependents replaced with it, and checks replacements afresh", async () => {
        // d's key is a's id: replacing a replaces d.
        const d: ItemSpec = { name: "d", value: "4", key: "", keyFrom: "a" };
        await workspace.succeed("up", [{ ...A, exclusive: true }, d]);
        const oldA = workspace.item("a").id;
        assert.equal(workspace.item("a").inputs.label, "a-k1");

        const replaced = await workspace.succeed("up", [{ ...A, key: "k1x", exclusive: true }, d]);
        assert.deepEqual(replaced.steps, { create: 0, update: 0, replace: 2, delete: 0, same: 2 });
        const newA = workspace.item("a").id;
        assert.deepEqual(workspace.store().log.slice(2), [`delete d:${oldA}`, "delete a:k1", "create a:k1x", `create d:${newA}`]);
        // Check ran without the old inputs, so the label was chosen anew rather than kept.
        assert.equal(workspace.item("a").inputs.label, "a-k1x");
        assert.ok(workspace.resources().every((r) => !r.pendingReplacement && !r.delete));
    });

    it("keeps the old inputs of an update that failed after the change, and updates again on the next up", async () => {
        await workspace.succeed("up", [A]);
        const partial = { ...A, value: "partial" };
        const failed = await workspace.run("up", [partial]);
        assert.equal(failed.exitCode, 1);
        const a = workspace.item("a");
        assert.equal(a.inputs.value, "1");
        assert.equal(a.outputs.value, "partial");
        assert.deepEqual(a.initErrors, ["it did not start"]);

        assert.equal((await workspace.run("up", [partial])).exitCode, 1);
        await workspace.succeed("up", [{ ...A, value: "2" }]);
        assert.deepEqual(workspace.store().log, ["create a:k1", "update a:k1", "update a:k1", "update a:k1"]);
        assert.equal(workspace.item("a").inputs.value, "2");
        assert.equal(workspace.item("a").initErrors, undefined);
    });

    it("deletes objects replaced in an earlier run without counting them", async () => {
        await workspace.succeed("up", [A]);
        workspace.editObject("a", (store, id) => (store.locked = [id]));
        const stuck = await workspace.run("up", [{ ...A, key: "k1x" }]);
        assert.equal(stuck.exitCode, 1);
        assert.ok(workspace.resources().some((r) => r.delete && r.urn.endsWith("::a")));

        workspace.editStore((store) => delete store.locked);
        const cleanup = await workspace.run("up", [{ ...A, key: "k1x" }], { expectNoChanges: true });
        assert.equal(cleanup.exitCode, 0, cleanup.diagnostics.join("\n"));
        assert.deepEqual(cleanup.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 3 });
        assert.deepEqual(workspace.store().log.slice(-1), ["delete a:k1"]);
        assert.ok(workspace.resources().every((r) => !r.delete));
    });

    it("refresh that drops a resource removes it from the dependencies and parents of the others", async () => {
        await workspace.succeed("up", [A, { ...B, parentItem: "a" }]);
        const a = workspace.item("a");
        assert.equal(workspace.item("b").parent, a.urn);
        workspace.editObject("a", (store, id) => delete store.objects[id]);
        await workspace.succeed("refresh", []);
        const b = workspace.item("b");
        assert.deepEqual([b.parent, b.dependencies, b.propertyDependencies], ["", [], undefined]);
    });

    it("applies the project's configuration, which the stack configuration overrides", async () => {
        // No `items`: the project's default (none).
        const defaults = await runEngine({
            command: "up",
            cwd: FIXTURE,
            stack: STACK,
            stateFile: workspace.stateFile,
            config: { storeFile: workspace.storeFile },
        });
        assert.equal(defaults.exitCode, 0, defaults.diagnostics.join("\n"));
        assert.equal(defaults.steps.create, 2);
        assert.equal(workspace.stackOutputs().greeting, "hello");
        await workspace.succeed("up", [A], { config: { greeting: "hi" } });
        assert.equal(workspace.stackOutputs().greeting, "hi");
    });

    it("takes the parallelism from PULUMI_PARALLEL, and gives the host and the program the CLI's environment", async () => {
        const saved = process.env.PULUMI_PARALLEL;
        process.env.PULUMI_PARALLEL = "3";
        try {
            await workspace.succeed("up", [A], { config: { "pulumi-nodejs:mode": "m" } });
        } finally {
            if (saved === undefined) delete process.env.PULUMI_PARALLEL;
            else process.env.PULUMI_PARALLEL = saved;
        }
        assert.equal(workspace.stackOutputs().parallel, "3");
        assert.deepEqual(workspace.store().hostEnvironment, {
            PULUMI_PROJECT: "engine-fixture",
            PULUMI_NODEJS_PROJECT: "engine-fixture",
            PULUMI_CONFIG: JSON.stringify({ mode: "m" }),
        });
    });

    it("previews before it updates: a failure in the preview changes nothing", async () => {
        const result = await workspace.run("up", [A, { ...C, value: "" }]);
        assert.equal(result.exitCode, 1);
        assert.ok(result.diagnostics.includes(`error: ${ITEM_TYPE} c: invalid inputs: value: must not be empty`));
        assert.ok(!result.lines.includes("Updating:"));
        assert.deepEqual(workspace.store().objects, {});
        assert.ok(!fs.existsSync(workspace.stateFile));
    });

    it("records each create, update and delete as a pending operation in the state while the provider runs it", async () => {
        const observed = { ...C, value: "observe" };
        await workspace.succeed("up", [A, observed]);
        await workspace.succeed("up", [{ ...A, value: "observe" }, observed]);
        const c = workspace.item("c");
        await workspace.succeed("up", [{ ...A, value: "observe" }]);
        const seen = (workspace.store().observed ?? []).map(({ call, pendingOperations }) => ({
            call,
            pending: (pendingOperations as PendingOperation[]).map((op) => [op.type, urnName(op.resource.urn), op.resource.id]),
        }));
        // A create is pending before the object has an id; an update and a delete name it.
        assert.deepEqual(seen, [
            { call: "create c", pending: [["creating", "c", ""]] },
            { call: "update a", pending: [["updating", "a", workspace.item("a").id]] },
            { call: "delete c", pending: [["deleting", "c", c.id]] },
        ]);
        assert.deepEqual(workspace.pendingOperations(), [], "each operation ends with its step");
    });

    it("warns of the operations an interrupted run left pending, as the CLI; refresh clears pending creates or imports them only when told", async () => {
        await workspace.succeed("up", [A, B]);
        const urnOf = (name: string) => workspace.item("a").urn.replace(/::a$/, `::${name}`);
        // What a kill during the update of a and the creates of c and d leaves.
        workspace.editPendingOperations((resources, pending) => {
            const a = resources.find((r) => r.urn === urnOf("a"))!;
            pending.push({ type: "updating", resource: a });
            for (const name of ["c", "d"]) pending.push({ type: "creating", resource: { ...a, urn: urnOf(name), id: "", outputs: {} } });
        });
        const warning = (count: number) => `warning: Attempting to deploy or update resources with ${count} pending operations from previous deployment.`;
        const up = await workspace.succeed("up", [A, B]);
        const warned = up.diagnostics.filter((line) => line.startsWith("warning: Attempting"));
        assert.equal(warned.length, 1, "the update warns, its preview does not");
        assert.ok(warned[0].startsWith(`${warning(3)}\n  * ${urnOf("a")}, interrupted while updating\n  * ${urnOf("c")}, interrupted while creating\n`));
        assert.match(warned[0], /Note that `pulumi refresh` will need to be run interactively to clear pending CREATE operations\.$/);
        // The snapshot keeps the pending creates, which need the user, and drops the rest.
        assert.deepEqual(workspace.pendingOperations().map((op) => [op.type, urnName(op.resource.urn)]), [["creating", "c"], ["creating", "d"]]);

        const refresh = await workspace.succeed("refresh", [A, B]);
        assert.ok(!refresh.diagnostics.some((line) => line.startsWith("warning: Attempting")));
        assert.equal(workspace.pendingOperations().length, 2, "a refresh that cannot prompt keeps pending creates");
        const again = await workspace.succeed("up", [A, B]);
        assert.ok(again.diagnostics.some((line) => line.startsWith(warning(2))), "pending creates are reported until resolved");

        const imported = await workspace.succeed("refresh", [A, B], { importPendingCreates: { [urnOf("c")]: "77", [urnOf("x")]: "1" } });
        assert.ok(imported.diagnostics.includes(`warning: "${urnOf("x")}" did not correspond to a pending create`));
        // The refresh's snapshot carries over pending creates only: the imported one is gone with it.
        assert.deepEqual(workspace.pendingOperations().map((op) => [op.type, urnName(op.resource.urn)]), [["creating", "d"]]);
        await workspace.succeed("refresh", [A, B], { clearPendingCreates: true });
        assert.deepEqual(workspace.pendingOperations(), []);
        const clean = await workspace.succeed("up", [A, B]);
        assert.ok(!clean.diagnostics.some((line) => line.startsWith("warning: Attempting")));
        assert.deepEqual(workspace.values(), { a: "1", b: "2" });
    });

    it("runs as a command with a JSON summary and exit code 7 for unexpected changes", () => {
        const engine = (command: string, ...flags: string[]) =>
            spawnSync(
                "npm",
                [
                    ...["run", "--silent", "engine", "--", command, "--cwd", FIXTURE, "--stack", STACK],
                    ...["--state", workspace.stateFile],
                    ...["--config", `storeFile=${workspace.storeFile}`, "--config", `items=${JSON.stringify([A])}`],
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
        assert.ok(!fs.existsSync(workspace.stateFile));

        const refresh = engine("refresh", "--preview-only", "--yes", "--expect-no-changes");
        assert.equal(refresh.status, 0, refresh.stderr);
        assert.ok(!fs.existsSync(workspace.stateFile));
        assert.equal(engine("up", "--preview-only").status, 2);
        assert.equal(engine("up", "--clear-pending-creates").status, 2);
        const odd = engine("refresh", "--import-pending-creates", "urn:pulumi:test::engine-fixture::x::y");
        assert.equal(odd.status, 2);
        assert.match(odd.stderr, /each URN must be followed by an ID: found an odd number of entries/);
        assert.throws(() => execFileSync("npm", ["run", "--silent", "engine", "--", "apply"], { stdio: "pipe" }));
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
