// A key service for the tests and benchmarks that keep a fleet's secrets with a KMS secrets
// provider (`awskms://`) in place of a passphrase: moto's AWS emulator from PyPI, in a venv of the
// toolchain's cache (not a dependency of the package), run on loopback in a process of its own
// with one symmetric key under an alias; `stop()` ends it. The CLI reaches it through the URL's
// `endpoint` (gocloud.dev's awskms opener).

import { spawn } from "node:child_process";
import { servingChild } from "./harness/serving-child";
import { cachedPythonVenv } from "./toolchain";

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

// Serves on a free port, makes the key and its alias, then prints the port: the parent reads one
// line. It then reads stdin until it closes, so that it ends with its parent however that ends.
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

/** Starts moto on a free loopback port with the key `alias/<alias>`. */
export async function startKms(alias = "fleet"): Promise<RunningKms> {
  const python = cachedPythonVenv(`moto ${MOTO_VERSION}`, [`moto[server]==${MOTO_VERSION}`]);
  const child = spawn(python, ["-c", SERVE, alias], { stdio: ["pipe", "pipe", "inherit"] });
  const { port, stop } = await servingChild(child, "moto");
  return {
    url: `awskms://alias/${alias}?region=us-east-1&endpoint=http://127.0.0.1:${port}`,
    env: { AWS_ACCESS_KEY_ID: "fleet", AWS_SECRET_ACCESS_KEY: "fleet", AWS_REGION: "us-east-1" },
    pid: child.pid!,
    stop,
  };
}
