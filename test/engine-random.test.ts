// The engine's stand-in for the random provider plugin, against a real program using @pulumi/random
// (engine/fixtures/random): the outputs the provider gives, keepers forcing replacements, values
// kept in the state, and the plan modifiers of its diff.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { Command, EngineResult, runEngine } from "../engine/engine";
import { fromCheckpoint, makeSecret, PropertyMap, SECRET_SIG, SIG_KEY, UNKNOWN } from "../engine/properties";
import { RandomProvider } from "../engine/random-provider";
import type { ResourceState } from "../engine/state";
import { fixtureProgram } from "./support/engine-workspace";

const STACK = "test";
const PROJECT = "engine-random-fixture";
const RANDOM_VERSION = (require("@pulumi/random/package.json") as { version: string }).version;
const DEFAULT_PROVIDER_URN = `urn:pulumi:${STACK}::${PROJECT}::pulumi:providers:random::default_${RANDOM_VERSION.replace(/\./g, "_")}`;
const STAND_IN_NOTICE = `info: random ${RANDOM_VERSION}: served by the test engine's stand-in for the random provider plugin`;

type Kind = "RandomPet" | "RandomString" | "RandomId" | "RandomInteger";

class Workspace {
    readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-random-"));
    readonly stateFile = path.join(this.dir, "state.json");

    /** `skipPreview`: for an up that sets the stage, or whose preview is not what the test is about (`up --skip-preview`). */
    async run(
        command: Command,
        config: Record<string, string>,
        options: { secrets?: Record<string, string>; drift?: boolean; skipPreview?: boolean } = {},
    ): Promise<EngineResult> {
        const result = await runEngine({
            command,
            cwd: fixtureProgram("random"),
            stack: STACK,
            stateFile: this.stateFile,
            config,
            secrets: options.secrets,
            ...(options.drift ? { previewOnly: true, expectNoChanges: true } : {}),
            skipPreview: options.skipPreview,
        });
        assert.equal(result.exitCode, 0, [...result.lines, ...result.diagnostics].join("\n"));
        return result;
    }

    resources(): ResourceState[] {
        return (JSON.parse(fs.readFileSync(this.stateFile, "utf8")) as { resources: ResourceState[] }).resources;
    }

    /** A random resource as the state file keeps it (secrets in checkpoint form). */
    resource(kind: Kind): ResourceState {
        const found = this.resources().find((r) => r.type.endsWith(`:${kind}`) && !r.delete);
        assert.ok(found, `no ${kind} in the state`);
        return found;
    }

    outputs(kind: Kind): PropertyMap {
        return fromCheckpoint(this.resource(kind).outputs) as PropertyMap;
    }

    remove(): void {
        fs.rmSync(this.dir, { recursive: true, force: true });
    }
}

const KINDS: Kind[] = ["RandomPet", "RandomString", "RandomId", "RandomInteger"];

describe("test engine: the random provider's stand-in", function () {
    this.timeout(120_000);
    let workspace: Workspace;
    beforeEach(() => (workspace = new Workspace()));
    afterEach(() => workspace.remove());

    it("serves the four resources on a versioned default provider, says so, and gives the provider's outputs", async () => {
        const up = await workspace.run("up", { generation: "1" });
        assert.deepEqual(up.steps, { create: 5, update: 0, replace: 0, delete: 0, same: 0 });
        assert.ok(up.diagnostics.includes(STAND_IN_NOTICE), up.diagnostics.join("\n"));

        const provider = workspace.resources().find((r) => r.urn === DEFAULT_PROVIDER_URN);
        assert.ok(provider, "no versioned default provider for random");
        assert.deepEqual(provider.inputs, { version: RANDOM_VERSION });
        for (const kind of KINDS) assert.equal(workspace.resource(kind).provider, `${DEFAULT_PROVIDER_URN}::${provider.id}`);

        const keepers = { generation: "1" };
        const pet = workspace.outputs("RandomPet");
        assert.deepEqual(pet, { id: pet.id, keepers, length: 2, separator: "-" });
        assert.match(String(pet.id), /^[a-z]+-[a-z]+$/);
        assert.equal(workspace.resource("RandomPet").id, pet.id);

        const text = workspace.outputs("RandomString");
        assert.deepEqual(text, {
            __meta: '{"schema_version":"2"}',
            id: text.result,
            keepers,
            length: 12,
            lower: true,
            minLower: 0,
            minNumeric: 0,
            minSpecial: 0,
            minUpper: 2,
            number: true,
            numeric: true,
            result: text.result,
            special: false,
            upper: true,
        });
        assert.match(String(text.result), /^[A-Za-z0-9]{12}$/);
        assert.ok(String(text.result).replace(/[^A-Z]/g, "").length >= 2, "minUpper");

        const id = workspace.outputs("RandomId");
        const bytes = Buffer.from(String(workspace.resource("RandomId").id), "base64url");
        assert.equal(bytes.length, 8);
        assert.deepEqual(id, {
            id: bytes.toString("base64url"),
            keepers,
            byteLength: 8,
            prefix: "x-",
            b64Url: `x-${bytes.toString("base64url")}`,
            b64Std: `x-${bytes.toString("base64")}`,
            hex: `x-${bytes.toString("hex")}`,
            dec: `x-${BigInt(`0x${bytes.toString("hex")}`).toString()}`,
        });

        const integer = workspace.outputs("RandomInteger");
        assert.deepEqual(integer, { id: String(integer.result), keepers, min: 1, max: 1000, result: integer.result });
        assert.ok(Number(integer.result) >= 1 && Number(integer.result) <= 1000);
    });

    it("keeps the values: a second up is all same, a drift check finds nothing, destroy empties the state", async () => {
        await workspace.run("up", { generation: "1" }, { skipPreview: true });
        const first = KINDS.map((kind) => workspace.outputs(kind));
        const again = await workspace.run("up", { generation: "1" });
        assert.deepEqual(again.steps, { create: 0, update: 0, replace: 0, delete: 0, same: 5 });
        assert.deepEqual(KINDS.map((kind) => workspace.outputs(kind)), first);
        const drift = await workspace.run("refresh", { generation: "1" }, { drift: true });
        assert.equal(drift.changes, false);
        await workspace.run("destroy", { generation: "1" });
        assert.deepEqual(workspace.resources(), []);
    });

    it("a keepers change replaces every resource, create before delete, with new values", async () => {
        await workspace.run("up", { generation: "1" }, { skipPreview: true });
        const before = Object.fromEntries(KINDS.map((kind) => [kind, workspace.resource(kind)]));
        const next = await workspace.run("up", { generation: "2" });
        assert.deepEqual(next.steps, { create: 0, update: 0, replace: 4, delete: 0, same: 1 });
        assert.equal(workspace.resources().filter((r) => r.delete).length, 0, "the replaced objects are gone from the state");
        for (const kind of KINDS) assert.deepEqual(workspace.outputs(kind).keepers, { generation: "2" });
        // 62^12 strings and 2^64 ids: a repeat would be a broken generator.
        assert.notEqual(workspace.resource("RandomString").id, before.RandomString.id);
        assert.notEqual(workspace.resource("RandomId").id, before.RandomId.id);
    });

    it("a seed gives the same integer every time, as the provider's seeded generator does", async () => {
        const other = new Workspace();
        try {
            // Values are generated on create, which a preview does not call.
            await workspace.run("up", { generation: "1", seed: "review" }, { skipPreview: true });
            await other.run("up", { generation: "1", seed: "review" }, { skipPreview: true });
            assert.equal(workspace.outputs("RandomInteger").result, other.outputs("RandomInteger").result);
            assert.equal(workspace.outputs("RandomInteger").seed, "review");
        } finally {
            other.remove();
        }
    });

    it("keeps RandomString.result plain, as the provider does, and a secret keeper secret", async () => {
        await workspace.run("up", { generation: "1" }, { secrets: { token: "s3cret" }, skipPreview: true });
        const outputs = workspace.resource("RandomString").outputs;
        assert.equal(typeof outputs.result, "string");
        assert.deepEqual((outputs.keepers as PropertyMap).token, { [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify("s3cret") });
        assert.equal((outputs.keepers as PropertyMap).generation, "1");
    });
});

describe("test engine: the random stand-in's diff", () => {
    const provider = new RandomProvider();
    const urn = `urn:pulumi:${STACK}::${PROJECT}::random:index/randomPet:RandomPet::pet`;
    const pet = (keepers?: PropertyMap, extra: PropertyMap = {}) => ({
        urn,
        id: "able-ant",
        inputs: {},
        outputs: { id: "able-ant", length: 2, separator: "-", ...(keepers ? { keepers } : {}), ...extra },
    });

    it("sees no change where the schema's defaults are what the state holds", async () => {
        assert.deepEqual(await provider.diff(pet(), { separator: "-" }), { changes: "none", replaces: [], deleteBeforeReplace: false });
        assert.deepEqual((await provider.diff(pet({ a: "1" }), { keepers: { a: makeSecret("1") } })).changes, "none");
    });

    it("replaces on any input, and on keepers as RequiresReplaceIfValuesNotNull decides", async () => {
        assert.deepEqual((await provider.diff(pet(), { length: 3 })).replaces, ["length"]);
        assert.deepEqual((await provider.diff(pet(), { prefix: "pr" })).replaces, ["prefix"]);
        assert.deepEqual((await provider.diff(pet({ a: "1" }), { keepers: { a: "2" } })).replaces, ["keepers"]);
        assert.deepEqual((await provider.diff(pet({ a: "1" }), {})).replaces, ["keepers"]);
        assert.deepEqual((await provider.diff(pet(), { keepers: { a: "1" } })).replaces, ["keepers"]);
        // Keys that come with null values force nothing: an update copies them into the state.
        const nulls = await provider.diff(pet({ a: "1" }), { keepers: { a: "1", b: null } });
        assert.deepEqual(nulls, { changes: "some", replaces: [], deleteBeforeReplace: false });
        assert.deepEqual(await provider.update(pet({ a: "1" }), { keepers: { a: "1", b: null } }), {
            id: "able-ant",
            length: 2,
            separator: "-",
            keepers: { a: "1", b: null },
        });
    });

    it("keepers unknown in a preview replace what had keepers, as the plan modifier sees no elements", async () => {
        assert.deepEqual((await provider.diff(pet({ a: "1" }), { keepers: UNKNOWN })).replaces, ["keepers"]);
        assert.deepEqual(await provider.diff(pet(), { keepers: UNKNOWN }), { changes: "some", replaces: [], deleteBeforeReplace: false });
    });

    it("refuses the random resources it does not serve, by name", async () => {
        await assert.rejects(
            provider.check(`urn:pulumi:${STACK}::${PROJECT}::random:index/randomUuid:RandomUuid::u`, {}, {}),
            /random:index\/randomUuid:RandomUuid is unsupported by the test engine's random stand-in/,
        );
    });
});
