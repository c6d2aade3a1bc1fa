// The release `npm run release` writes (scripts/release.ts), for the tests: made once per test run
// and shared by the parallel workers, with the plugin archives of linux-amd64 only (a single
// executable is some 130 MB; `npm run release` makes every platform's) and pulumi-crm's tarball
// the run packed already. And a loopback mirror of the project's GitHub releases serving it, as
// a company's mirror does: the CLI is pointed at it by PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES.

import { execFileSync } from "node:child_process";
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pluginDownloadURL } from "../generate/package-schema";
import { releaseVersion } from "../release";
import { ensureToolchain } from "../toolchain";
import { onceThisRun, packedTarball, repoRoot } from "./packed-program";

/** The platform the tests' archives are made for: this machine's. */
export const testTarget = "linux-amd64";

/** The release folder of this test run (linux-amd64's archives). */
export function releaseForTests(): string {
  return onceThisRun("release", writeTestRelease);
}

/** Writes into `dir` the release the tests take: linux-amd64's and darwin-arm64's archives, the run's packed pulumi-crm. */
function writeTestRelease(dir: string): string {
  runRelease(["--out", dir, "--targets", `${testTarget},darwin-arm64`, "--npm-package", packedTarball()]);
  return dir;
}

/** Runs `npm run release -- <args>` (scripts/release.ts). */
export function runRelease(args: string[]): void {
  const script = join(repoRoot, "scripts", "release.ts");
  execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", script, ...args], { cwd: repoRoot, stdio: ["ignore", "ignore", "inherit"] });
}

export interface ReleaseMirror {
  /** The mirror's address of the project's releases: `http://127.0.0.1:<port>/<org>/<repo>/releases/download/v${VERSION}`. */
  url: string;
  /** PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, sending the schemas' pluginDownloadURL to the mirror. */
  overrides: string;
  /** The paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Serves `folder` as GitHub serves a release's assets,
 * `/<org>/<repo>/releases/download/v<version>/<asset>`, on loopback.
 */
export async function serveRelease(folder: string): Promise<ReleaseMirror> {
  const [, org, repo] = /^github:\/\/api\.github\.com\/([^/]+)\/([^/]+)$/.exec(pluginDownloadURL)!;
  const prefix = `/${org}/${repo}/releases/download/v${releaseVersion}/`;
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://mirror").pathname);
    requests.push(path);
    const asset = path.startsWith(prefix) ? path.slice(prefix.length) : "";
    if (!asset || asset.includes("/") || !existsSync(join(folder, asset))) {
      response.writeHead(404).end();
      return;
    }
    // The CLI checks the length it was told against what it copied.
    response.writeHead(200, { "content-type": "application/gzip", "content-length": statSync(join(folder, asset)).size });
    createReadStream(join(folder, asset)).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/${org}/${repo}/releases/download/v\${VERSION}`,
    // The mirror a company points its CI at: any github:// release URL, by org and repo.
    overrides: `^github://api.github.com/(?P<org>[^/]+)/(?P<repo>[^/]+)$=${base}/\${org}/\${repo}/releases/download/v\${VERSION}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Over a CLI run's offline environment: the download allowed (the tests' CLI runs forbid it),
 * sent to `mirror`, and PATH holding the CLI's folder alone, as on a machine with no Node.js.
 */
export function downloadingEnv(mirror: ReleaseMirror): NodeJS.ProcessEnv {
  const { cliBin } = ensureToolchain();
  return { PATH: cliBin, PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false", PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: mirror.overrides };
}
