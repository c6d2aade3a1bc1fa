// What the first `pulumi up` of a Pulumi YAML program costs when the CLI downloads the plugin
// (test/plugin/programs/yaml-download: one crm.Account, its resource options naming `version` and
// `pluginDownloadURL`): the release folder (linux-amd64, `npm run release`'s) served on loopback as
// a mirror of the GitHub releases, an empty plugin cache, no Node.js on PATH; against the same
// `up` once the plugin is in the cache. Loopback: a real download adds the archive's transfer.
//
//   npx ts-node --transpile-only bench/plugin-download.ts [--runs 5]
//
// Not part of npm test.

import { statSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator";
import { releaseVersion } from "../scripts/release";
import { repoRoot } from "../scripts/harness/packed-program";
import { copyYamlProgram } from "../scripts/harness/plugin-program";
import { CliStack } from "../scripts/harness/pulumi-cli";
import { downloadingEnv, releaseForTests, serveRelease, testTarget } from "../scripts/harness/release";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const runs = Number(values.runs);
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

async function timed(stack: CliStack, args: string[]): Promise<number> {
  const started = process.hrtime.bigint();
  const result = await stack.run(args);
  if (result.exitCode !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${result.lines.join("\n")}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function main() {
  const release = releaseForTests();
  const archive = join(release, `pulumi-resource-crm-v${releaseVersion}-${testTarget}.tar.gz`);
  const mirror = await serveRelease(release);
  const emulator = await startEmulator({ port: 0, rateLimit: 5 });
  const program = copyYamlProgram(join(repoRoot, "test", "plugin", "programs", "yaml-download"), "bench-download");
  const first: number[] = [];
  const cached: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const stack = await CliStack.create(program, `download-${run}`, {
        config: { "crm:apiUrl": emulator.crmUrl },
        secrets: { "crm:apiToken": emulator.apiToken },
        env: downloadingEnv(mirror),
      });
      try {
        first.push(await timed(stack, ["up", "--yes"]));
        await timed(stack, ["destroy", "--yes", "--skip-preview"]);
        cached.push(await timed(stack, ["up", "--yes"]));
        await timed(stack, ["destroy", "--yes", "--skip-preview"]);
      } finally {
        stack.remove();
      }
    }
  } finally {
    await mirror.close();
    await emulator.close();
  }
  console.log(
    `${runs} runs, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}; archive ${(statSync(archive).size / 1024 / 1024).toFixed(1)} MiB (${testTarget})`,
  );
  console.log(
    `first up, downloading the plugin: median ${median(first).toFixed(1)} s (min ${Math.min(...first).toFixed(1)}, max ${Math.max(...first).toFixed(1)})`,
  );
  console.log(
    `up with the plugin in the cache:  median ${median(cached).toFixed(1)} s (min ${Math.min(...cached).toFixed(1)}, max ${Math.max(...cached).toFixed(1)})`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
