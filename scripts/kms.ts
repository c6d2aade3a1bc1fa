// A key service for the tests and benchmarks that keep a fleet's secrets with a KMS secrets
// provider (`awskms://`) in place of a passphrase: moto's AWS emulator from PyPI, installed into a
// virtual environment in the toolchain's cache the first time (not a dependency of the package),
// run on loopback in a process of its own with one symmetric key under an alias; `stop()` ends it.
// The CLI reaches it through the URL's `endpoint` (gocloud.dev's awskms opener).

import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { cacheRoot, madeOnce } from "./toolchain";

export const MOTO_VERSION = "5.2.5";

export interface RunningKms {
  /** The secrets provider's URL, as `pulumi stack init --secrets-provider` takes it. */
  url: string;
  /** What the CLI needs beside the URL: keys to sign its requests with (moto accepts any). */
  env: NodeJS.ProcessEnv;
  /** The server's process, whose CPU a benchmark counts beside the fleet's. */
  pid: number;
  stop(): Promise<void>;
}

// Serves on a free port, makes the key and its alias, then prints the port: the parent reads one line.
const SERVE = `
import logging, sys, boto3
from moto.server import ThreadedMotoServer
logging.getLogger("werkzeug").setLevel(logging.ERROR)
server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
host, port = server.get_host_and_port()
kms = boto3.client("kms", endpoint_url=f"http://{host}:{port}", region_name="us-east-1", aws_access_key_id="fleet", aws_secret_access_key="fleet")
kms.create_alias(AliasName="alias/" + sys.argv[1], TargetKeyId=kms.create_key()["KeyMetadata"]["KeyId"])
print(port, flush=True)
sys.stdin.read()
`;

/** Starts moto on a free loopback port with the key `alias/<alias>`; it ends when `stop()` closes its stdin. */
export async function startKms(alias = "fleet"): Promise<RunningKms> {
  const venv = madeOnce(join(cacheRoot(), "moto", MOTO_VERSION), (into) => {
    execFileSync("python3", ["-m", "venv", into], { stdio: ["ignore", "ignore", "inherit"] });
    execFileSync(join(into, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", `moto[server]==${MOTO_VERSION}`], {
      stdio: ["ignore", "ignore", "inherit"],
    });
  });
  const child = spawn(join(venv, "bin", "python"), ["-c", SERVE, alias], { stdio: ["pipe", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once("data", (chunk) => resolve(Number(String(chunk).trim())));
    child.once("exit", (code) => reject(new Error(`moto exited (${code}) before it listened`)));
  });
  return {
    url: `awskms://alias/${alias}?region=us-east-1&endpoint=http://127.0.0.1:${port}`,
    env: { AWS_ACCESS_KEY_ID: "fleet", AWS_SECRET_ACCESS_KEY: "fleet", AWS_REGION: "us-east-1" },
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.stdin!.end();
        child.kill();
        await exited;
      }
    },
  };
}
