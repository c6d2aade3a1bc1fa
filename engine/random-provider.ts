// The engine's stand-in for the `random` provider plugin (pulumi-resource-random), which these
// machines cannot download: RandomPet, RandomString, RandomId and RandomInteger with the inputs and
// outputs of @pulumi/random, served in process. It follows terraform-provider-random
// (internal/provider/resource_{pet,string,id,integer}.go, internal/random/string.go), as Pulumi's
// bridge presents it (pulumi/pulumi-random, provider/testdata/recorded: Check returns the inputs
// as given; outputs hold every input with the schema's defaults, the results, and `id`):
// - every input forces a replacement; `keepers` as the provider's RequiresReplaceIfValuesNotNull;
// - values are generated on create only and kept in the state: read returns the state, and an
//   update (a keepers change that forces nothing) copies the new inputs onto the old results;
// - the results are not secret (only RandomPassword and RandomBytes mark theirs secret).
// Differences: RandomInteger with a `seed` is deterministic as in the provider, but not the same
// number (the provider draws it from Go's math/rand).
import { createHash, randomBytes, randomInt } from "crypto";

import { adjectives, adverbs, petNames } from "./pet-words";
import { deepEqual, PropertyMap, PropertyValue, revealAll, revealSecrets } from "./properties";
import type { CheckFailure, DiffResult, ExistingObject, ResourceProvider } from "./provider-host";
import { urnType } from "./urn";

export const RANDOM_PACKAGE = "random";

/** The planned inputs, secrets revealed, as generation reads them. */
type Plan = { [key: string]: any };

interface RandomResource {
    /** Every input, with the default the schema plans when it is unset (null: none). */
    inputs: Record<string, PropertyValue>;
    required: string[];
    /** The bridge's `__meta` output, for resources whose Terraform schema version is not 0. */
    meta?: string;
    /** Plan modifiers that tie one input's plan to another's. */
    adjustPlan?: (news: PropertyMap, planned: PropertyMap) => PropertyMap;
    /** The results, `id` among them; throws what the provider reports as an error. */
    generate(plan: Plan): PropertyMap;
}

const pick = (words: readonly string[]) => words[randomInt(words.length)];

/** golang-petname's Generate: adverbs, then an adjective, then a name. */
function petName(words: number, separator: string): string {
    if (words === 1) return pick(petNames);
    const parts = [...Array.from({ length: Math.max(words - 2, 0) }, () => pick(adverbs)), pick(adjectives), pick(petNames)];
    return parts.join(separator);
}

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const NUMERIC = "0123456789";
const SPECIAL = "!@#$%&*()-_=+[]{}<>:?";

const draw = (characters: string, count: number) => Array.from({ length: Math.max(count, 0) }, () => characters[randomInt(characters.length)]);

/** random.CreateString: the minimum of each class first, the rest from the whole set, shuffled. */
function randomText(plan: Plan): string {
    const special = plan.overrideSpecial || SPECIAL;
    const classes: [boolean, string, number][] = [
        [plan.upper, UPPER, plan.minUpper],
        [plan.lower, LOWER, plan.minLower],
        [plan.numeric, NUMERIC, plan.minNumeric],
        [plan.special, special, plan.minSpecial],
    ];
    const characters = classes.filter(([included]) => included).map(([, set]) => set).join("");
    if (!characters) throw new Error("the character set specified is empty");
    const minimums = classes.flatMap(([, set, minimum]) => draw(set, minimum));
    const result = [...minimums, ...draw(characters, plan.length - minimums.length)];
    for (let i = result.length - 1; i > 0; i--) {
        const j = randomInt(i + 1);
        [result[i], result[j]] = [result[j], result[i]];
    }
    return result.join("");
}

/** A number in [min, max]; with a seed, always the same one for that seed. */
function randomInteger({ min, max, seed }: Plan): number {
    if (max < min) {
        throw new Error("The minimum (minVal) value needs to be smaller than or equal to maximum (maxVal) value.");
    }
    const span = max - min + 1;
    if (!seed) return min + randomInt(span);
    return min + Number(BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 12)}`) % BigInt(span));
}

const RESOURCES: Record<string, RandomResource> = {
    "random:index/randomPet:RandomPet": {
        inputs: { keepers: null, length: 2, prefix: null, separator: "-" },
        required: [],
        generate: ({ length, separator, prefix }) => {
            const pet = petName(length, separator).toLowerCase();
            return { id: prefix ? `${prefix}${separator}${pet}` : pet };
        },
    },
    "random:index/randomString:RandomString": {
        inputs: {
            keepers: null,
            length: null,
            special: true,
            upper: true,
            lower: true,
            number: true,
            numeric: true,
            minNumeric: 0,
            minUpper: 0,
            minLower: 0,
            minSpecial: 0,
            overrideSpecial: null,
        },
        required: ["length"],
        meta: JSON.stringify({ schema_version: "2" }),
        // `number` is the deprecated name of `numeric`: one set alone decides both.
        adjustPlan: (news, planned) => {
            const numeric = news.numeric ?? news.number ?? true;
            return { ...planned, number: news.number ?? numeric, numeric: news.numeric ?? numeric };
        },
        generate: (plan) => {
            const result = randomText(plan);
            return { id: result, result };
        },
    },
    "random:index/randomId:RandomId": {
        inputs: { keepers: null, byteLength: null, prefix: null },
        required: ["byteLength"],
        generate: ({ byteLength, prefix = "" }) => {
            const bytes = randomBytes(byteLength);
            const id = bytes.toString("base64url");
            return {
                id,
                b64Url: prefix + id,
                b64Std: prefix + bytes.toString("base64"),
                hex: prefix + bytes.toString("hex"),
                dec: prefix + BigInt(`0x${bytes.toString("hex") || "0"}`).toString(),
            };
        },
    },
    "random:index/randomInteger:RandomInteger": {
        inputs: { keepers: null, min: null, max: null, seed: null },
        required: ["min", "max"],
        generate: (plan) => {
            const result = randomInteger(plan);
            return { id: String(result), result };
        },
    },
};

const isSet = (value: PropertyValue | undefined): value is PropertyValue => value !== undefined && value !== null;

/** What the schema plans from the inputs: each input as given (secrets kept), else its default; unset ones left out. */
function plan(resource: RandomResource, news: PropertyMap): PropertyMap {
    const planned = Object.fromEntries(
        Object.entries(resource.inputs)
            .map(([key, fallback]): [string, PropertyValue] => [key, isSet(news[key]) ? news[key] : fallback])
            .filter(([, value]) => isSet(value)),
    );
    return resource.adjustPlan ? resource.adjustPlan(revealAll(news), planned) : planned;
}

/** A value as compared: secrets revealed, unset as null. */
const asValue = (value: PropertyValue | undefined): PropertyValue => (isSet(value) ? revealSecrets(value) : null);
/** Keepers as a map; unset, or unknown in a preview, they are none (the plan modifier sees no elements). */
function asMap(value: PropertyValue | undefined): PropertyMap | undefined {
    const revealed = asValue(value);
    return revealed !== null && typeof revealed === "object" && !Array.isArray(revealed) ? revealed : undefined;
}

/**
 * The provider's RequiresReplaceIfValuesNotNull (internal/planmodifiers/map): keepers force a
 * replacement when a value changes, a key goes, or a key comes with a value that is not null.
 */
function keepersForceReplacement(state: PropertyValue | undefined, config: PropertyValue | undefined): boolean {
    const old = asMap(state);
    const next = asMap(config) ?? {};
    if (!old) return Object.values(next).some(isSet);
    const changed = Object.entries(next).some(([key, value]) => (key in old ? !deepEqual(value, old[key]) : isSet(value)));
    return changed || Object.keys(old).some((key) => !(key in next));
}

/** The random provider's resources, served by the engine itself. */
export class RandomProvider implements ResourceProvider {
    async check(urn: string, _olds: PropertyMap, news: PropertyMap): Promise<{ inputs: PropertyMap; failures: CheckFailure[] }> {
        const missing = this.resource(urn).required.filter((key) => !isSet(news[key]));
        return { inputs: news, failures: missing.map((property) => ({ property, reason: `Missing required property '${property}'` })) };
    }

    /** As Terraform plans against the state (the old outputs). */
    async diff(old: ExistingObject, news: PropertyMap): Promise<DiffResult> {
        const resource = this.resource(old.urn);
        const planned = plan(resource, news);
        const differs = (key: string) => !deepEqual(asValue(old.outputs[key]), asValue(planned[key]));
        const replaces = Object.keys(resource.inputs).filter((key) =>
            key === "keepers" ? keepersForceReplacement(old.outputs.keepers, planned.keepers) : differs(key),
        );
        const changed = replaces.length > 0 || differs("keepers");
        return { changes: changed ? "some" : "none", replaces, deleteBeforeReplace: false };
    }

    async create(urn: string, news: PropertyMap): Promise<{ id: string; outputs: PropertyMap }> {
        const resource = this.resource(urn);
        const planned = plan(resource, news);
        const results = resource.generate(revealAll(planned));
        const outputs = { ...planned, ...results, ...(resource.meta ? { __meta: resource.meta } : {}) };
        return { id: String(results.id), outputs };
    }

    /** Nothing lives outside the state: it is what is read. */
    async read(old: ExistingObject): Promise<{ id: string; outputs: PropertyMap; inputs: PropertyMap }> {
        return { id: old.id, outputs: old.outputs, inputs: old.inputs };
    }

    /** Copies the new plan onto the old results (only keepers can change without a replacement). */
    async update(old: ExistingObject, news: PropertyMap): Promise<PropertyMap> {
        const resource = this.resource(old.urn);
        const results = Object.fromEntries(Object.entries(old.outputs).filter(([key]) => !(key in resource.inputs)));
        return { ...plan(resource, news), ...results };
    }

    async delete(): Promise<void> {}

    private resource(urn: string): RandomResource {
        const type = urnType(urn);
        const resource = RESOURCES[type];
        if (!resource) {
            throw new Error(`${type} is unsupported by the test engine's random stand-in (it serves ${Object.keys(RESOURCES).join(", ")})`);
        }
        return resource;
    }
}
