// Pulumi.yaml, Pulumi.<stack>.yaml and the configuration given on the command line.
import * as fs from "fs";
import * as path from "path";

import type { PulumiSdk } from "./sdk";

export interface Project {
    dir: string;
    name: string;
    /** The program entry point, relative to dir ("." for the package's own). */
    main: string;
    typescript: boolean;
    tsconfig?: string;
    nodeArgs: string[];
    /** runtime.options as written; the CLI passes them to provider plugins too. */
    runtimeOptions: Record<string, unknown>;
    /** The project file's `config:` block: declared keys, some with a value or a default. */
    config: Record<string, unknown>;
}

/** The stack configuration: values by namespaced key ("ns:key"), and which of them are secret. */
export interface StackConfig {
    values: Record<string, string>;
    secretKeys: string[];
}

interface RuntimeOptions {
    typescript?: boolean;
    tsconfig?: string;
    nodeargs?: string;
}

interface ProjectFile {
    name?: string;
    main?: string;
    runtime?: string | { name?: string; options?: RuntimeOptions };
    /** A string here is the old spelling of stackConfigDir. */
    config?: Record<string, unknown> | string;
}

type Yaml = { load(text: string): unknown };

function readYaml(sdk: PulumiSdk, file: string): unknown {
    return sdk.requireDependency<Yaml>("js-yaml").load(fs.readFileSync(file, "utf8"));
}

export function loadProject(sdk: PulumiSdk, dir: string): Project {
    const file = path.join(dir, "Pulumi.yaml");
    if (!fs.existsSync(file)) throw new Error(`no Pulumi.yaml in ${dir}`);
    const project = (readYaml(sdk, file) ?? {}) as ProjectFile;
    if (!project.name) throw new Error(`${file}: missing "name"`);
    const runtime = typeof project.runtime === "string" ? { name: project.runtime } : (project.runtime ?? {});
    if (runtime.name !== "nodejs") {
        throw new Error(`${file}: runtime "${runtime.name}" is unsupported by the test engine (only nodejs)`);
    }
    const options = runtime.options ?? {};
    return {
        dir,
        name: project.name,
        main: project.main ?? ".",
        typescript: options.typescript ?? true,
        tsconfig: options.tsconfig,
        nodeArgs: options.nodeargs ? options.nodeargs.split(/\s+/).filter(Boolean) : [],
        runtimeOptions: { ...options },
        config: typeof project.config === "object" && project.config !== null ? project.config : {},
    };
}

/** "key" belongs to the project; "ns:config:key" is the older spelling of "ns:key". */
export function namespacedKey(project: string, key: string): string {
    const colon = key.indexOf(":");
    if (colon < 0) return `${project}:${key}`;
    const namespace = key.slice(0, colon);
    const rest = key.slice(colon + 1);
    return `${namespace}:${rest.startsWith("config:") ? rest.slice("config:".length) : rest}`;
}

/** A configuration value as the program and the providers get it: strings as they are, the rest as JSON. */
function configValue(value: unknown): string {
    return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The project's own values for keys the stack does not set (pkg/workspace/config.go, mergeConfig):
 * a declared key's `default`, else its `value`; a plain value is shorthand for either.
 */
function projectConfig(project: Project): Record<string, string> {
    const values: Record<string, string> = {};
    for (const [key, entry] of Object.entries(project.config)) {
        const value = isDeclaration(entry) ? (entry.default ?? entry.value) : entry;
        if (value !== undefined && value !== null) values[namespacedKey(project.name, key)] = configValue(value);
    }
    return values;
}

/** A map under a key of the `config:` block declares it (type, default, value, ...). */
function isDeclaration(entry: unknown): entry is { default?: unknown; value?: unknown } {
    return typeof entry === "object" && entry !== null && !Array.isArray(entry);
}

/** The project file's values, then Pulumi.<stack>.yaml, then the command line (plain values, then secrets). */
export function loadStackConfig(
    sdk: PulumiSdk,
    project: Project,
    stack: string,
    plain: Record<string, string>,
    secrets: Record<string, string>,
): StackConfig {
    const values = projectConfig(project);
    const secretKeys = new Set<string>();
    const stackFile = path.join(project.dir, `Pulumi.${stack}.yaml`);
    if (fs.existsSync(stackFile)) {
        const config = ((readYaml(sdk, stackFile) ?? {}) as { config?: Record<string, unknown> }).config ?? {};
        for (const [key, value] of Object.entries(config)) {
            if (typeof value === "object" && value !== null && "secure" in value) {
                throw new Error(`${stackFile}: encrypted value for ${key} is unsupported by the test engine; pass it with --secret`);
            }
            values[namespacedKey(project.name, key)] = configValue(value);
        }
    }
    for (const [key, value] of Object.entries(plain)) values[namespacedKey(project.name, key)] = value;
    for (const [key, value] of Object.entries(secrets)) {
        const fullKey = namespacedKey(project.name, key);
        values[fullKey] = value;
        secretKeys.add(fullKey);
    }
    return { values, secretKeys: [...secretKeys] };
}

/** The environment a program reads its configuration from. */
export function configEnvironment(config: StackConfig): Record<string, string> {
    const withConfigSegment = Object.fromEntries(
        Object.entries(config.values).map(([key, value]) => {
            const colon = key.indexOf(":");
            return [`${key.slice(0, colon)}:config:${key.slice(colon + 1)}`, value];
        }),
    );
    return {
        PULUMI_CONFIG: JSON.stringify(withConfigSegment),
        PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(config.secretKeys),
    };
}
