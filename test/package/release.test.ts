// `npm run release` (scripts/release.ts) and its dry run (scripts/publish.ts --dry-run), as the
// release workflow runs them: the folder holds every archive asked for (here linux-amd64's single
// executables and darwin-arm64's bundle and launcher; `npm run release` makes all five platforms),
// the npm packages, the Python wheel and sdist built with no deprecation warning, the Go module as
// a module proxy serves its tag, and checksums of all; the dry run passes `npm publish --dry-run`,
// `twine check` and `go mod download` of the module, with the npm registry on a loopback address
// nothing listens at: nothing is sent. The checksums file checks the release's assets as a user
// downloads them, and a second release of the same commit has the same bytes.

import assert from "node:assert/strict";
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { promisify } from "node:util";
import { publishSteps } from "../../scripts/publish";
import { releaseTargets, seaNodeVersion, targetName } from "../../scripts/plugin-sea";
import { checksumsFile, filesUnder, goModule, releaseAssets, releaseVersion } from "../../scripts/release";
import { packedTarball, repoRoot } from "../../scripts/harness/packed-program";
import { releaseForTests, runRelease, testTarget } from "../../scripts/harness/release";

const v = releaseVersion;

/** The names in a .tar.gz, and the first bytes of the one named. */
const entries = (archive: string) => execFileSync("tar", ["-tzf", archive], { encoding: "utf8" }).trim().split("\n");
const head = (archive: string, name: string) => execFileSync("tar", ["-xzOf", archive, name], { maxBuffer: 512 * 1024 * 1024 }).subarray(0, 4);

describe("npm run release, and its dry run", function () {
  this.timeout(20 * 60_000);
  let release: string;

  before(() => {
    release = releaseForTests();
  });

  it("writes the archives, the npm packages, the Python distributions, the Go module and the checksums", () => {
    const files = readdirSync(release, { recursive: true })
      .map(String)
      .filter((file) => !file.endsWith("@v") && file.includes("."));
    for (const file of [
      `pulumi-resource-crm-v${v}-linux-amd64.tar.gz`,
      `pulumi-resource-chat-v${v}-linux-amd64.tar.gz`,
      `pulumi-resource-crm-v${v}-darwin-arm64.tar.gz`,
      `pulumi-crm-${v}.tgz`,
      `pulumi-crm-crm-${v}.tgz`,
      `pulumi-crm-chat-${v}.tgz`,
      `pulumi_crm-${v}-py3-none-any.whl`,
      `pulumi_crm-${v}.tar.gz`,
      `pulumi_crm_chat-${v}-py3-none-any.whl`,
      `pulumi_crm_chat-${v}.tar.gz`,
      join("go", goModule, "@v", `v${v}.zip`),
      join("go", goModule, "@v", `v${v}.mod`),
      join("go", goModule, "@v", `v${v}.info`),
      checksumsFile,
    ]) {
      assert.ok(files.includes(file), `${file} is not in the release: ${files.join(", ")}`);
    }
  });

  it("linux-amd64's archive holds a single executable at its root; darwin-arm64's the bundle and its launcher", () => {
    const linux = join(release, `pulumi-resource-crm-v${v}-linux-amd64.tar.gz`);
    assert.deepEqual(entries(linux), ["pulumi-resource-crm"]);
    assert.deepEqual([...head(linux, "pulumi-resource-crm")], [0x7f, 0x45, 0x4c, 0x46]); // ELF
    const darwin = join(release, `pulumi-resource-crm-v${v}-darwin-arm64.tar.gz`);
    assert.deepEqual(entries(darwin).sort(), ["pulumi-resource-crm", "pulumi-resource-crm.js"]);
    assert.match(
      execFileSync("tar", ["-xzOf", darwin, "pulumi-resource-crm"], { encoding: "utf8" }),
      /exec node "\$\(dirname "\$0"\)\/pulumi-resource-crm\.js"/,
    );
  });

  it("the checksums file lists exactly the GitHub release's assets, and `sha256sum -c` passes in a folder of them as downloaded", () => {
    const listed = readFileSync(join(release, checksumsFile), "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split("  ")[1]);
    const assets = releaseAssets(release);
    assert.deepEqual(listed, assets);
    assert.deepEqual(
      assets.filter((file) => !/\.(tar\.gz|tgz|whl)$/.test(file)),
      [],
    );
    // What a user downloads: the assets the publication uploads (scripts/publish.ts), alone in a folder.
    const uploaded = /would run: gh release upload v\S+ --clobber (.*)/.exec(publishSteps(release)[1].run(true))![1].split(" ");
    assert.deepEqual(
      uploaded.map((path) => relative(release, path)),
      [...assets, checksumsFile],
    );
    const downloads = mkdtempSync(join(tmpdir(), "pulumi-crm-release-assets-"));
    try {
      for (const path of uploaded) copyFileSync(path, join(downloads, basename(path)));
      const checked = spawnSync("sha256sum", ["-c", checksumsFile], { cwd: downloads, encoding: "utf8" });
      assert.equal(checked.status, 0, checked.stdout + checked.stderr);
      assert.equal(checked.stdout.trim().split("\n").length, assets.length);
    } finally {
      rmSync(downloads, { recursive: true, force: true });
    }
  });

  it("a second release of the same commit, its darwin archives made apart as the workflow's macOS jobs do, has the same bytes: every asset, the checksums file, the Go module", () => {
    const work = mkdtempSync(join(tmpdir(), "pulumi-crm-release-again-"));
    try {
      // Here the darwin job's archives are the bundle and its launcher: it runs on no macOS runner.
      runRelease(["--out", join(work, "darwin"), "--targets", "darwin-arm64", "--archives-only"]);
      assert.deepEqual(readdirSync(join(work, "darwin")).sort(), [
        `pulumi-resource-chat-v${v}-darwin-arm64.tar.gz`,
        `pulumi-resource-crm-v${v}-darwin-arm64.tar.gz`,
      ]);
      runRelease(["--out", join(work, "release"), "--targets", testTarget, "--archives-from", join(work, "darwin"), "--npm-package", packedTarball()]);
      const sums = (folder: string) =>
        new Map(
          filesUnder(folder).map((file) => [
            file,
            createHash("sha256")
              .update(readFileSync(join(folder, file)))
              .digest("hex"),
          ]),
        );
      assert.deepEqual(sums(join(work, "release")), sums(release));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("darwin's launcher, with no node on PATH, says what it needs and how to get it", () => {
    const folder = mkdtempSync(join(tmpdir(), "pulumi-crm-launcher-"));
    try {
      execFileSync("tar", ["-xzf", join(release, `pulumi-resource-crm-v${v}-darwin-arm64.tar.gz`), "-C", folder]);
      const ran = spawnSync("/bin/sh", [join(folder, "pulumi-resource-crm"), "127.0.0.1:1"], { env: { PATH: folder }, encoding: "utf8" });
      assert.equal(ran.status, 127);
      assert.match(
        ran.stderr,
        /^pulumi-resource-crm: this plugin runs on Node.js 20\.18 or later, and there is no node on PATH\. Install Node\.js 24 \(https:\/\/nodejs\.org\/en\/download, or: brew install node@24\)/,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("the dry run passes npm publish --dry-run, twine check and the Go module read back, and sends nothing", async () => {
    const script = join(repoRoot, "scripts", "publish.ts");
    // npm's dry run asks the registry who is logged in: no retry of the refused connection.
    const env = { ...process.env, npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0" };
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["-r", "ts-node/register/transpile-only", script, "--dry-run", "--out", release], {
      cwd: repoRoot,
      env,
      encoding: "utf8",
    });
    const printed = stdout + stderr;
    assert.match(printed, new RegExp(`assets match ${checksumsFile.replace(/\./g, "\\.")}`));
    assert.match(printed, new RegExp(`would run: gh release create v${v} --verify-tag --title v${v} \\(unless it exists\\)`));
    assert.match(printed, new RegExp(`would run: gh release upload v${v} --clobber`));
    assert.equal((printed.match(/npm notice Publishing to http:\/\/127\.0\.0\.1:9\/ with tag latest and public access \(dry-run\)/g) ?? []).length, 3, printed);
    for (const name of ["pulumi-crm", "@pulumi-crm/crm", "@pulumi-crm/chat"]) assert.match(printed, new RegExp(`^\\+ ${name}@${v}$`, "m"), printed);
    assert.equal((printed.match(/PASSED/g) ?? []).length, 4, printed);
    assert.match(printed, new RegExp(`${goModule}@v${v} h1:`));
    assert.match(printed, new RegExp(`would run: git tag sdk/v${v}`));
  });

  it("sdk-docs/go.md's program and docs/_index.md's Go example build on the Go module from the release, at the versions its go get line names", () => {
    const work = mkdtempSync(join(tmpdir(), "pulumi-crm-go-doc-"));
    try {
      const page = readFileSync(join(repoRoot, "sdk-docs", "go.md"), "utf8");
      const [, program] = /```go\n([\s\S]*?)```/.exec(page)!;
      writeFileSync(join(work, "main.go"), program);
      // The Registry's page's example too, as a second program of the module.
      const [, registryExample] = /```go\n([\s\S]*?)```/.exec(readFileSync(join(repoRoot, "docs", "_index.md"), "utf8"))!;
      mkdirSync(join(work, "registry-example"));
      writeFileSync(join(work, "registry-example", "main.go"), registryExample);
      // What `go get` of the page's line writes, offline: the SDK module's own requirements (the
      // same Pulumi SDK, every module it needs listed) and the SDK module at the release's version;
      // `go get` itself would walk go.mod files of older versions, which only a proxy has.
      assert.ok(page.includes(`go get ${goModule}@v${v} github.com/pulumi/pulumi/sdk/v3@v3.274.1`));
      const sdkGoMod = readFileSync(join(repoRoot, "sdk", "go.mod"), "utf8").replace(/^module .*$/m, "module agency");
      writeFileSync(join(work, "go.mod"), `${sdkGoMod}\nrequire ${goModule} v${v}\n`);
      writeFileSync(join(work, "go.sum"), readFileSync(join(repoRoot, "sdk", "go.sum")));
      // The SDK module's requirements in the module cache, fetched as test/package/sdks.test.ts's build of sdk/ fetches them (a no-op once there).
      execFileSync("go", ["mod", "download"], { cwd: join(repoRoot, "sdk"), env: { ...process.env, GOFLAGS: "-mod=readonly" }, stdio: "pipe" });
      // The release's module by its proxy layout; the rest from the module cache. Nothing else is fetched.
      const env = { ...process.env, CGO_ENABLED: "0", GOPROXY: `file://${join(release, "go")},off`, GOSUMDB: "off", GOFLAGS: "-mod=mod", GOWORK: "off" };
      execFileSync("go", ["build", "-o", `${join(work, "bin")}/`, ".", "./registry-example"], { cwd: work, env, stdio: "pipe" });
      assert.match(readFileSync(join(work, "go.mod"), "utf8"), new RegExp(`${goModule} v${v}`));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("a re-run of the GitHub release step completes a release that a failed run left partial (a stand-in gh keeps the release's state)", () => {
    const bin = mkdtempSync(join(tmpdir(), "pulumi-crm-gh-"));
    const saved = { ...process.env };
    try {
      // The release exists once created; an upload fails while GH_FAIL_UPLOAD is set, as a dropped connection would.
      const gh = [
        "#!/bin/sh",
        'echo "$1 $2" >> "$GH_LOG"',
        'case "$1 $2" in',
        '  "release view") test -f "$GH_STATE" ;;',
        '  "release create") touch "$GH_STATE" ;;',
        '  "release upload") test -f "$GH_STATE" && test -z "$GH_FAIL_UPLOAD" ;;',
        "esac",
        "",
      ];
      writeFileSync(join(bin, "gh"), gh.join("\n"), { mode: 0o755 });
      Object.assign(process.env, { PATH: `${bin}:${process.env.PATH}`, GH_LOG: join(bin, "log"), GH_STATE: join(bin, "release-exists"), GH_FAIL_UPLOAD: "1" });
      const github = publishSteps(release)[1];
      assert.throws(() => github.run(false), /gh release upload v\S+ --clobber .* exited 1/);
      delete process.env.GH_FAIL_UPLOAD;
      github.run(false);
      assert.deepEqual(readFileSync(join(bin, "log"), "utf8").trim().split("\n"), [
        "release view",
        "release create",
        "release upload",
        "release view",
        "release upload",
      ]);
    } finally {
      process.env = saved;
      rmSync(bin, { recursive: true, force: true });
    }
  });

  describe("the release workflow (.github/workflows/release.yml), read back as GitHub reads it", () => {
    const yaml = require(require.resolve("js-yaml", { paths: [require.resolve("@pulumi/pulumi")] })) as { load(text: string): any };
    const workflow = yaml.load(readFileSync(join(repoRoot, ".github", "workflows", "release.yml"), "utf8"));
    const runs = (job: string): string[] => workflow.jobs[job].steps.filter((step: { run?: string }) => step.run).map((step: { run: string }) => step.run);
    /** The arguments of `npm run release -- ...`, an expression `${{ ... }}` as one. */
    const releaseArgs = (command: string) => command.replace(/^npm run release -- /, "").match(/\$\{\{[^}]*\}\}|\S+/g)!;
    const option = (args: string[], name: string) => args[args.indexOf(name) + 1];

    it("runs on version tags: the full test, then the darwin jobs, then the release, which publishes", () => {
      assert.deepEqual(workflow.on, { push: { tags: ["v*.*.*"] } });
      assert.deepEqual(Object.keys(workflow.jobs), ["test", "darwin", "release"]);
      assert.equal(workflow.jobs.darwin.needs, "test");
      assert.deepEqual(workflow.jobs.release.needs, ["test", "darwin"]);
      assert.deepEqual(runs("test").slice(-2), ["npm ci", "npm test"]);
      const release = runs("release");
      const steps: Array<(run: string) => boolean> = [
        (run) => run === "npm ci",
        (run) => run.startsWith("npm run release -- "),
        (run) => run === "npm run publish-release -- --dry-run",
        (run) => run === "npm run publish-release",
      ];
      const order = steps.map((step) => release.findIndex(step));
      assert.ok(
        order.every((index, i) => index >= 0 && (i === 0 || index > order[i - 1])),
        release.join("\n"),
      );
    });

    it("makes every platform's archive on its own runner kind: darwin's on a macOS runner of its architecture, of the release's Node.js; the rest on Linux, with darwin's taken from its jobs", () => {
      const darwin = workflow.jobs.darwin;
      assert.deepEqual(
        darwin.strategy.matrix.include,
        releaseTargets.filter((target) => target.runner).map((target) => ({ target: targetName(target), runner: target.runner })),
      );
      assert.equal(darwin["runs-on"], "${{ matrix.runner }}");
      assert.equal(darwin.steps.find((step: { uses?: string }) => step.uses?.startsWith("actions/setup-node")).with["node-version"], seaNodeVersion);
      const [made] = runs("darwin").filter((run) => run.startsWith("npm run release"));
      assert.deepEqual(releaseArgs(made), ["--archives-only", "--targets", "${{ matrix.target }}", "--out", "dist/darwin"]);
      const upload = darwin.steps.find((step: { uses?: string }) => step.uses?.startsWith("actions/upload-artifact")).with;
      assert.equal(upload.path, "dist/darwin/*.tar.gz");
      const download = workflow.jobs.release.steps.find((step: { uses?: string }) => step.uses?.startsWith("actions/download-artifact")).with;
      assert.deepEqual([download.path, download["merge-multiple"]], ["dist/darwin", true]);
      assert.ok(upload.name.startsWith(download.pattern.replace("*", "")));
      const [release] = runs("release").filter((run) => run.startsWith("npm run release"));
      const args = releaseArgs(release);
      assert.deepEqual(option(args, "--targets").split(","), releaseTargets.filter((target) => target.node).map(targetName));
      assert.equal(option(args, "--archives-from"), "dist/darwin");
      assert.ok(
        workflow.jobs.darwin.steps.find((step: { uses?: string }) => step.uses === "actions/checkout@v4").with["fetch-depth"] === 0,
        "the archives are dated by the commit's time",
      );
    });

    it("attests the build provenance of every asset but the checksums, and publishes to npm with provenance", () => {
      const job = workflow.jobs.release;
      assert.deepEqual(job.permissions, { contents: "write", "id-token": "write", attestations: "write" });
      const attest = job.steps.find((step: { uses?: string }) => step.uses?.startsWith("actions/attest-build-provenance"));
      const globs = (attest.with["subject-path"] as string)
        .split(",")
        .map((glob) => new RegExp(`^${glob.trim().replace("dist/release/", "").replace(/\./g, "\\.").replace("*", "[^/]*")}$`));
      for (const asset of releaseAssets(release))
        assert.ok(
          globs.some((glob) => glob.test(asset)),
          `${asset} is not attested`,
        );
      const steps = job.steps.map((step: { name?: string; uses?: string; run?: string }) => step.run ?? step.uses);
      assert.ok(steps.indexOf(attest.uses) < steps.indexOf("npm run publish-release"), "attested before it is published");
      const publish = job.steps.find((step: { run?: string }) => step.run === "npm run publish-release");
      assert.equal(publish.env.NPM_CONFIG_PROVENANCE, "true");
    });
  });
});
