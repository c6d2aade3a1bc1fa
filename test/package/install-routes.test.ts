// The install routes the docs give before 0.1.0 is published, run as written by sh from a
// program's folder outside the clone: README.md's "Before 0.1.0 is published" (the plugins from
// the release's archives with `pulumi plugin install --file`, the Node.js SDK, the Python wheel,
// the Go module), every line of the language pages that installs from the release, and go.md's
// program steps up to `pulumi up` (which needs the Go language host, not built here: the program
// is built as the host builds it). The test's release folder (linux-amd64's archives) stands for
// `npm run release`; npm from its cache, pip with no index (the wheel alone, its dependency
// `pulumi` being PyPI's), Go modules from the module cache.

import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { goModule, releaseVersion } from "../../scripts/release";
import { ensurePythonVenv, ensureToolchain, offlineCliEnvironment } from "../../scripts/toolchain";
import { repoRoot } from "../../scripts/harness/packed-program";
import { releaseForTests } from "../../scripts/harness/release";

const page = (file: string) => readFileSync(join(repoRoot, file), "utf8");
const blocks = (text: string, language: string) => [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g"))].map(([, block]) => block);
/** A documented value the user fills in (`<key>`), given one. */
const filled = (script: string) => script.replace(/<[^>\n]+>/g, "placeholder-value");

describe("the install routes the docs give, run as written from a program's folder outside the clone", function () {
  this.timeout(20 * 60_000);
  let work: string;
  let env: NodeJS.ProcessEnv;
  let clone: string;

  /** Runs `script` with sh -e in `cwd`; fails with what it printed. */
  const sh = (script: string, cwd: string) => {
    const ran = spawnSync("sh", ["-ec", script], { cwd, env, encoding: "utf8" });
    assert.equal(ran.status, 0, `${script}\n${ran.stdout}${ran.stderr}`);
    return ran.stdout;
  };

  before(() => {
    const release = releaseForTests();
    work = mkdtempSync(join(tmpdir(), "pulumi-crm-install-routes-"));
    mkdirSync(join(work, "backend")); // the file backend offlineCliEnvironment names, as `pulumi login --local` has one
    // The clone's dist/release is the test's release; the program's folders are elsewhere.
    clone = join(work, "clone");
    mkdirSync(join(clone, "dist"), { recursive: true });
    symlinkSync(release, join(clone, "dist", "release"));
    const { cliBin, nodeBin } = ensureToolchain();
    const venvBin = dirname(ensurePythonVenv());
    const goBin = join(execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim(), "bin");
    const moduleCache = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
    // The SDK module's requirements in the module cache, fetched as test/package/sdks.test.ts's build of sdk/ fetches them (a no-op once there).
    execFileSync("go", ["mod", "download"], { cwd: join(repoRoot, "sdk"), env: { ...process.env, GOFLAGS: "-mod=readonly" }, stdio: "pipe" });
    env = {
      ...offlineCliEnvironment(work, [cliBin, nodeBin, venvBin, goBin, "/usr/bin", "/bin"].join(":")),
      // npm from its cache where it can (as the tests' installs); pip the wheel alone into a folder
      // of the test's (pulumi is PyPI's); Go's other modules from the module cache, laid out as a
      // proxy serves them, offline: what it lacks are the test-only modules of the Pulumi SDK's
      // packages, which `go mod tidy` looks up and no build needs, so tidy runs with -e (GOFLAGS
      // reaches only the commands that know a flag). The build stays -mod=readonly, Go's default:
      // it fails on a missing go.sum entry.
      npm_config_prefer_offline: "true",
      PIP_TARGET: join(work, "site"),
      PIP_NO_DEPS: "1",
      PIP_NO_INDEX: "1",
      GOPROXY: `file://${moduleCache}/cache/download,off`,
      GOSUMDB: "off",
      GOFLAGS: "-e",
      GOWORK: "off",
      CGO_ENABLED: "0",
    };
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  /** README's block: the clone's lines (`npm run release` being the test's release), then the program folder's. */
  const readmeRoute = () => {
    const [block] = blocks(page("README.md"), "sh").filter((text) => text.includes("$PULUMI_CRM_RELEASE"));
    const [inClone, inProgram] = block.split(/^# then, in your program's folder.*$/m);
    return { inClone: inClone.replace("npm ci && npm run release\n", ""), inProgram };
  };
  /** README's lines in the clone, run there, then back to `folder`. */
  const fromClone = (folder: string) => `cd ${clone}\n${readmeRoute().inClone}\ncd ${folder}\n`;

  it("README's route: the plugins from the archives, and each language's SDK, from the release folder", () => {
    const program = join(work, "program");
    mkdirSync(program);
    sh("go mod init agency", program);
    sh(fromClone(program) + readmeRoute().inProgram, program);
    const plugins = join(env.PULUMI_HOME!, "plugins");
    assert.deepEqual(
      readdirSync(plugins, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
      [`resource-chat-v${releaseVersion}`, `resource-crm-v${releaseVersion}`],
    );
    assert.ok(existsSync(join(plugins, `resource-crm-v${releaseVersion}`, "pulumi-resource-crm")));
    assert.equal(JSON.parse(readFileSync(join(program, "node_modules", "@pulumi-crm", "crm", "package.json"), "utf8")).version, releaseVersion);
    assert.ok(existsSync(join(work, "site", "pulumi_crm", "__init__.py")));
    assert.match(readFileSync(join(program, "go.mod"), "utf8"), new RegExp(`${goModule} v${releaseVersion}`));
  });

  it("each line of the language pages that installs from the release folder", () => {
    const lines = ["sdk-docs/python.md", "sdk-docs/nodejs-sdk.md", "sdk-docs/go.md"].flatMap((file) =>
      blocks(page(file), "sh")
        .flatMap((block) => block.split("\n"))
        .filter((line) => line.includes("$PULUMI_CRM_RELEASE")),
    );
    assert.ok(lines.length >= 2, lines.join("\n"));
    const program = join(work, "pages-program");
    mkdirSync(program);
    sh(fromClone(program) + lines.join("\n"), program);
  });

  it("go.md's program: its steps, then the build the Go language host runs, and the settings main.go reads", () => {
    const goPage = page("sdk-docs/go.md");
    const [start, settings] = blocks(goPage, "sh");
    // GOPROXY as README's route exports it for an unpublished module.
    const folder = join(work, "go-program");
    const agency = join(folder, "agency");
    mkdirSync(folder);
    const exported = (dir: string) =>
      fromClone(dir) +
      readmeRoute()
        .inProgram.split("\n")
        .filter((line) => line.startsWith("export GOPROXY"))
        .join("\n") +
      "\n";
    sh(exported(folder) + start, folder);
    writeFileSync(join(agency, "Pulumi.yaml"), blocks(goPage, "yaml")[0]);
    writeFileSync(join(agency, "main.go"), blocks(goPage, "go")[0]);
    // Up to `pulumi up`: the Go language host runs it, and cannot be built here.
    sh(
      exported(agency) +
        filled(
          settings
            .split("\n")
            .filter((line) => !line.startsWith("pulumi up"))
            .join("\n"),
        ),
      agency,
    );
    sh("go build -o bin/agency .", agency);
    const config = JSON.parse(sh("pulumi config --show-secrets --json", agency)) as Record<string, { value: string; secret: boolean }>;
    assert.deepEqual(Object.keys(config).sort(), ["agency:clientToken", "agency:clientUrl", "crm:apiToken", "crm:apiUrl"]);
    assert.equal(config["agency:clientToken"].secret, true);
    assert.equal(config["crm:apiToken"].secret, true);
  });
});
