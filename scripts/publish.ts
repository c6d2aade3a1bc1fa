// Publishes the folder `npm run release` wrote, as the release workflow does on a version tag
// (.github/workflows/release.yml): the checksums verified, the plugin archives as the GitHub
// release's assets (where the schemas' pluginDownloadURL sends the CLI), the npm packages, the
// Python distributions, and the Go SDK's tag. With --dry-run every step runs as far as it can
// without sending anything: `npm publish --dry-run` of each package, `twine check --strict` of
// each distribution, the Go module read back from its proxy layout by `go mod download`; the
// GitHub release and the tag push are printed. test/package/release.test.ts runs the dry run.
//
// Each step first looks for what an earlier run did (the release, a published version, the tag)
// and does only the rest, so that a run that failed half-way is completed by running it again.
//
//   npm run publish-release -- [--dry-run] [--out <release folder>]     (default dist/release)

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { checksumsFile, goModule, goTag, releaseAssets, releaseVersion } from "./release";
import { ensurePythonVenv } from "./toolchain";

const repoRoot = join(__dirname, "..");

interface Step {
  name: string;
  /** Runs the step; in a dry run, the part of it that sends nothing. Returns what it printed. */
  run(dryRun: boolean): string;
}

/** Runs the command; returns what it printed, stderr included (npm writes its notices there). */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const ran = spawnSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options });
  if (ran.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${ran.status ?? ran.signal}:\n${ran.stdout}${ran.stderr}`);
  return ran.stdout + ran.stderr;
}

/**
 * The checksums file lists exactly the release's assets, each with its sum: a file changed,
 * missing or added since `npm run release` stops the publication.
 */
function verifyChecksums(folder: string): string {
  const lines = readFileSync(join(folder, checksumsFile), "utf8").trim().split("\n");
  const listed = lines.map((line) => line.split("  ")[1]);
  const assets = releaseAssets(folder);
  if (listed.join("\n") !== assets.join("\n")) throw new Error(`${checksumsFile} lists ${listed.join(", ")}; the release's assets are ${assets.join(", ")}`);
  for (const line of lines) {
    const [sum, file] = line.split("  ");
    const actual = createHash("sha256")
      .update(readFileSync(join(folder, file)))
      .digest("hex");
    if (actual !== sum) throw new Error(`${file}: SHA-256 ${actual}, the checksums file says ${sum}`);
  }
  return `${lines.length} assets match ${checksumsFile}`;
}

export function publishSteps(folder: string): Step[] {
  const files = readdirSync(folder);
  const archives = files.filter((file) => /^pulumi-resource-.*\.tar\.gz$/.test(file));
  const npmPackages = files.filter((file) => file.endsWith(".tgz"));
  const pythonDistributions = files.filter((file) => file.endsWith(".whl") || (file.endsWith(".tar.gz") && !archives.includes(file)));
  return [
    { name: "checksums", run: () => verifyChecksums(folder) },
    {
      name: "GitHub release assets (the plugin archives, where pluginDownloadURL points; the packages; the checksums)",
      run: (dryRun) => {
        // Made if missing, then every asset uploaded over what a failed run left: a re-run completes it.
        const tag = `v${releaseVersion}`;
        const create = ["release", "create", tag, "--verify-tag", "--title", tag];
        const upload = ["release", "upload", tag, "--clobber", ...[...releaseAssets(folder), checksumsFile].map((file) => join(folder, file))];
        if (dryRun) return `would run: gh ${create.join(" ")} (unless it exists)\nwould run: gh ${upload.join(" ")}`;
        const exists = spawnSync("gh", ["release", "view", tag], { stdio: "ignore" }).status === 0;
        return (exists ? `release ${tag} exists\n` : run("gh", create)) + run("gh", upload);
      },
    },
    ...npmPackages.map((file) => ({
      name: `npm ${file}`,
      run: (dryRun: boolean) => {
        const publish = ["publish", join(folder, file), "--access", "public"];
        if (dryRun) return run("npm", [...publish, "--dry-run"]);
        // A version the registry has is not published again (npm would refuse it): a re-run goes on.
        const { name, version } = JSON.parse(run("tar", ["-xzOf", join(folder, file), "package/package.json"])) as { name: string; version: string };
        const published = spawnSync("npm", ["view", `${name}@${version}`, "version"], { encoding: "utf8" });
        if (published.status === 0 && published.stdout.trim() === version) return `${name}@${version} is published already`;
        return run("npm", publish);
      },
    })),
    {
      name: `PyPI ${pythonDistributions.join(", ")}`,
      run: (dryRun) => {
        const python = ensurePythonVenv();
        const paths = pythonDistributions.map((file) => join(folder, file));
        const checked = run(python, ["-m", "twine", "check", "--strict", ...paths]);
        return dryRun ? checked : checked + run(python, ["-m", "twine", "upload", "--non-interactive", "--skip-existing", ...paths]);
      },
    },
    {
      name: `Go module ${goModule} ${goTag}`,
      run: (dryRun) => {
        // Read back from the proxy layout as `go` reads a module: its zip and go.mod checked.
        const scratch = mkdtempSync(join(tmpdir(), "pulumi-crm-go-release-"));
        try {
          writeFileSync(join(scratch, "go.mod"), "module release.check\n");
          const env = {
            ...process.env,
            GOPROXY: `file://${join(folder, "go")}`,
            GOSUMDB: "off",
            GOFLAGS: "-mod=mod",
            GOWORK: "off",
            GOMODCACHE: join(scratch, "mod"),
          };
          const downloaded = JSON.parse(run("go", ["mod", "download", "-json", `${goModule}@v${releaseVersion}`], { cwd: scratch, env })) as {
            Version: string;
            Sum: string;
          };
          const read = `${goModule}@${downloaded.Version} ${downloaded.Sum}`;
          if (dryRun) return `${read}; would run: git tag ${goTag} && git push origin ${goTag} (unless the tag exists)`;
          const tagged = (args: string[]) => run("git", args, { cwd: repoRoot }).trim() !== "";
          if (!tagged(["tag", "--list", goTag])) run("git", ["tag", goTag], { cwd: repoRoot });
          if (tagged(["ls-remote", "--tags", "origin", `refs/tags/${goTag}`])) return `${read}; ${goTag} is pushed already`;
          return read + run("git", ["push", "origin", goTag], { cwd: repoRoot });
        } finally {
          rmSync(scratch, { recursive: true, force: true });
        }
      },
    },
  ];
}

if (require.main === module) {
  const { values } = parseArgs({ options: { "dry-run": { type: "boolean" }, out: { type: "string" } } });
  const folder = resolve(values.out ?? join(repoRoot, "dist", "release"));
  const dryRun = values["dry-run"] ?? false;
  for (const step of publishSteps(folder)) {
    try {
      console.log(`== ${step.name}${dryRun ? " (dry run)" : ""}\n${step.run(dryRun).trim()}`);
    } catch (error) {
      const failed = error as Error & { stderr?: string };
      console.error(`${step.name} failed: ${failed.message}${failed.stderr ? `\n${failed.stderr}` : ""}`);
      process.exit(1);
    }
  }
}
