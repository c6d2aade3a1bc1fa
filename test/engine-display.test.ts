// The engine's display of changes, against what the CLI prints (pkg/backend/display: rows.go
// getDiffInfo for "[diff: ...]", diff.go/object_diff.go for --diff), without the emulator.
import assert from "node:assert/strict";

import { diffBlock, shortDiff } from "../engine/display";
import { makeSecret, PropertyMap } from "../engine/properties";
import type { ResourceState } from "../engine/state";

const URN = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/crm:Account::acme";
const state = (inputs: PropertyMap, outputs: PropertyMap = inputs): ResourceState => ({
    urn: URN,
    type: "pulumi-nodejs:dynamic/crm:Account",
    custom: true,
    id: "7",
    parent: "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev",
    inputs,
    outputs,
    dependencies: [],
    provider: "urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::default::b2c1",
});
const block = (old: ResourceState | undefined, next: ResourceState | undefined, op: "create" | "update" | "delete", refresh = false) =>
    diffBlock({ op, urn: URN, type: "pulumi-nodejs:dynamic/crm:Account", old, next, indent: 1, refresh });

describe("test engine: the display of changes", () => {
    it("summarizes changed keys as the CLI's step rows: added, removed, changed, internal keys left out", () => {
        const olds = { __provider: "a", name: "Acme", accountUrl: "https://a", owner: "x" };
        const news = { __provider: "b", name: "Acme Inc", accountUrl: "https://a", tags: ["t"] };
        assert.equal(shortDiff(olds, news), "[diff: +tags-owner~name]");
        assert.equal(shortDiff(olds, { ...olds }), "");
        assert.equal(shortDiff({ a: 1, b: 1 }, { a: 2, b: 2 }), "[diff: ~a,b]");
    });

    it("prints an update as the CLI's --diff: header, pseudo-properties, aligned properties, sames unprefixed", () => {
        const old = state({ __provider: "p", name: "Acme", accountUrl: "https://acme.example" });
        const next = state({ __provider: "p", name: "Acme Inc", accountUrl: "https://acme.example", note: "new" });
        assert.deepEqual(block(old, next, "update"), [
            "    ~ pulumi-nodejs:dynamic/crm:Account: (update)",
            "        [id=7]",
            `        [urn=${URN}]`,
            '        accountUrl: "https://acme.example"',
            '      ~ name      : "Acme" => "Acme Inc"',
            '      + note      : "new"',
        ]);
    });

    it("prints secrets as [secret], changed or not, and never their values", () => {
        const old = state({ apiKey: makeSecret("s3cret-old"), name: "Acme" });
        const next = state({ apiKey: makeSecret("s3cret-new"), name: "Acme" });
        const lines = block(old, next, "update");
        assert.ok(lines.includes("      ~ apiKey: [secret] => [secret]"), lines.join("\n"));
        assert.ok(lines.includes('        name  : "Acme"'), lines.join("\n"));
        assert.doesNotMatch(lines.join("\n"), /s3cret/);
        assert.equal(shortDiff(old.inputs, next.inputs), "[diff: ~apiKey]");
    });

    it("prints nested values element by element, created objects' inputs unprefixed, a refresh's outputs", () => {
        const old = state({ options: ["a", "b"], meta: { x: 1 } });
        const next = state({ options: ["a", "c", "d"], meta: { x: 2 } });
        assert.deepEqual(block(old, next, "update").slice(3), [
            "      ~ meta   : {",
            "          ~ x: 1 => 2",
            "        }",
            "      ~ options: [",
            '            [0]: "a"',
            '          ~ [1]: "b" => "c"',
            '          + [2]: "d"',
            "        ]",
        ]);
        assert.deepEqual(block(undefined, state({ name: "Acme", empty: "" }), "create").slice(2), ['        empty: ""', '        name : "Acme"']);
        const read = state({ name: "Acme" }, { name: "Acme Renamed", id: "7" });
        assert.deepEqual(block(state({ name: "Acme" }, { name: "Acme", id: "7" }), read, "update", true).slice(3), [
            '        id  : "7"',
            '      ~ name: "Acme" => "Acme Renamed"',
        ]);
    });
});
