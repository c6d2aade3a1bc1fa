// What a native plugin costs to start, as the CLI starts it (the engine's address as its
// argument, the port read from its first line of stdout): time to that line, its resident set
// then (and of it, the private, anonymous pages and the pages of mapped files, which processes
// running the same executable share), and its peak after it served Configure, a Check and a
// Create of an account against the emulator; beside the dynamic provider host (@pulumi/pulumi's
// cmd/dynamic-provider), which a dynamic stack starts instead. The ways to start a plugin: the
// bundle `npm run plugins` writes (the plugin tarball's, and the macOS archives'), the npm bin
// (the built dist/provider/plugin/crm.js), the dynamic host, each on Node.js 24 and 26 and this
// machine's; and the single executables the release's linux-amd64 archive holds
// (scripts/plugin-sea.ts), made of Node.js 24.21 with V8's code cache (the release's), without, and of 26.10.
//
//   npx ts-node --transpile-only bench/plugin-start.ts [--runs 10]
//
// Not part of npm test.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { startEmulator } from "../emulator";
import { grpc, providerProto, providerServices, structProto } from "../provider/plugin/sdk-modules";
import { buildPlugins } from "../scripts/plugin-bundle";
import { releaseTargets, writeSingleExecutable } from "../scripts/plugin-sea";
import { ensureNode, ensureToolchain, newestNodeVersion, programNodeVersion } from "../scripts/toolchain";
import { repoRoot } from "../scripts/harness/packed-program";

const { values } = parseArgs({ options: { runs: { type: "string", default: "10" } } });
const runs = Number(values.runs);

const kib = (pid: number, field: "VmRSS" | "VmHWM" | "RssAnon" | "RssFile") =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
const struct = (value: Record<string, unknown>) => structProto.Struct.fromJavaScript(value as Record<string, never>);

const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill();
});

/** Starts the command; resolves with the port it prints and the milliseconds until it did. */
function started(command: string, args: string[]): Promise<{ child: ChildProcess; port: number; ms: number }> {
  const begun = process.hrtime.bigint();
  // The engine's address: nothing listens there, and a provider only dials it to log.
  const child = spawn(command, [...args, "127.0.0.1:1"], { stdio: ["ignore", "pipe", "inherit"] });
  running.add(child);
  child.once("exit", () => running.delete(child));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const line = out.split("\n");
      if (line.length > 1) resolve({ child, port: Number(line[0]), ms: Number(process.hrtime.bigint() - begun) / 1e6 });
    });
    child.on("exit", (code) => reject(new Error(`${command} exited ${code} before printing its port`)));
  });
}

function call<Response>(client: any, method: string, request: unknown): Promise<Response> {
  return new Promise((resolve, reject) => client[method](request, (error: Error | null, response: Response) => (error ? reject(error) : resolve(response))));
}

/** Configure, Check and Create of one account, as the engine sends them to a plugin or to the dynamic host. */
async function serveOneAccount(port: number, settings: Record<string, string>, n: number, dynamic: boolean): Promise<void> {
  const client = new providerServices.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  // The dynamic host's provider takes the whole stack config, its keys namespaced; a plugin's, its package's settings.
  const args = dynamic ? settings : Object.fromEntries(Object.entries(settings).map(([key, value]) => [key.split(":")[1], value]));
  await call(client, "configure", new providerProto.ConfigureRequest().setAcceptsecrets(true).setArgs(struct(args)));
  // The dynamic host finds the resource's module in `__provider`, as a dynamic stack stores it.
  const provider = dynamic
    ? { __provider: `exports.handler = () => require(${JSON.stringify(join(repoRoot, "dist", "provider", "crm", "account.js"))});` }
    : {};
  const type = dynamic ? "pulumi-nodejs:dynamic/crm:Account" : "crm:index:Account";
  const urn = `urn:pulumi:bench::bench::${type}::account-${n}`;
  const checked = await call<{ getInputs(): Struct }>(
    client,
    "check",
    new providerProto.CheckRequest()
      .setUrn(urn)
      .setType(type)
      .setOlds(struct({}))
      .setNews(struct({ name: `Bench ${n}`, ...provider })),
  );
  await call(client, "create", new providerProto.CreateRequest().setUrn(urn).setType(type).setProperties(checked.getInputs()));
  client.close();
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

interface Start {
  name: string;
  command: string;
  args: string[];
  dynamic: boolean;
}

async function main() {
  ensureToolchain();
  execFileSync("npx", ["tsc", "-b", "tsconfig.build.json"], { cwd: repoRoot, stdio: "inherit" });
  const work = join(repoRoot, ".work", "plugins", "bench");
  const [crmPlugin] = await buildPlugins(work);
  const bundle = join(crmPlugin.folder, "pulumi-resource-crm.js");
  const emulator = await startEmulator({ port: 0, rateLimit: 0 });
  const settings = { "crm:apiUrl": emulator.crmUrl, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" };
  const linux = releaseTargets.find((target) => target.os === "linux" && target.arch === "amd64")!;
  const executables = {
    [`single executable, Node.js ${programNodeVersion}, code cache (the release's)`]: {},
    [`single executable, Node.js ${programNodeVersion}, no code cache`]: { codeCache: false },
    [`single executable, Node.js ${newestNodeVersion}, no code cache`]: { nodeVersion: newestNodeVersion, codeCache: false },
  };
  const startList: Start[] = Object.entries(executables).map(([name, options], index) => {
    const output = join(work, `sea-${index}`);
    writeSingleExecutable(bundle, linux, output, join(work, `sea-${index}-work`), options);
    return { name: `${name}, ${(statSync(output).size / 1e6).toFixed(0)} MB`, command: output, args: [], dynamic: false };
  });
  const nodes = {
    [`Node.js ${programNodeVersion}`]: join(ensureNode(programNodeVersion), "node"),
    [`Node.js ${newestNodeVersion}`]: join(ensureNode(newestNodeVersion), "node"),
    [`this machine's ${process.version}`]: process.execPath,
  };
  const scripts = {
    "plugin bundle": [bundle],
    "npm bin (dist)": [join(repoRoot, "dist", "provider", "plugin", "crm.js")],
    "dynamic provider host": [require.resolve("@pulumi/pulumi/cmd/dynamic-provider")],
  };
  for (const [nodeName, node] of Object.entries(nodes)) {
    for (const [name, args] of Object.entries(scripts))
      startList.push({ name: `${nodeName}, ${name}`, command: node, args, dynamic: name.startsWith("dynamic") });
  }
  console.log(
    `${runs} starts each, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}; bundle ${(crmPlugin.bundleBytes / 1024 / 1024).toFixed(1)} MiB`,
  );
  let n = 0;
  const mib = (k: number) => (k / 1024).toFixed(0);
  for (const start of startList) {
    const ms: number[] = [];
    const rss: number[] = [];
    const anon: number[] = [];
    const file: number[] = [];
    const peakAfterCreate: number[] = [];
    for (let run = 0; run < runs; run++) {
      const { child, port, ms: startMs } = await started(start.command, start.args);
      ms.push(startMs);
      rss.push(kib(child.pid!, "VmRSS"));
      anon.push(kib(child.pid!, "RssAnon"));
      file.push(kib(child.pid!, "RssFile"));
      await serveOneAccount(port, settings, n++, start.dynamic);
      peakAfterCreate.push(kib(child.pid!, "VmHWM"));
      child.kill();
      await new Promise((resolve) => child.once("exit", resolve));
    }
    console.log(
      `${start.name.padEnd(70)} start to port ${median(ms).toFixed(0).padStart(5)} ms (min ${Math.min(...ms).toFixed(0)}, max ${Math.max(...ms).toFixed(0)}); ` +
        `RSS at port ${mib(median(rss))} MiB (anonymous ${mib(median(anon))}, files ${mib(median(file))}), peak after Configure+Check+Create ${mib(median(peakAfterCreate))} MiB`,
    );
  }
  await emulator.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
