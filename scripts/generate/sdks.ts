// The SDKs of the package schemas, committed under sdk/<language>/<package> (Node.js, Python
// and Go; sdk/go.mod is the Go SDKs' module), written by tools/schema-check with Pulumi's own
// code generators from schema/<package>.json. `npm run generate` writes them after the
// schemas; test/package/sdks.test.ts fails when a committed one differs from what the schemas give.

import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ensureSchemaCheck } from "../toolchain";

const repoRoot = join(__dirname, "..", "..");

export const sdkLanguages = ["nodejs", "python", "go"] as const;

/** The packages, by their schema files' names (schema/crm.json -> crm). */
export const sdkPackages = (): string[] =>
  readdirSync(join(repoRoot, "schema"))
    .filter((file) => file.endsWith(".json"))
    .map((file) => file.slice(0, -".json".length))
    .sort();

/** Writes every package's SDKs into `out`/<language>/<package>, each folder replaced whole. */
export function writeSdks(out: string = join(repoRoot, "sdk")): void {
  const schemas = sdkPackages().map((name) => join(repoRoot, "schema", `${name}.json`));
  // Exit 1 with a report per schema when one has an error (then it makes no SDK) or an
  // undescribed property (test/package/package-schema.test.ts's subject); 2 when it cannot go on.
  const run = spawnSync(ensureSchemaCheck(), ["-sdks", out, ...schemas], { encoding: "utf8" });
  if (run.status !== 0 && run.status !== 1) throw new Error(`tools/schema-check -sdks failed: ${run.stderr}`);
  for (const line of run.stdout.trim().split("\n")) {
    const report = JSON.parse(line) as { file: string; diagnostics: string[]; errors: number };
    if (report.errors > 0) throw new Error(`${report.file} does not bind, so no SDK is made of it:\n${report.diagnostics.join("\n")}`);
  }
}

/**
 * The Node.js SDK of package `name` as npm would install it: compiled by tsc (the repository's
 * TypeScript; @pulumi/pulumi found from sdk/ up) into `into`/bin, its package.json and README
 * copied beside, as Pulumi's providers publish theirs (the generated package.json names no
 * `main`: index.js at the package's root), and packed into `into`. Returns the tarball's path.
 */
export function packNodeSdk(name: string, into: string): string {
  const source = join(repoRoot, "sdk", "nodejs", name);
  const bin = join(into, "bin");
  // No source maps: the package holds no TypeScript sources for them to point at, and they would
  // carry the path from the build's folder to the clone's, so that two packs of one commit differed.
  const compile = ["-p", join(source, "tsconfig.json"), "--outDir", bin, "--sourceMap", "false", "--declarationMap", "false"];
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), ...compile], { stdio: ["ignore", "inherit", "inherit"] });
  for (const file of ["package.json", "README.md"]) copyFileSync(join(source, file), join(bin, file));
  const output = execFileSync("npm", ["pack", "--json", "--pack-destination", into], { cwd: bin, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const [{ filename }] = JSON.parse(output.slice(output.indexOf("["))) as Array<{ filename: string }>;
  return join(into, filename);
}
