// The CLI fetches the plugin by itself, as on a fresh machine with the CLI alone: an empty plugin
// cache, no Node.js on PATH, no install step. The release folder `npm run release` writes is
// served on loopback as a mirror of the project's GitHub releases, and the CLI is pointed at it
// with PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES; what it downloads is the linux-amd64 archive, a
// single executable. A Pulumi YAML program naming `version` and `pluginDownloadURL` in its
// resource options, Python programs on the released wheel of the generated SDK (which carries the
// URL; python.md's as written), a TypeScript program on the generated Node.js SDK (Node.js on PATH
// for the program only), and `pulumi plugin install resource crm <version> --server <url>`.

import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "../../emulator";
import { pluginDownloadURL } from "../../scripts/generate/package-schema";
import { releaseVersion } from "../../scripts/release";
import { ensurePythonVenv, ensureToolchain, offlineCliEnvironment } from "../../scripts/toolchain";
import { emulatorRead, requestCount, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { installProgram, repoRoot } from "../../scripts/harness/packed-program";
import { assertNoOpUp, copyYamlProgram } from "../../scripts/harness/plugin-program";
import { CliStack } from "../../scripts/harness/pulumi-cli";
import { downloadingEnv, releaseForTests, type ReleaseMirror, serveRelease, testTarget } from "../../scripts/harness/release";

const archive = `pulumi-resource-crm-v${releaseVersion}-${testTarget}.tar.gz`;

/** The plugins installed in a PULUMI_HOME's plugin cache: its folders (beside them, the CLI's lock, last-used and schema files). */
const pluginCache = (home: string) =>
  existsSync(join(home, "plugins"))
    ? readdirSync(join(home, "plugins"), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
    : [];

const accountNames = async (emulator: RunningEmulator) =>
  (await emulatorRead(emulator, "/accounts")).accounts.map((account: { name: string }) => account.name).sort();

describe("the CLI downloads the plugin by itself from the project's releases (a loopback mirror)", function () {
  this.timeout(20 * 60_000);
  let release: string;
  let mirror: ReleaseMirror;
  let emulator: RunningEmulator;

  before(async () => {
    release = releaseForTests();
    mirror = await serveRelease(release);
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
  });
  after(async () => {
    await mirror?.close();
    await emulator?.close();
  });

  it("sdk-docs/yaml.md shows the program this test runs", () => {
    const program = readFileSync(join(__dirname, "programs", "yaml-download", "Pulumi.yaml"), "utf8").replace(/^description: .*\n/m, "");
    const shown = [...readFileSync(join(repoRoot, "sdk-docs", "yaml.md"), "utf8").matchAll(/```yaml\n([\s\S]*?)```/g)].map(([, block]) => block);
    assert.ok(shown.includes(program), `sdk-docs/yaml.md does not show test/plugin/programs/yaml-download/Pulumi.yaml:\n${program}`);
  });

  it("PATH holds no Node.js, and the schemas name the project's GitHub releases", () => {
    const path = downloadingEnv(mirror).PATH!.split(delimiter);
    assert.deepEqual(
      path.filter((dir) => existsSync(join(dir, "node"))),
      [],
    );
    for (const name of ["crm", "chat"]) {
      const schema = JSON.parse(readFileSync(join(repoRoot, "schema", `${name}.json`), "utf8"));
      assert.equal(schema.pluginDownloadURL, "github://api.github.com/pulumi-crm/pulumi-crm");
    }
  });

  describe("a Pulumi YAML program naming version and pluginDownloadURL", () => {
    let stack: CliStack;
    before(async () => {
      stack = await CliStack.create(copyYamlProgram(join(__dirname, "programs", "yaml-download"), "download-yaml"), "dev", {
        config: { "crm:apiUrl": emulator.crmUrl },
        secrets: { "crm:apiToken": emulator.apiToken },
        env: downloadingEnv(mirror),
      });
    });
    after(() => stack?.remove());

    it("up, with an empty plugin cache, downloads the plugin once and creates the account", async () => {
      const home = stack.env().PULUMI_HOME!;
      assert.deepEqual(pluginCache(home), []);
      const before = mirror.requests.length;
      const up = await stack.up();
      assert.equal(up.exitCode, 0, up.lines.join("\n"));
      assert.deepEqual(await accountNames(emulator), ["Acme"]);
      assert.deepEqual(
        mirror.requests.slice(before).map((path) => path.split("/").pop()),
        [archive],
      );
      assert.deepEqual(pluginCache(home), [`resource-crm-v${releaseVersion}`]);
      assert.deepEqual(
        readdirSync(join(home, "plugins", `resource-crm-v${releaseVersion}`)).filter((file) => !file.startsWith(".")),
        ["pulumi-resource-crm"],
      );
    });

    it("a second up, its preview included, changes nothing, sends no request and downloads nothing", async () => {
      const before = mirror.requests.length;
      await assertNoOpUp(stack, emulator);
      assert.equal(mirror.requests.length, before);
    });

    it("destroy deletes the account", async () => {
      const destroy = await stack.destroy();
      assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
      assert.deepEqual(await accountNames(emulator), []);
    });
  });

  it("a Pulumi YAML program naming no version: up fails with the CLI's message, as sdk-docs/yaml.md says", async () => {
    const program = copyYamlProgram(join(__dirname, "programs", "yaml-download"), "download-yaml-no-version");
    const text = readFileSync(join(program, "Pulumi.yaml"), "utf8");
    writeFileSync(join(program, "Pulumi.yaml"), text.replace(/^ {6}version: .*\n/m, ""));
    assert.doesNotMatch(readFileSync(join(program, "Pulumi.yaml"), "utf8"), /version:/);
    const stack = await CliStack.create(program, "dev", {
      config: { "crm:apiUrl": emulator.crmUrl },
      secrets: { "crm:apiToken": emulator.apiToken },
      env: downloadingEnv(mirror),
    });
    try {
      const up = await stack.up();
      assert.notEqual(up.exitCode, 0);
      assert.match(up.lines.join("\n"), /GetLatestVersion is not supported for plugins from http sources/);
      assert.match(readFileSync(join(repoRoot, "sdk-docs", "yaml.md"), "utf8"), /GetLatestVersion is not supported for plugins from http sources/);
    } finally {
      stack.remove();
    }
  });

  it("a TypeScript program on the generated Node.js SDK: up downloads the plugin once and creates the account, destroy deletes it", async () => {
    const program = installProgram(join(repoRoot, "test", "lifecycle", "programs", "generated-sdk"), "download-node-sdk", {
      generatedSdks: ["crm"],
      typeCheck: "once",
    });
    // The program runs on Node.js (PATH as the tests' CLI runs have it); the plugin does not need it.
    const { PATH: _cliAlone, ...download } = downloadingEnv(mirror);
    const stack = await CliStack.create(program, "dev", {
      ...stackOnEmulator(emulator, { "generated-sdk:accounts": JSON.stringify(["Acme Node"]) }),
      env: download,
    });
    try {
      const before = mirror.requests.length;
      const up = await stack.up();
      assert.equal(up.exitCode, 0, up.lines.join("\n"));
      assert.deepEqual(
        mirror.requests.slice(before).map((path) => path.split("/").pop()),
        [archive],
      );
      assert.deepEqual(await accountNames(emulator), ["Acme Node"]);
      const destroy = await stack.destroy("--skip-preview");
      assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
      assert.deepEqual(await accountNames(emulator), []);
    } finally {
      stack.remove();
    }
  });

  it("pulumi plugin install resource crm <version> --server <pluginDownloadURL> installs it the same way", async () => {
    const home = mkdtempSync(join(tmpdir(), "pulumi-crm-plugin-install-"));
    try {
      const env = { ...offlineCliEnvironment(home, ""), ...downloadingEnv(mirror) };
      const before = mirror.requests.length;
      const { cliBin } = ensureToolchain();
      await promisify(execFile)(join(cliBin, "pulumi"), ["plugin", "install", "resource", "crm", releaseVersion, "--server", pluginDownloadURL], { env });
      assert.deepEqual(
        mirror.requests.slice(before).map((path) => path.split("/").pop()),
        [archive],
      );
      assert.deepEqual(pluginCache(env.PULUMI_HOME!), [`resource-crm-v${releaseVersion}`]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("sdk-docs/python.md's program, as written, on the released wheel: up downloads the plugin and creates the account, destroy deletes it", async () => {
    const work = mkdtempSync(join(tmpdir(), "pulumi-crm-download-python-doc-"));
    try {
      mkdirSync(join(work, "backend"));
      const [, program] = /```python\n([\s\S]*?)```/.exec(readFileSync(join(repoRoot, "sdk-docs", "python.md"), "utf8"))!;
      writeFileSync(join(work, "agency.py"), program);
      const python = ensurePythonVenv();
      const site = join(work, "site");
      execFileSync(python, ["-m", "pip", "install", "--quiet", "--no-deps", "--target", site, join(release, `pulumi_crm-${releaseVersion}-py3-none-any.whl`)]);
      // The page's exports; `pulumi login --local` is a file backend, here the work folder's.
      const env: NodeJS.ProcessEnv = {
        ...offlineCliEnvironment(work, ""),
        ...downloadingEnv(mirror),
        CRM_API_URL: emulator.crmUrl,
        CRM_API_TOKEN: emulator.apiToken,
        PYTHONPATH: site,
      };
      const before = mirror.requests.length;
      const up = await promisify(execFile)(python, ["agency.py"], { cwd: work, env, encoding: "utf8" });
      assert.match(up.stdout, /\{'create': 2\}/);
      assert.deepEqual(
        mirror.requests.slice(before).map((path) => path.split("/").pop()),
        [archive],
      );
      assert.deepEqual(await accountNames(emulator), ["Acme"]);
      const destroy = await promisify(execFile)(python, ["agency.py", "destroy"], { cwd: work, env, encoding: "utf8" });
      assert.match(destroy.stdout, /\{'delete': 2\}/);
      assert.deepEqual(await accountNames(emulator), []);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("a Python inline program on the released wheel of the generated SDK: up downloads the plugin, a no-op up sends no request, destroy", async () => {
    const work = mkdtempSync(join(tmpdir(), "pulumi-crm-download-python-"));
    try {
      mkdirSync(join(work, "backend"));
      const { cliBin } = ensureToolchain();
      // The wheel the release publishes, installed as pip installs it.
      const python = ensurePythonVenv();
      const site = join(work, "site");
      execFileSync(python, ["-m", "pip", "install", "--quiet", "--no-deps", "--target", site, join(release, `pulumi_crm-${releaseVersion}-py3-none-any.whl`)]);
      const stackConfig = { "crm:apiUrl": { value: emulator.crmUrl }, "crm:apiToken": { value: emulator.apiToken, secret: true } };
      const env: NodeJS.ProcessEnv = {
        ...offlineCliEnvironment(work, ""),
        ...downloadingEnv(mirror),
        PULUMI_ROOT: dirname(cliBin),
        STACK_CONFIG: JSON.stringify(stackConfig),
        PYTHONPATH: site,
      };
      const inline = join(repoRoot, "test", "lifecycle", "programs", "python-inline", "inline.py");
      const run = async (command: string) => {
        const { stdout } = await promisify(execFile)(python, [inline, "python-download", command, "Acme Python"], { env, encoding: "utf8" });
        return JSON.parse(stdout.trim().split("\n").pop()!);
      };
      const before = mirror.requests.length;
      assert.deepEqual(pluginCache(env.PULUMI_HOME!), []);
      assert.deepEqual(await run("up"), { create: 2 }); // the stack and the account
      assert.deepEqual(
        mirror.requests.slice(before).map((path) => path.split("/").pop()),
        [archive],
      );
      assert.deepEqual(await accountNames(emulator), ["Acme Python"]);
      const requests = await requestCount(emulator);
      assert.deepEqual(await run("up"), { same: 2 });
      assert.equal(await requestCount(emulator), requests);
      assert.deepEqual(await run("destroy"), { delete: 2 });
      assert.deepEqual(await accountNames(emulator), []);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
