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
import type { ResourceState } from "./engine/state";

const FIXTURE = path.join(__dirname, "engine", "fixtures", "store");
const STACK = "test";
const ITEM_TYPE = "pulumi-nodejs:dynamic/fixture:Item";

interface RunOptions {
    config?: Record<string, string>;
    secrets?: Record<string, string>;
    expectNoChanges?: boolean;
}

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
            config: { storeFile: this.storeFile, items: JSON.stringify(items), ...options.config },
            secrets: options.secrets,
            expectNoChanges: options.expectNoChanges,
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

    item(name: string): ResourceState {
        const item = this.resources().find((r) => r.type === ITEM_TYPE && r.urn.endsWith(`::${name}`));
        assert.ok(item, `no item ${name} in the state`);
        return item;
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

    it("refresh drops objects deleted out of band and takes in drift; --expect-no-changes only reads", async () => {
        await workspace.succeed("up", [A, B, C]);
        workspace.editStore((store) => {
            for (const [id, object] of Object.entries(store.objects)) {
                if (object.name === "c") delete store.objects[id];
                if (object.name === "b") object.value = "drifted";
            }
        });
        const before = workspace.stateText();

        const check = await workspace.run("refresh", [], { expectNoChanges: true });
        assert.equal(check.exitCode, CHANGES_NOT_EXPECTED);
        assert.deepEqual(check.steps, { create: 0, update: 1, replace: 0, delete: 1, same: 3 });
        assert.equal(workspace.stateText(), before);

        const refreshed = await workspace.succeed("refresh", []);
        assert.ok(refreshed.lines.includes(itemLine("-", "c")) && refreshed.lines.includes(itemLine("~", "b")));
        assert.equal(workspace.item("b").outputs.value, "drifted");
        assert.equal(workspace.item("b").inputs.value, "drifted");
        assert.ok(!workspace.resources().some((r) => r.urn.endsWith("::c")));

        const clean = await workspace.run("refresh", [], { expectNoChanges: true });
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
        const wrapped = { [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify("s3cret") };
        assert.deepEqual(b.inputs.token, wrapped);
        // The provider answered in plain text; the output is secret because its input was.
        assert.deepEqual(b.outputs.token, wrapped);
        assert.equal(Object.values(workspace.store().objects).find((o) => o.name === "b")?.token, "s3cret");
        assert.equal(workspace.stateText().split("s3cret").length - 1, 2, "only the two wrapped copies");

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
        const provider = workspace.resources().find((r) => r.type === "pulumi:providers:pulumi-nodejs");
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

    it("runs as a command with a JSON summary and exit code 7 for unexpected changes", () => {
        const args = ["run", "--silent", "engine", "--", "preview", "--cwd", FIXTURE, "--stack", STACK];
        const config = ["--config", `storeFile=${workspace.storeFile}`, "--config", `items=${JSON.stringify([A])}`];
        const run = spawnSync("npm", [...args, "--state", workspace.stateFile, ...config, "--expect-no-changes", "--json"], {
            cwd: path.join(__dirname, ".."),
            encoding: "utf8",
        });
        assert.equal(run.status, CHANGES_NOT_EXPECTED, run.stderr);
        const lines = run.stdout.trim().split("\n");
        assert.deepEqual(JSON.parse(lines[lines.length - 1]), {
            steps: { create: 3, update: 0, replace: 0, delete: 0, same: 0 },
            changes: true,
        });
        assert.ok(lines.includes(itemLine("+", "a")));
        assert.ok(!fs.existsSync(workspace.stateFile));
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
