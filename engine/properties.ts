// Property values as they travel over gRPC (google.protobuf.Struct as plain JSON), with Pulumi's
// special objects: a secret is {[SIG_KEY]: SECRET_SIG, value}; an unknown (preview only) is the
// string "04da6b54-80e4-46f7-96ec-b56ff0331ba9", passed along as it is. The engine keeps this
// form in memory and converts to the checkpoint form only when it reads or writes the state file.

export type PropertyValue = null | boolean | number | string | PropertyValue[] | { [key: string]: PropertyValue };
export type PropertyMap = { [key: string]: PropertyValue };

export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

type SecretValue = { [SIG_KEY]: typeof SECRET_SIG; value: PropertyValue };

function isObject(v: PropertyValue): v is PropertyMap {
    return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A plain object, not one of Pulumi's signature objects (secret, asset, archive, ...). */
function isPlainObject(v: PropertyValue): v is PropertyMap {
    return isObject(v) && !(SIG_KEY in v);
}

function isSecret(v: PropertyValue): v is SecretValue {
    return isObject(v) && v[SIG_KEY] === SECRET_SIG;
}

export function makeSecret(v: PropertyValue): PropertyValue {
    return isSecret(v) ? v : { [SIG_KEY]: SECRET_SIG, value: v };
}

function mapValues(m: PropertyMap, f: (v: PropertyValue) => PropertyValue): PropertyMap {
    return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, f(v)]));
}

/** Removes every secret marker: what a provider that does not accept secrets is sent. */
export function revealSecrets(v: PropertyValue): PropertyValue {
    if (isSecret(v)) return revealSecrets(v.value);
    if (Array.isArray(v)) return v.map(revealSecrets);
    if (isObject(v)) return mapValues(v, revealSecrets);
    return v;
}

export function revealAll(m: PropertyMap): PropertyMap {
    return mapValues(m, revealSecrets);
}

export function containsSecrets(v: PropertyValue): boolean {
    if (isSecret(v)) return true;
    if (Array.isArray(v)) return v.some(containsSecrets);
    if (isObject(v)) return Object.values(v).some(containsSecrets);
    return false;
}

/**
 * Copies secretness from the inputs a provider was sent (revealed) onto what it answered, as the
 * engine does for providers that do not accept secrets: a key whose input held a secret is secret
 * in the answer; plain objects on both sides are followed key by key.
 */
export function annotateSecrets(outs: PropertyMap, ins: PropertyMap): PropertyMap {
    const result: PropertyMap = { ...outs };
    for (const [key, inValue] of Object.entries(ins)) {
        if (!(key in result)) continue;
        const outValue = result[key];
        if (isPlainObject(outValue) && isPlainObject(inValue)) {
            result[key] = annotateSecrets(outValue, inValue);
        } else if (!isSecret(outValue) && containsSecrets(inValue)) {
            result[key] = makeSecret(outValue);
        }
    }
    return result;
}

/**
 * As the engine marks the outputs of every step (create, update, same, refresh): the keys listed in
 * additionalSecretOutputs, and every key whose input is a secret.
 */
export function markSecretOutputs(outputs: PropertyMap, inputs: PropertyMap, additional: readonly string[]): PropertyMap {
    return Object.fromEntries(
        Object.entries(outputs).map(([key, value]) => [
            key,
            additional.includes(key) || (key in inputs && isSecret(inputs[key])) ? makeSecret(value) : value,
        ]),
    );
}

/** Structural equality; key order does not matter, secretness does. */
export function deepEqual(a: PropertyValue, b: PropertyValue): boolean {
    if (a === b) return true;
    if (Array.isArray(a) || Array.isArray(b)) {
        return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((e, i) => deepEqual(e, b[i]));
    }
    if (isObject(a) && isObject(b)) {
        const keys = Object.keys(a);
        return keys.length === Object.keys(b).length && keys.every((k) => k in b && deepEqual(a[k], b[k]));
    }
    return false;
}

/**
 * The ignoreChanges option: each listed path keeps its old input value (or stays absent when the
 * old inputs lack it). Paths are property names joined by dots; indexes and wildcards are not
 * supported.
 */
export function applyIgnoreChanges(news: PropertyMap, olds: PropertyMap, paths: readonly string[]): PropertyMap {
    let result = news;
    for (const p of paths) {
        if (/[[\]*"]/.test(p)) {
            throw new Error(`ignoreChanges path "${p}" is unsupported by the test engine (only dotted property names)`);
        }
        const keys = p.split(".");
        result = withPath(result, keys, lookup(olds, keys));
    }
    return result;
}

function lookup(m: PropertyMap, keys: string[]): PropertyValue | undefined {
    let current: PropertyValue | undefined = m;
    for (const key of keys) {
        current = current !== undefined && isPlainObject(current) ? current[key] : undefined;
    }
    return current;
}

function withPath(m: PropertyMap, keys: string[], value: PropertyValue | undefined): PropertyMap {
    const [head, ...rest] = keys;
    const result = { ...m };
    if (rest.length === 0) {
        if (value === undefined) delete result[head];
        else result[head] = value;
        return result;
    }
    const child = result[head];
    if (child === undefined && value === undefined) return result;
    result[head] = withPath(child !== undefined && isPlainObject(child) ? child : {}, rest, value);
    return result;
}

// Pulumi's checkpoint form of a secret: the value's JSON text under "plaintext".
type CheckpointSecret = { [SIG_KEY]: typeof SECRET_SIG; plaintext: string };

export function toCheckpoint(v: PropertyValue): PropertyValue {
    if (isSecret(v)) {
        const secret: CheckpointSecret = { [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(toCheckpoint(v.value)) };
        return secret;
    }
    if (Array.isArray(v)) return v.map(toCheckpoint);
    if (isObject(v)) return mapValues(v, toCheckpoint);
    return v;
}

export function fromCheckpoint(v: PropertyValue): PropertyValue {
    if (isObject(v) && v[SIG_KEY] === SECRET_SIG) {
        if (typeof v.plaintext !== "string") {
            throw new Error("state file holds an encrypted secret; only plaintext secrets are supported");
        }
        return makeSecret(fromCheckpoint(JSON.parse(v.plaintext) as PropertyValue));
    }
    if (Array.isArray(v)) return v.map(fromCheckpoint);
    if (isObject(v)) return mapValues(v, fromCheckpoint);
    return v;
}
