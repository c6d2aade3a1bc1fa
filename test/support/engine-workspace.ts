// A workspace for the test engine's own tests: a store, a state file and engine runs of the
// fixture program (engine/fixtures/store), whose dynamic provider keeps its objects in a
// JSON file. Each test gets its own; items are declared through stack configuration.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { Command, EngineOptions, EngineResult, runEngine } from "../../engine/engine";
import { PropertyMap, SECRET_SIG, SIG_KEY } from "../../engine/properties";
import type { ItemSpec, Store } from "../../engine/fixtures/store";
import type { PendingOperation, ResourceState } from "../../engine/state";
import { repoRoot, transpiledOnce } from "./packed-program";

/** A fixture program of engine/fixtures, run as JavaScript: the engine's tests are not about TypeScript. */
export const fixtureProgram = (name: "store" | "random" = "store") => transpiledOnce(path.join(repoRoot, "engine", "fixtures", name), `fixtures/${name}`);
export const STACK = "test";
export const ITEM_TYPE = "pulumi-nodejs:dynamic/fixture:Item";
export const DEFAULT_PROVIDER_URN = `urn:pulumi:${STACK}::engine-fixture::pulumi:providers:pulumi-nodejs::default`;

/** What a test varies of an engine run; the rest is the workspace's. */
export type RunOptions = Pick<EngineOptions, "config" | "secrets" | "expectNoChanges" | "previewOnly" | "clearPendingCreates" | "importPendingCreates" | "skipPreview">;

/** A secret as the state file keeps it. */
export const wrapped = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(value) });

/** A store, a state file and the engine runs against them. */
export class Workspace {
    readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-test-"));
    readonly stateFile = path.join(this.dir, "state.json");
    readonly storeFile = path.join(this.dir, "store.json");

    run(command: Command, items: ItemSpec[], options: RunOptions = {}): Promise<EngineResult> {
        return runEngine({
            command,
            cwd: fixtureProgram(),
            stack: STACK,
            stateFile: this.stateFile,
            ...options,
            config: { storeFile: this.storeFile, stateFile: this.stateFile, items: JSON.stringify(items), ...options.config },
        });
    }

    async succeed(command: Command, items: ItemSpec[], options: RunOptions = {}): Promise<EngineResult> {
        const result = await this.run(command, items, options);
        assert.equal(result.exitCode, 0, result.diagnostics.join("\n"));
        return result;
    }

    /**
     * An up whose preview is not what the test is about: the update alone (`up --skip-preview`),
     * one program run instead of two (the tests of the preview run it).
     */
    deploy(items: ItemSpec[], options: RunOptions = {}): Promise<EngineResult> {
        return this.succeed("up", items, { ...options, skipPreview: true });
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

export const itemLine = (symbol: string, name: string) => `${symbol} ${ITEM_TYPE} ${name}`;
export const A: ItemSpec = { name: "a", value: "1", key: "k1" };
export const B: ItemSpec = { name: "b", value: "2", key: "k2", after: "a" };
export const C: ItemSpec = { name: "c", value: "3", key: "k3" };

/** A fresh workspace for each test of the calling describe block, removed after it. */
export function useWorkspace(): () => Workspace {
    let workspace: Workspace;
    beforeEach(() => (workspace = new Workspace()));
    afterEach(() => workspace.remove());
    return () => workspace;
}
