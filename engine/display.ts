// How the CLI shows a step's changes (pulumi/pulumi pkg/backend/display): the short summary of
// changed keys on a step line ("[diff: +added-removed~changed]", rows.go getDiffInfo) and, with
// --diff, the property-level block under each step (diff.go renderDiff, object_diff.go).
// Colours are left out, as the CLI leaves them out when its output is not a terminal.
import { PropertyMap, PropertyValue, SECRET_SIG, SIG_KEY, UNKNOWN, deepEqual } from "./properties";
import type { ResourceState } from "./state";
import { urnName } from "./urn";

/** The CLI's step ops as the display names them, and their two-character prefixes (deploy.RawPrefix). */
export type DisplayOp = "create" | "update" | "replace" | "delete" | "same" | "refresh";
const RAW_PREFIX: Record<DisplayOp, string> = { create: "+ ", update: "~ ", replace: "+-", delete: "- ", same: "  ", refresh: "~ " };

/** Keys the engine and SDK keep for themselves ("__provider", ...): never shown (resource.IsInternalPropertyKey). */
const isInternalKey = (key: string) => key.startsWith("__");

type Kind = "add" | "delete" | "update" | "same";

const isSecret = (v: PropertyValue): boolean => typeof v === "object" && v !== null && !Array.isArray(v) && v[SIG_KEY] === SECRET_SIG;
const isPlainObject = (v: PropertyValue): v is PropertyMap => typeof v === "object" && v !== null && !Array.isArray(v) && !(SIG_KEY in v);
/** Null and absent are the same to the CLI's PropertyMap.Diff. */
const present = (m: PropertyMap, key: string) => m[key] !== undefined && m[key] !== null;

/** The top-level keys that differ, by kind, internal keys left out (PropertyMap.DiffWithOptions). */
function keyKinds(olds: PropertyMap, news: PropertyMap): Map<string, Kind> {
    const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((key) => !isInternalKey(key)).sort();
    const kinds = new Map<string, Kind>();
    for (const key of keys) {
        if (!present(olds, key) && !present(news, key)) continue;
        if (!present(olds, key)) kinds.set(key, "add");
        else if (!present(news, key)) kinds.set(key, "delete");
        else kinds.set(key, deepEqual(olds[key], news[key]) ? "same" : "update");
    }
    return kinds;
}

/** "[diff: +a-b~c,d]" for the keys added, removed and changed between old and new inputs; "" when none. */
export function shortDiff(olds: PropertyMap, news: PropertyMap): string {
    const kinds = [...keyKinds(olds, news)];
    const of = (kind: Kind) => kinds.filter(([, k]) => k === kind).map(([key]) => key);
    const parts = [["+", of("add")], ["-", of("delete")], ["~", of("update")]] as const;
    const text = parts.filter(([, keys]) => keys.length > 0).map(([sign, keys]) => sign + keys.join(",")).join("");
    return text ? `[diff: ${text}]` : "";
}

/** Writes indented lines as the CLI's propertyPrinter: a prefix replaces the last two spaces of the indentation. */
class Printer {
    constructor(
        private readonly out: string[],
        readonly indent: number,
        private readonly sign: string,
        private readonly prefixed: boolean,
    ) {}

    with(change: { indent?: number; sign?: string; prefixed?: boolean }): Printer {
        return new Printer(this.out, change.indent ?? this.indent, change.sign ?? this.sign, change.prefixed ?? this.prefixed);
    }

    private indentation(prefixed: boolean): string {
        const spaces = "    ".repeat(this.indent);
        return prefixed && spaces ? spaces.slice(0, -2) + this.sign : spaces;
    }

    /** Starts a line (indented, prefixed if this printer is). */
    start(text: string): void {
        this.out.push(this.indentation(this.prefixed) + text);
    }

    /** Starts a line that is never prefixed (closing brackets). */
    startUnprefixed(text: string): void {
        this.out.push(this.indentation(false) + text);
    }

    /** Continues the current line. */
    write(text: string): void {
        this.out[this.out.length - 1] += text;
    }

    title(key: string, align: number): void {
        this.start(`${key.padEnd(align)}: `);
    }

    /** A value after its title, to the end of its last line (printPropertyValue). */
    value(v: PropertyValue): void {
        if (Array.isArray(v)) {
            if (v.length === 0) return this.write("[]");
            this.write("[");
            v.forEach((element, index) => {
                this.start(`    [${index}]: `);
                this.with({ indent: this.indent + 1 }).value(element);
            });
            this.startUnprefixed("]");
        } else if (isPlainObject(v) && Object.keys(v).length > 0) {
            this.write("{");
            this.with({ indent: this.indent + 1 }).object(v);
            this.startUnprefixed("}");
        } else {
            this.write(primitive(v));
        }
    }

    /** Every property but internal ones, aligned on the longest key (internal ones count, as in printObject). */
    object(props: PropertyMap): void {
        const keys = Object.keys(props).sort();
        const align = Math.max(0, ...keys.map((key) => key.length));
        for (const key of keys) {
            if (isInternalKey(key)) continue;
            this.title(key, align);
            this.value(props[key]);
        }
    }

    /** printObjectDiff: additions "+", removals "-", changes "~"; unchanged properties unprefixed. */
    objectDiff(olds: PropertyMap, news: PropertyMap): void {
        const kinds = keyKinds(olds, news);
        const align = Math.max(0, ...[...kinds.keys()].map((key) => key.length));
        for (const [key, kind] of kinds) this.propertyDiff(key, align, kind, olds[key], news[key]);
    }

    private propertyDiff(key: string, align: number, kind: Kind, old: PropertyValue, next: PropertyValue): void {
        const title = (p: Printer) => p.title(key, align);
        if (kind === "add") this.added(next, title);
        else if (kind === "delete") this.removed(old, title);
        else if (kind === "update") this.valueDiff(old, next, title);
        else if (shown(old)) this.with({ sign: RAW_PREFIX.same, prefixed: false }).titled(old, title);
    }

    private titled(v: PropertyValue, title: (p: Printer) => void): void {
        title(this);
        this.value(v);
    }

    private added(v: PropertyValue, title: (p: Printer) => void): void {
        this.with({ sign: RAW_PREFIX.create, prefixed: true }).titled(v, title);
    }

    private removed(v: PropertyValue, title: (p: Printer) => void): void {
        this.with({ sign: RAW_PREFIX.delete, prefixed: true }).titled(v, title);
    }

    /** printPropertyValueDiff: arrays element by element, objects key by key, else old => new. */
    private valueDiff(old: PropertyValue, next: PropertyValue, title: (p: Printer) => void): void {
        const p = this.with({ sign: RAW_PREFIX.update, prefixed: true });
        if (Array.isArray(old) && Array.isArray(next)) {
            title(p);
            p.write("[");
            const elements = p.with({ indent: p.indent + 2 });
            for (let index = 0; index < Math.max(old.length, next.length); index++) {
                const elementTitle = (e: Printer) => e.with({ indent: e.indent - 1 }).start(`[${index}]: `);
                if (index >= old.length) elements.added(next[index], elementTitle);
                else if (index >= next.length) elements.removed(old[index], elementTitle);
                else if (!deepEqual(old[index], next[index])) elements.valueDiff(old[index], next[index], elementTitle);
                else elements.with({ sign: RAW_PREFIX.same, prefixed: false }).titled(old[index], elementTitle);
            }
            p.startUnprefixed("]");
        } else if (isPlainObject(old) && isPlainObject(next)) {
            title(p);
            p.write("{");
            p.with({ indent: p.indent + 1 }).objectDiff(old, next);
            p.startUnprefixed("}");
        } else if (isPrimitive(old) && isPrimitive(next) && shown(old) && shown(next)) {
            title(p);
            p.write(`${primitive(old)} => ${primitive(next)}`);
        } else {
            if (shown(old)) p.removed(old, title);
            if (shown(next)) p.added(next, title);
        }
    }
}

const isPrimitive = (v: PropertyValue) => !Array.isArray(v) && (!isPlainObject(v) || isSecret(v));

/** shouldPrintPropertyValue: nulls, empty strings, arrays and objects are clutter. */
function shown(v: PropertyValue): boolean {
    if (v === null || v === "") return false;
    if (Array.isArray(v)) return v.length > 0;
    return !isPlainObject(v) || Object.keys(v).length > 0;
}

/** printPrimitivePropertyValue: secrets as [secret], unknowns as [unknown], strings quoted. */
function primitive(v: PropertyValue): string {
    if (v === null) return "<null>";
    if (isSecret(v)) return "[secret]";
    if (v === UNKNOWN) return "[unknown]";
    if (typeof v === "string") return JSON.stringify(v);
    if (typeof v === "object") return JSON.stringify(v);
    return String(v);
}

export interface StepDisplay {
    op: DisplayOp;
    urn: string;
    type: string;
    /** The state before the step (none for a create). */
    old?: ResourceState;
    /** The state after it (none for a delete). */
    next?: ResourceState;
    /** How many of its ancestors are shown above it. */
    indent: number;
    /** A refresh's diff is of outputs, from the state to what was read. */
    refresh: boolean;
}

/**
 * The block `--diff` prints for a step (renderDiff): "<type>: (<op>)", the [id=], [urn=] and
 * non-default [provider=] pseudo-properties, then the properties: all of a created or deleted
 * object's inputs, or the diff of old and new (inputs; outputs for a refresh).
 */
export function diffBlock(step: StepDisplay): string[] {
    const out: string[] = [];
    const { op, old, next, indent } = step;
    const protect = old?.protect || next?.protect ? " 🔒" : "";
    out.push(`${"    ".repeat(indent)}${RAW_PREFIX[op]}${step.type}: (${op})${protect}`);
    const pseudo = new Printer(out, indent + 1, RAW_PREFIX.same, false);
    if (old?.id) pseudo.start(`[id=${old.id}]`);
    pseudo.start(`[urn=${step.urn}]`);
    const provider = (next ?? old)?.provider;
    if (provider && urnName(provider.slice(0, provider.lastIndexOf("::"))) !== "default") pseudo.start(`[provider=${provider}]`);
    if (op === "same") return out;
    const properties = new Printer(out, indent + 1, RAW_PREFIX[op], false);
    if (!old && next) properties.object(next.inputs);
    else if (old && !next) {
        if (!step.refresh) properties.object(old.inputs);
    } else if (old && next) {
        const side = (state: ResourceState) => (step.refresh ? state.outputs : state.inputs);
        new Printer(out, indent + 1, RAW_PREFIX.update, true).objectDiff(side(old), side(next));
    }
    return out;
}
