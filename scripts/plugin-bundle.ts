// The native plugins as `pulumi plugin install` takes them: for each package, one bundled
// JS file (esbuild: the plugin, the resource modules, @pulumi/pulumi and every other
// dependency in it) and a sh wrapper that runs it on the machine's Node.js, in a tarball
// that `pulumi plugin install resource <pkg> <version> --file <tarball>` installs. One file,
// not a node_modules folder: the CLI refuses a tarball holding node_modules' hard links.
//
//   npm run plugins [-- <output folder>]    (default dist/plugins)
//
// Writes <output>/<pkg>/pulumi-resource-<pkg>{,.js} (a folder Pulumi.yaml's
// plugins.providers can name) and <output>/pulumi-resource-<pkg>-v<version>.tar.gz.

import { chmodSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { sdkModuleNames } from "../provider/plugin/sdk-modules";
import type { PackageName } from "../provider/plugin/server";
import { releaseEpoch, writeReproducibleTarGz } from "./reproducible-archive";

const root = join(__dirname, "..");
const version = (require("../package.json") as { version: string }).version;
export const pluginPackages: readonly PackageName[] = ["crm", "chat"];

/** What sdk-modules.ts resolves from @pulumi/pulumi's folder at run time, resolved from there at build time. */
const sdkModulesFromSdkFolder: Plugin = {
  name: "sdk-modules",
  setup(builder) {
    builder.onLoad({ filter: /[\\/]provider[\\/]plugin[\\/]sdk-modules\.ts$/ }, () => ({
      resolveDir: dirname(require.resolve("@pulumi/pulumi/package.json")),
      loader: "js",
      contents: [
        `exports.sdkModuleNames = ${JSON.stringify(sdkModuleNames)};`,
        ...Object.entries(sdkModuleNames).map(([name, path]) => `exports.${name} = require(${JSON.stringify(path)});`),
      ].join("\n"),
    }));
  },
};

/**
 * The SDK's closure serializer, which only a program's dynamic resources use, loads the
 * TypeScript compiler (or its vendored copy, a file beside the SDK) when its module loads:
 * in the bundle, a stand-in that fails if it is ever used.
 */
const noTypeScript: Plugin = {
  name: "no-typescript",
  setup(builder) {
    builder.onLoad({ filter: /[\\/]@pulumi[\\/]pulumi[\\/]typescript-shim\.js$/ }, () => ({
      loader: "js",
      contents: `module.exports = new Proxy({}, { get(_, name) { throw new Error("the provider plugin serializes no closures (typescript." + String(name) + ")"); } });`,
    }));
  },
};

/**
 * The SDK's index loads its Automation API (`@pulumi/pulumi/automation`: npm's arborist, tar, glob,
 * execa...) when it loads, which a provider plugin never drives: in the bundle, a stand-in that
 * fails if it is ever used: 3 MiB less resident in an idle plugin (97.4 to 94.4 MiB on Node.js 24.21).
 */
const noAutomation: Plugin = {
  name: "no-automation",
  setup(builder) {
    builder.onLoad({ filter: /[\\/]@pulumi[\\/]pulumi[\\/]automation[\\/]index\.js$/ }, () => ({
      loader: "js",
      // __esModule and symbols are what the SDK's index reads of it when it loads.
      contents: `module.exports = new Proxy({}, { get(_, name) { if (name === "__esModule" || typeof name === "symbol") return undefined; throw new Error("the provider plugin drives no Automation API (automation." + String(name) + ")"); } });`,
    }));
  },
};

/**
 * The SDK's runtime loads its code-path finder (npm's arborist, pacote, sigstore, tar...) when it
 * loads, for a program's dynamic resources, which a plugin never serializes: in the bundle, a
 * computeCodePaths that fails if it is ever called.
 */
const noCodePaths: Plugin = {
  name: "no-code-paths",
  setup(builder) {
    builder.onLoad({ filter: /[\\/]@pulumi[\\/]pulumi[\\/]runtime[\\/]closure[\\/]codePaths\.js$/ }, () => ({
      loader: "js",
      contents: `exports.computeCodePaths = () => { throw new Error("the provider plugin computes no code paths: only a program's dynamic resources do"); };`,
    }));
  },
};

export interface BuiltPlugin {
  pkg: PackageName;
  /** The folder holding `pulumi-resource-<pkg>`, for Pulumi.yaml's plugins.providers. */
  folder: string;
  tarball: string;
  bundleBytes: number;
}

/**
 * The plugin of package `pkg` as one JavaScript file at `outfile` (esbuild: the plugin, the
 * resource modules, @pulumi/pulumi and every other dependency in it), which Node.js runs as it
 * is or a single executable holds. Returns its size in bytes.
 */
export async function bundlePlugin(pkg: PackageName, outfile: string): Promise<number> {
  await build({
    entryPoints: [join(root, "provider", "plugin", `${pkg}.ts`)],
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    outfile,
    plugins: [sdkModulesFromSdkFolder, noTypeScript, noAutomation, noCodePaths],
    // Required by the SDK only where a program runs (its TypeScript support, the Automation API's npm).
    external: ["typescript", "ts-node", "node-gyp/*"],
    logLevel: "warning",
    legalComments: "inline",
  });
  return statSync(outfile).size;
}

/**
 * The sh launcher beside a bundle: runs `<executable>.js` on the Node.js on PATH; without one,
 * it says what it needs and where to get it (the CLI shows a plugin's stderr when it fails to start).
 */
export function writeLauncher(pkg: PackageName, folder: string): void {
  const executable = `pulumi-resource-${pkg}`;
  const launcher = join(folder, executable);
  writeFileSync(
    launcher,
    [
      "#!/bin/sh",
      `# The ${pkg} provider plugin of pulumi-crm: runs its bundle on the Node.js on PATH (20.18 or later).`,
      "if ! command -v node >/dev/null 2>&1; then",
      `  echo "${executable}: this plugin runs on Node.js 20.18 or later, and there is no node on PATH. Install Node.js 24 (https://nodejs.org/en/download, or: brew install node@24), put it on PATH, and run the pulumi command again." >&2`,
      "  exit 127",
      "fi",
      `exec node "$(dirname "$0")/${executable}.js" "$@"`,
      "",
    ].join("\n"),
  );
  chmodSync(launcher, 0o755);
}

/** Builds each plugin's bundle, wrapper and tarball into `output`. */
export async function buildPlugins(output = join(root, "dist", "plugins")): Promise<BuiltPlugin[]> {
  const built: BuiltPlugin[] = [];
  for (const pkg of pluginPackages) {
    const folder = join(output, pkg);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const executable = `pulumi-resource-${pkg}`;
    const bundleBytes = await bundlePlugin(pkg, join(folder, `${executable}.js`));
    writeLauncher(pkg, folder);
    const tarball = join(output, `${executable}-v${version}.tar.gz`);
    writeReproducibleTarGz(tarball, folder, [executable, `${executable}.js`], releaseEpoch(root));
    built.push({ pkg, folder, tarball, bundleBytes });
  }
  return built;
}

if (require.main === module) {
  buildPlugins(process.argv[2] ? resolve(process.argv[2]) : undefined).then(
    (built) => {
      for (const plugin of built) console.log(`${plugin.tarball} (bundle ${(plugin.bundleBytes / 1024 / 1024).toFixed(1)} MiB)`);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
