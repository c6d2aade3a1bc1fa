// A PostgreSQL server for the tests and benchmarks that run the fleet on a `postgres://` backend
// (the Pulumi CLI's pkg/backend/diy/postgres): Debian's packages, installed with apt-get where
// missing; a cluster of its own in a temporary folder, on loopback only, with a random password and
// a fresh database; stopped and removed by `stop()`.
//
// PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user the Debian
// package makes (setpriv, which execs, so that the server is this process's own child).
//
// `npx ts-node --transpile-only scripts/postgres.ts` starts one and prints its URL until Ctrl-C.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

export interface RunningPostgres {
  /** The backend's URL as the CLI takes it: `postgres://fleet:<password>@127.0.0.1:<port>/<database>?sslmode=disable`. */
  url: string;
  /** The same URL with the password masked, for messages and logs. */
  shown: string;
  port: number;
  /** Stops the server and removes its cluster. */
  stop(): Promise<void>;
}

const USER = "fleet";

/** The folder of initdb and postgres: the newest of Debian's /usr/lib/postgresql/<major>/bin, installed with apt-get if none. */
export function postgresBin(): string {
  const found = () => {
    const root = "/usr/lib/postgresql";
    const majors = existsSync(root) ? readdirSync(root).filter((major) => existsSync(join(root, major, "bin", "initdb"))) : [];
    return majors.sort((a, b) => Number(b) - Number(a)).map((major) => join(root, major, "bin"))[0];
  };
  const bin = found();
  if (bin) return bin;
  process.stderr.write("PostgreSQL is not installed: installing Debian's package (apt-get install postgresql)\n");
  // Root runs apt-get itself; anyone else through sudo, without a prompt.
  const [file, ...first] = userInfo().uid === 0 ? ["apt-get"] : ["sudo", "-n", "apt-get"];
  const apt = (...args: string[]) => execFileSync(file, [...first, ...args], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  apt("update");
  apt("install", "-y", "--no-install-recommends", "postgresql");
  const installed = found();
  if (!installed) throw new Error("apt-get installed postgresql, yet no /usr/lib/postgresql/<major>/bin/initdb is there");
  return installed;
}

/** A free loopback port (the server takes no port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a server of its own, on loopback, with a fresh database `database`, and `settings` (`name=value`, as `postgres -c` takes them) besides. */
export async function startPostgres(database = "pulumi", settings: string[] = []): Promise<RunningPostgres> {
  const bin = postgresBin();
  const root = mkdtempSync(join(tmpdir(), "pulumi-crm-postgres-"));
  const data = join(root, "data");
  const password = randomBytes(18).toString("hex");
  // As root: the Debian package's `postgres` user runs the server, owning its folders.
  const runAs = userInfo().uid === 0 ? ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"] : [];
  const command = (name: string, args: string[]) =>
    runAs.length ? { file: runAs[0], args: [...runAs.slice(1), join(bin, name), ...args] } : { file: join(bin, name), args };
  const passwordFile = join(root, "password");
  writeFileSync(passwordFile, password, { mode: 0o600 });
  if (runAs.length) execFileSync("chown", ["-R", "postgres:postgres", root]);
  const initdb = command("initdb", ["-D", data, "-U", USER, "--auth=scram-sha-256", `--pwfile=${passwordFile}`, "--no-sync", "-E", "UTF8", "--locale=C"]);
  execFileSync(initdb.file, initdb.args, { stdio: "pipe" });
  rmSync(passwordFile);

  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    // Loopback only, no Unix socket; fsync off: a test's cluster is thrown away.
    const server = command("postgres", [
      "-D",
      data,
      "-h",
      "127.0.0.1",
      "-p",
      String(port),
      "-c",
      "unix_socket_directories=",
      "-c",
      "fsync=off",
      "-c",
      "max_connections=200",
      ...settings.flatMap((setting) => ["-c", setting]),
    ]);
    const child = spawn(server.file, server.args, { stdio: ["ignore", "ignore", "pipe"] });
    let log = "";
    child.stderr!.on("data", (chunk) => (log += chunk));
    const ready = await untilReady(child, () => log);
    if (!ready) {
      // Another process took the port between freePort and the server's bind: try another.
      if (attempt < 3 && /could not bind|Address already in use/.test(log)) continue;
      rmSync(root, { recursive: true, force: true });
      throw new Error(`PostgreSQL did not start:\n${log}`);
    }
    const env = { ...process.env, PGPASSWORD: password };
    execFileSync(join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", USER, database], { env, stdio: "pipe" });
    const url = `postgres://${USER}:${password}@127.0.0.1:${port}/${database}?sslmode=disable`;
    return {
      url,
      shown: url.replace(password, "****"),
      port,
      stop: async () => {
        if (child.exitCode === null) {
          const exited = new Promise((resolve) => child.once("exit", resolve));
          // SIGINT: the server's fast shutdown, which ends its sessions.
          child.kill("SIGINT");
          await exited;
        }
        rmSync(root, { recursive: true, force: true });
      },
    };
  }
}

/** Whether the server came to accept connections (its log says so), or exited first. */
function untilReady(child: ChildProcess, log: () => string): Promise<boolean> {
  return new Promise((resolve) => {
    const check = () => {
      if (/ready to accept connections/.test(log())) done(true);
    };
    const done = (ready: boolean) => {
      child.stderr!.off("data", check);
      child.off("exit", exited);
      resolve(ready);
    };
    const exited = () => done(false);
    child.stderr!.on("data", check);
    child.once("exit", exited);
    check();
  });
}

if (require.main === module) {
  startPostgres().then((server) => {
    process.stdout.write(`${server.url}\n`);
    process.stderr.write("PostgreSQL runs; Ctrl-C stops it and removes its data\n");
    process.on("SIGINT", () => void server.stop().then(() => process.exit(0)));
  });
}
