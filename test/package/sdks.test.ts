// The SDKs generated from the package schemas (sdk/<language>/<package>, scripts/generate/sdks.ts): the
// committed ones are what tools/schema-check writes from schema/*.json now, each class carries the
// alias to the dynamic resource type deployed stacks hold, and each builds as its users build
// it: Node.js with tsc against @pulumi/pulumi into a package npm packs, Python as a wheel
// imported on `pulumi` from PyPI, Go with go build and go vet against the Pulumi Go SDK at the
// CLI's release. In the program tier: the generator and the Go SDK build on the CLI's Go
// module cache (ensureToolchain()). test/package/package-schema.test.ts holds the generator's go.mod to
// the CLI's.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { packNodeSdk, sdkLanguages, sdkPackages, writeSdks } from "../../scripts/generate/sdks";
import { ensureToolchain } from "../../scripts/toolchain";
import { repoRoot } from "../../scripts/harness/packed-program";
import { installPythonSdk } from "../support/python-sdk";

interface Schema {
  resources: Record<string, { aliases?: Array<{ type: string }> }>;
  language: { python: { packageName: string } };
}

/** The packages' version: the schemas', and so the SDKs', are package.json's. */
const version = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

const schemaOf = (name: string): Schema => JSON.parse(readFileSync(join(repoRoot, "schema", `${name}.json`), "utf8"));

/** Every file under `dir`, by its path from `dir`, with its text. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const path = join(dir, name);
    if (statSync(path).isFile()) files.set(relative(dir, path), readFileSync(path, "utf8"));
  }
  return files;
}

/** How each generator writes a resource's alias to its dynamic type. */
const aliasText: Record<(typeof sdkLanguages)[number], (type: string) => string> = {
  nodejs: (type) => `{ type: "${type}" }`,
  python: (type) => `pulumi.Alias(type_="${type}")`,
  go: (type) => `Type: pulumi.String("${type}"),`,
};

describe("the SDKs generated from the package schemas (sdk/)", function () {
  this.timeout(20 * 60_000);
  const work = mkdtempSync(join(tmpdir(), "pulumi-crm-sdks-"));
  const generated = join(work, "generated");

  before(() => {
    ensureToolchain();
    writeSdks(generated);
  });

  after(() => rmSync(work, { recursive: true, force: true }));

  for (const language of sdkLanguages) {
    it(`sdk/${language} is what tools/schema-check writes from the schemas now (npm run generate writes it)`, () => {
      const committed = tree(join(repoRoot, "sdk", language));
      const fresh = tree(join(generated, language));
      assert.deepEqual([...committed.keys()], [...fresh.keys()], `sdk/${language}: files differ from what the schemas give; run npm run generate`);
      for (const [path, text] of fresh) assert.equal(committed.get(path), text, `sdk/${language}/${path} is stale: run npm run generate`);
    });

    it(`each class of sdk/${language} carries the alias to its dynamic resource type`, () => {
      for (const name of sdkPackages()) {
        const text = [...tree(join(repoRoot, "sdk", language, name)).values()].join("\n");
        for (const [token, resource] of Object.entries(schemaOf(name).resources)) {
          assert.ok(resource.aliases?.length, `${token} has no alias in schema/${name}.json`);
          for (const { type } of resource.aliases)
            assert.ok(text.includes(aliasText[language](type)), `sdk/${language}/${name}: no alias to ${type} (${token})`);
        }
      }
    });
  }

  for (const name of sdkPackages()) {
    it(`sdk/nodejs/${name} compiles with tsc against @pulumi/pulumi, packs, and loads`, () => {
      const tarball = packNodeSdk(name, join(work, "nodejs", name));
      assert.match(basename(tarball), new RegExp(`^pulumi-crm-${name}-${version}\\.tgz$`));
      // Loaded where @pulumi/pulumi resolves as in a program's node_modules: the repository's.
      const loaded = execFileSync(process.execPath, ["-e", `console.log(typeof require(${JSON.stringify(join(work, "nodejs", name, "bin"))}).Provider)`], {
        encoding: "utf8",
        env: { ...process.env, NODE_PATH: join(repoRoot, "node_modules") },
      });
      assert.equal(loaded.trim(), "function");
    });

    it(`sdk/python/${name} builds a wheel whose every module imports on pulumi from PyPI`, () => {
      const { python, wheel, site } = installPythonSdk(name, work);
      const packageName = schemaOf(name).language.python.packageName;
      const importEveryModule = `import importlib, pkgutil, ${packageName} as p\nfor m in pkgutil.walk_packages(p.__path__, "${packageName}."): importlib.import_module(m.name)\nprint(p.Provider.__name__)`;
      const printed = execFileSync(python, ["-c", importEveryModule], { encoding: "utf8", env: { ...process.env, PYTHONPATH: site } });
      assert.equal(printed.trim(), "Provider");
      assert.match(wheel, new RegExp(`^${packageName}-${version}-`));
    });
  }

  it("sdk/go builds and passes go vet against the Pulumi Go SDK at the CLI's release", () => {
    const env = { ...process.env, CGO_ENABLED: "0", GOFLAGS: "-mod=readonly -buildvcs=false" };
    execFileSync("go", ["build", "./..."], { cwd: join(repoRoot, "sdk"), env, encoding: "utf8" });
    execFileSync("go", ["vet", "./..."], { cwd: join(repoRoot, "sdk"), env, encoding: "utf8" });
  });
});
