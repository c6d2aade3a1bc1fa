// An S3-compatible server for the tests that run the fleet on an `s3://` backend: s3rver from the
// npm registry, installed into the toolchain's cache the first time (not a dependency of the
// package), run on loopback in a process of its own with one bucket; `stop()` ends it and
// removes its data.

import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { servingChild } from "./harness/serving-child";
import { cacheRoot, madeOnce } from "./toolchain";

export const S3RVER_VERSION = "3.7.1";

export interface RunningS3 {
  /** The backend's URL as the CLI 3.274.1 takes it for an S3-compatible server: path-style, its endpoint named. */
  url: string;
  /** What the CLI needs beside the URL: s3rver's own keys, which it checks requests are signed with. */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** Starts s3rver on a free loopback port with the bucket `bucket`. */
export async function startS3(bucket = "fleet"): Promise<RunningS3> {
  const installed = madeOnce(join(cacheRoot(), "s3rver", S3RVER_VERSION), (into) => {
    writeFileSync(join(into, "package.json"), JSON.stringify({ private: true }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `s3rver@${S3RVER_VERSION}`], {
      cwd: into,
      stdio: ["ignore", "ignore", "inherit"],
    });
  });
  const data = mkdtempSync(join(tmpdir(), "pulumi-crm-s3-"));
  const serve = `new (require("s3rver"))({ port: 0, address: "127.0.0.1", silent: true, directory: process.argv[1], configureBuckets: [{ name: process.argv[2] }] }).run().then(({ port }) => console.log(port));`;
  const child = spawn(process.execPath, ["-e", serve, data, bucket], { cwd: installed, stdio: ["ignore", "pipe", "inherit"] });
  const { port, stop } = await servingChild(child, "s3rver");
  return {
    url: `s3://${bucket}?endpoint=http://127.0.0.1:${port}&s3ForcePathStyle=true&region=us-east-1`,
    env: { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER", AWS_REGION: "us-east-1" },
    stop: async () => {
      await stop();
      rmSync(data, { recursive: true, force: true });
    },
  };
}
