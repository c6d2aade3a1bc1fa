// `npm run release` (scripts/release.ts) and its dry run (scripts/publish.ts --dry-run), as the
// release workflow runs them: the folder holds every archive asked for (here linux-amd64's single
// executables and darwin-arm64's bundle and launcher; `npm run release` makes all five platforms),
// the npm packages, the Python wheel and sdist built with no deprecation warning, the Go module as
// a module proxy serves its tag, and checksums of all; the dry run passes `npm publish --dry-run`,
// `twine check` and `go mod download` of the module, with the npm registry on a loopback address
// nothing listens at: nothing is sent.

import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { checksumsFile, goModule, releaseVersion } from "../scripts/release";
import { repoRoot } from "./support/packed-program";
import { releaseForTests } from "./support/release";

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
    const files = readdirSync(release, { recursive: true }).map(String).filter((file) => !file.endsWith("@v") && file.includes("."));
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
    assert.match(execFileSync("tar", ["-xzOf", darwin, "pulumi-resource-crm"], { encoding: "utf8" }), /exec node "\$\(dirname "\$0"\)\/pulumi-resource-crm\.js"/);
  });

  it("the checksums file lists every other file with its SHA-256", () => {
    const listed = new Map(
      readFileSync(join(release, checksumsFile), "utf8")
        .trim()
        .split("\n")
        .map((line) => line.split("  ").reverse() as [string, string]),
    );
    const files = readdirSync(release, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(release, join(entry.parentPath, entry.name)))
      .filter((file) => file !== checksumsFile);
    assert.deepEqual([...listed.keys()].sort(), files.sort());
    for (const [file, sum] of listed) assert.equal(createHash("sha256").update(readFileSync(join(release, file))).digest("hex"), sum, file);
  });

  it("the dry run passes npm publish --dry-run, twine check and the Go module read back, and sends nothing", async () => {
    const script = join(repoRoot, "scripts", "publish.ts");
    // npm's dry run asks the registry who is logged in: no retry of the refused connection.
    const env = { ...process.env, npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0" };
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["-r", "ts-node/register/transpile-only", script, "--dry-run", "--out", release], { cwd: repoRoot, env, encoding: "utf8" });
    const printed = stdout + stderr;
    assert.match(printed, new RegExp(`files match ${checksumsFile.replace(/\./g, "\\.")}`));
    assert.match(printed, new RegExp(`would run: gh release create v${v} --verify-tag`));
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
      // The SDK module's requirements in the module cache, fetched as test/sdks.test.ts's build of sdk/ fetches them (a no-op once there).
      execFileSync("go", ["mod", "download"], { cwd: join(repoRoot, "sdk"), env: { ...process.env, GOFLAGS: "-mod=readonly" }, stdio: "pipe" });
      // The release's module by its proxy layout; the rest from the module cache. Nothing else is fetched.
      const env = { ...process.env, CGO_ENABLED: "0", GOPROXY: `file://${join(release, "go")},off`, GOSUMDB: "off", GOFLAGS: "-mod=mod", GOWORK: "off" };
      execFileSync("go", ["build", "-o", join(work, "bin") + "/", ".", "./registry-example"], { cwd: work, env, stdio: "pipe" });
      assert.match(readFileSync(join(work, "go.mod"), "utf8"), new RegExp(`${goModule} v${v}`));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("the release workflow runs the full test, the release, its dry run, then publishes, on version tags", () => {
    const workflow = readFileSync(join(repoRoot, ".github", "workflows", "release.yml"), "utf8");
    assert.match(workflow, /on:\n {2}push:\n {4}tags: \["v\*\.\*\.\*"\]/);
    const runs = [...workflow.matchAll(/run: (.*)/g)].map(([, command]) => command);
    const order = ["npm ci", "npm test", "npm run release", "npm run publish-release -- --dry-run", "npm run publish-release"].map((command) => runs.indexOf(command));
    assert.ok(order.every((index, i) => index >= 0 && (i === 0 || index > order[i - 1])), runs.join("\n"));
  });
});
