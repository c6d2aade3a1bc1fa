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

/** Pulumi.<stack>.yaml first, then the command line (plain values, then secrets). */
export function loadStackConfig(
    sdk: PulumiSdk,
    project: Project,
    stack: string,
    plain: Record<string, string>,
    secrets: Record<string, string>,
): StackConfig {
    const values: Record<string, string> = {};
    const secretKeys = new Set<string>();
    const stackFile = path.join(project.dir, `Pulumi.${stack}.yaml`);
    if (fs.existsSync(stackFile)) {
        const config = ((readYaml(sdk, stackFile) ?? {}) as { config?: Record<string, unknown> }).config ?? {};
        for (const [key, value] of Object.entries(config)) {
            if (typeof value === "object" && value !== null && "secure" in value) {
                throw new Error(`${stackFile}: encrypted value for ${key} is unsupported by the test engine; pass it with --secret`);
            }
            values[namespacedKey(project.name, key)] = typeof value === "string" ? value : JSON.stringify(value);
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
